// Receiving a sales (or recipes) file: the multipart form is read as a stream (never the whole file
// in memory) and the file part goes straight into an R2 multipart upload at
// `imports/<job id>/original.<csv|xlsx>`, in parts of 5 MiB (R2 wants them equal but the last),
// through the row scanner (rows, the longest row, the widest row, NUL bytes), a UTF-8 check and a
// SHA-256 as it passes; only the first 64 KiB are kept, for the headers and the preview. A
// malformed file (empty, binary, too large, a row too long or too wide, wrong headers) is refused
// with a message that says what to do, and leaves nothing behind: the R2 upload is aborted (or the
// stored objects deleted) and no job row is written. A good file becomes a job in `preview`, with
// its preset recognised and its mapping (the preset's, the one saved for its headers, or one guessed
// from the header names), in one batch with its `upload_import` activity.
//
// An XLSX is read back from R2 (at most 10 MiB), its first sheet's rows found below any title rows
// and above the totals row, and stored as the CSV the worker reads (`imports/<job id>/rows.csv`).
import { createHash } from "node:crypto";
import { type UploadHandlerPart, unstable_parseMultipartFormData } from "@remix-run/cloudflare";
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { can, isOrganizationAdmin } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { mediaTypeOf } from "~/http/body.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { ImportFormat, ImportKind, ImportSource, ImportStatus } from "../../db/schema/imports/constants";
import { UploadFields } from "./forms";
import { IMPORT_UPLOAD_MESSAGES, type ImportRefusal, type Outcome, refuse } from "./job-refusals";
import { CSV_LIMITS, completeRowsEnd, parseCsv, RowScanner, type ScanResult } from "./parse/csv";
import { type ColumnMapping, REQUIRED_SALES_FIELDS, SALES_FIELDS, type SalesField } from "./parse/fields";
import {
  findHeaderRow,
  headerSignature,
  isTotalsRow,
  PRESETS,
  type PresetId,
  presetMapping,
  recognisePreset,
} from "./parse/presets";
import { toCsv, xlsxRows } from "./parse/xlsx";
import { RECIPES_FILE_MESSAGES, RECIPES_LIMITS, readRecipeRows } from "./recipes";
import { Utf8Check } from "./utf8";

/** R2 multipart parts: 5 MiB each (R2's least), all equal but the last. */
export const UPLOAD_PART_BYTES = 5 * 1024 * 1024;
/** The start of the file kept for the headers and the preview. */
export const PREVIEW_BYTES = 64 * 1024;
/** A text field of the form (kind, locationId, mapping) is read no further than this. */
const FIELD_MAX_BYTES = 16 * 1024;

export type UploadLimits = typeof CSV_LIMITS;

const recipeLimits = (limits: UploadLimits): UploadLimits => ({
  ...limits,
  maxBytes: Math.min(limits.maxBytes, RECIPES_LIMITS.maxBytes),
  xlsxMaxBytes: Math.min(limits.xlsxMaxBytes, RECIPES_LIMITS.maxBytes),
});

export const importKeys = {
  original: (jobId: string, format: ImportFormat) => `imports/${jobId}/original.${format}`,
  rows: (jobId: string) => `imports/${jobId}/rows.csv`,
};

export interface ReceivedJob {
  id: string;
  kind: ImportKind;
  status: ImportStatus;
  fileName: string;
  format: ImportFormat;
  source: ImportSource;
  locationId: string | null;
  headers: string[];
  mapping: ColumnMapping;
  rowsTotal: number;
  /** Required fields the mapping does not give a column (the preview asks for them). */
  missing: SalesField[];
}

export interface ReceiveOptions {
  /** Lower limits (tests): the documented ones are CSV_LIMITS. */
  limits?: Partial<UploadLimits>;
  /** The JSON API: a sales file must come with every required field mapped (else 422), and a location. */
  requireComplete?: boolean;
  idempotencyKey?: string | null;
  /** Whether the actor may bring a file of this kind (checked before the job is made): e.g. recipes change the catalogue. */
  mayBring?: (kind: ImportKind) => boolean;
}

/** A refusal thrown from inside the stream, to stop reading it at once. */
class Refusal extends Error {
  constructor(
    readonly refusal: ImportRefusal,
    message?: string,
  ) {
    super(message);
  }
}

/** Whether the actor may import into `locationId` (the SQL guard checks it is their organization's). */
export function mayImportAt(actor: ScopedActor, locationId: string): boolean {
  if (!can(actor, "WRITE_IMPORTS", locationId)) return false;
  return isOrganizationAdmin(actor) || actor.locationRoles.some((r) => r.locationId === locationId);
}

interface StoredFile {
  fileName: string;
  format: ImportFormat;
  size: number;
  hash: string;
  head: Uint8Array;
  scan: ScanResult | null;
  key: string;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Streams one file part into R2 as it arrives. Throws a Refusal (after aborting the upload) the
 * moment the file is too large or a line too long; answers what the rest of the checks need.
 */
async function storeFile(
  files: R2Bucket,
  jobId: string,
  part: UploadHandlerPart,
  limits: UploadLimits,
): Promise<StoredFile> {
  const hash = createHash("sha256");
  const scanner = new RowScanner();
  const utf8 = new Utf8Check();
  const head = new Uint8Array(PREVIEW_BYTES);
  let headBytes = 0;
  let size = 0;
  let format: ImportFormat | null = null;
  let lineBytes = 0;
  // Bytes waiting to become a part; R2's multipart upload opens with the first full part.
  const buffer = new Uint8Array(UPLOAD_PART_BYTES);
  let buffered = 0;
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  let key = "";

  const inspect = (bytes: Uint8Array) => {
    if (format !== "csv") return;
    scanner.feed(bytes);
    utf8.feed(bytes);
    // A line (bytes between newlines, quotes or not) longer than a row may be is refused at once:
    // a row is at least as long as any line inside it, so the 50 MB single line never gets stored.
    let from = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, from);
      const run = (newline === -1 ? bytes.length : newline) - from;
      if (lineBytes + run > limits.maxRowBytes)
        throw new Refusal("row_too_long", IMPORT_UPLOAD_MESSAGES.rowTooLong(limits.maxRowBytes));
      if (newline === -1) {
        lineBytes += run;
        break;
      }
      lineBytes = 0;
      from = newline + 1;
    }
  };
  const flushPart = async () => {
    if (!upload) {
      upload = await files.createMultipartUpload(key, { httpMetadata: { contentType: contentTypeOf(format) } });
    }
    // The buffer itself (no copy): storage has taken it once the part is answered, then it is refilled.
    parts.push(
      await upload.uploadPart(parts.length + 1, buffered === buffer.length ? buffer : buffer.subarray(0, buffered)),
    );
    buffered = 0;
  };
  const take = async (bytes: Uint8Array) => {
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, UPLOAD_PART_BYTES - buffered);
      buffer.set(bytes.subarray(from, from + n), buffered);
      buffered += n;
      from += n;
      if (buffered === UPLOAD_PART_BYTES) await flushPart();
    }
  };
  const decide = async () => {
    const magic = ZIP_MAGIC.every((b, i) => head[i] === b);
    format = magic ? "xlsx" : "csv";
    key = importKeys.original(jobId, format);
    if (format === "xlsx" && size > limits.xlsxMaxBytes) throw tooLarge(limits, format);
    inspect(head.subarray(0, headBytes));
  };

  try {
    for await (const chunk of part.data) {
      if (chunk.length === 0) continue;
      size += chunk.length;
      const limit = format === "xlsx" ? limits.xlsxMaxBytes : limits.maxBytes;
      if (size > limit) throw tooLarge(limits, format ?? "csv");
      hash.update(chunk);
      if (headBytes < PREVIEW_BYTES) {
        const n = Math.min(PREVIEW_BYTES - headBytes, chunk.length);
        head.set(chunk.subarray(0, n), headBytes);
        headBytes += n;
      }
      if (format === null && headBytes >= ZIP_MAGIC.length) {
        await decide();
        // The head so far was inspected in decide(); the rest of this chunk (beyond the head) now.
        const inHead = Math.max(0, chunk.length - (size - headBytes));
        inspect(chunk.subarray(inHead));
      } else if (format !== null) {
        inspect(chunk);
      }
      await take(chunk);
    }
    if (size === 0) throw new Refusal("empty");
    if (format === null) await decide();
    const scan = format === "csv" ? scanner.finish() : null;
    if (scan && (scan.binary || !utf8.finish())) throw new Refusal("binary");
    if (scan && scan.longestRowBytes > limits.maxRowBytes) {
      throw new Refusal("row_too_long", IMPORT_UPLOAD_MESSAGES.rowTooLong(limits.maxRowBytes));
    }
    if (scan && scan.widestRow > limits.maxColumns) {
      throw new Refusal("too_wide", IMPORT_UPLOAD_MESSAGES.tooWide(scan.widestRow, limits.maxColumns));
    }
    const stored = upload as R2MultipartUpload | null;
    if (stored) {
      if (buffered > 0) await flushPart();
      await stored.complete(parts);
    } else {
      await files.put(key, buffer.subarray(0, buffered), { httpMetadata: { contentType: contentTypeOf(format) } });
    }
    return {
      fileName: part.filename ?? "",
      format: format as unknown as ImportFormat,
      size,
      hash: hash.digest("hex"),
      head: head.slice(0, headBytes),
      scan,
      key,
    };
  } catch (error) {
    const open = upload as R2MultipartUpload | null;
    if (open) await open.abort().catch(() => undefined);
    throw error;
  }
}

function contentTypeOf(format: ImportFormat | null) {
  return format === "xlsx"
    ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    : "text/csv; charset=utf-8";
}

function tooLarge(limits: UploadLimits, format: ImportFormat) {
  const limit = format === "xlsx" ? limits.xlsxMaxBytes : limits.maxBytes;
  return new Refusal("too_large", IMPORT_UPLOAD_MESSAGES.tooLarge(limit, format));
}

async function readField(part: UploadHandlerPart): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.data) {
    size += chunk.length;
    if (size > FIELD_MAX_BYTES) throw new Refusal("invalid", `The field ${part.name} is too long.`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(bytes);
}

/** The rows the worker will read, and the file's header row, worked out from what was stored. */
interface Rows {
  headers: string[];
  rowsKey: string;
  rowsBytes: number;
  rowsTotal: number;
  /** The file's row number (as a spreadsheet counts, from 1) of the header row. */
  headerRow: number;
}

async function rowsOf(
  files: R2Bucket,
  jobId: string,
  stored: StoredFile,
  limits: UploadLimits,
  kind: ImportKind,
): Promise<Rows | Refusal> {
  if (kind === "recipes") return recipeRowsOf(files, jobId, stored);
  if (stored.format === "csv") {
    const atEnd = stored.size <= stored.head.length;
    const end = completeRowsEnd(stored.head, atEnd);
    const rows = parseCsv(new TextDecoder().decode(stored.head.subarray(0, end)));
    const headerIndex = findHeaderRow(rows);
    if (headerIndex === -1) return new Refusal("wrong_headers", wrongHeaders([]));
    const headers = (rows[headerIndex] ?? []).map((h) => h.trim());
    const scan = stored.scan as ScanResult;
    return {
      headers,
      rowsKey: stored.key,
      rowsBytes: stored.size,
      rowsTotal: Math.max(0, scan.rows - headerIndex - 1),
      headerRow: headerIndex + 1,
    };
  }
  const object = await files.get(stored.key);
  if (!object) return new Refusal("binary");
  let sheet: string[][];
  try {
    sheet = await xlsxRows(await object.arrayBuffer());
  } catch {
    return new Refusal("binary");
  }
  const headerIndex = findHeaderRow(sheet);
  if (headerIndex === -1) return new Refusal(sheet.length === 0 ? "empty" : "wrong_headers", wrongHeaders([]));
  const headers = (sheet[headerIndex] ?? []).map((h) => h.trim());
  const data = sheet.slice(headerIndex + 1);
  while (data.length > 0) {
    const last = data[data.length - 1] as string[];
    if (isTotalsRow(last) || last.every((c) => c.trim() === "")) data.pop();
    else break;
  }
  const widest = Math.max(headers.length, ...data.map((r) => r.length));
  if (widest > limits.maxColumns)
    return new Refusal("too_wide", IMPORT_UPLOAD_MESSAGES.tooWide(widest, limits.maxColumns));
  const csv = new TextEncoder().encode(toCsv([headers, ...data]));
  const rowsKey = importKeys.rows(jobId);
  await files.put(rowsKey, csv, { httpMetadata: { contentType: "text/csv; charset=utf-8" } });
  return { headers, rowsKey, rowsBytes: csv.length, rowsTotal: data.length, headerRow: headerIndex + 1 };
}

/**
 * A recipes file (at most 1 MiB, so read back whole): read as the recipes import reads it, refused
 * here when it has no recipe header or no rows; an XLSX stored as the CSV it reads as.
 */
async function recipeRowsOf(files: R2Bucket, jobId: string, stored: StoredFile): Promise<Rows | Refusal> {
  const object = await files.get(stored.key);
  if (!object) return new Refusal("binary");
  let rows: string[][];
  if (stored.format === "xlsx") {
    try {
      rows = await xlsxRows(await object.arrayBuffer());
    } catch {
      return new Refusal("binary");
    }
  } else {
    rows = parseCsv(await object.text());
  }
  const read = readRecipeRows(rows);
  if (!read.ok) return new Refusal("wrong_headers", read.message);
  const total = read.rows.length + read.problems.length;
  if (stored.format === "csv") {
    return { headers: read.headers, rowsKey: stored.key, rowsBytes: stored.size, rowsTotal: total, headerRow: 1 };
  }
  const csv = new TextEncoder().encode(toCsv(rows));
  const rowsKey = importKeys.rows(jobId);
  await files.put(rowsKey, csv, { httpMetadata: { contentType: "text/csv; charset=utf-8" } });
  return { headers: read.headers, rowsKey, rowsBytes: csv.length, rowsTotal: total, headerRow: 1 };
}

const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Field names a header may spell out, beside the presets' own headers (e.g. "Net Sales", "Qty"). */
const ALIASES: Partial<Record<SalesField, readonly string[]>> = {
  date: ["date", "saledate", "solddate", "invoicedate", "transactiondate"],
  item: ["item", "itemname", "product", "productname", "service", "servicename", "description"],
  quantity: ["quantity", "qty", "units", "count"],
  netSales: ["netsales", "net", "netamount", "amount", "sales", "total"],
  sku: ["sku"],
  gtin: ["gtin", "upc", "ean", "barcode"],
  transactionId: ["transactionid", "invoiceno", "invoicenumber", "receiptnumber", "orderid"],
  location: ["location", "center", "centre", "store", "clinic"],
  provider: ["provider", "employee", "staff", "therapist", "soldby"],
  time: ["time"],
  timeZone: ["timezone"],
};

/** A mapping guessed from the header names (a file no preset recognises), only to pre-fill the preview. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const byNormal = new Map(headers.map((h) => [normal(h), h]));
  const mapping: ColumnMapping = {};
  for (const field of SALES_FIELDS) {
    const names = new Set([normal(field), ...(ALIASES[field] ?? [])]);
    for (const preset of Object.values(PRESETS)) {
      const header = preset.mapping[field];
      if (header) names.add(normal(header));
    }
    for (const name of names) {
      const header = byNormal.get(name);
      if (header !== undefined) {
        mapping[field] = header;
        break;
      }
    }
  }
  return mapping;
}

/** Required fields `mapping` leaves without one of `headers`. */
export function missingFields(mapping: ColumnMapping, headers: readonly string[]): SalesField[] {
  return REQUIRED_SALES_FIELDS.filter((f) => {
    const header = mapping[f];
    return !header || !headers.includes(header);
  });
}

/** Only the fields mapped to one of the file's own headers. */
export function keptMapping(mapping: ColumnMapping, headers: readonly string[]): ColumnMapping {
  const kept: ColumnMapping = {};
  for (const field of SALES_FIELDS) {
    const header = mapping[field];
    if (header && headers.includes(header)) kept[field] = header;
  }
  return kept;
}

function wrongHeaders(headers: readonly string[]): string {
  return IMPORT_UPLOAD_MESSAGES.wrongHeaders(
    headers.filter((h) => h !== ""),
    ["Date", "Item", "Quantity", "Net Sales"],
  );
}

const FIELD_NAMES: Record<string, string> = { date: "Date", item: "Item", quantity: "Quantity", netSales: "Net Sales" };

/**
 * Reads an upload (multipart: `kind`, `locationId`, `file`, and for the API an optional `mapping`)
 * and stores it as a job in `preview`. `kind`, when given, is what the page uploads (a form's `kind`
 * field must then agree); else the form's field decides.
 */
export async function receiveUpload(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  request: Request,
  kind?: ImportKind,
  options: ReceiveOptions = {},
): Promise<Outcome<{ job: ReceivedJob }>> {
  if (!isOrganizationAdmin(actor) && !actor.locationRoles.some((r) => can(actor, "WRITE_IMPORTS", r.locationId))) {
    return refuse("forbidden");
  }
  if (mediaTypeOf(request.headers.get("Content-Type"))?.type !== "multipart/form-data" || !request.body) {
    return refuse("not_multipart");
  }
  const limits: UploadLimits = { ...CSV_LIMITS, ...options.limits };
  // A body announced larger than any file may be (with room for the other fields) is refused unread.
  const announced = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (announced > limits.maxBytes + FIELD_MAX_BYTES * 4) {
    return refuse("too_large", IMPORT_UPLOAD_MESSAGES.tooLarge(limits.maxBytes, "csv"));
  }

  const jobId = uuidv7();
  const fields: Record<string, string> = {};
  let stored: StoredFile | null = null;
  try {
    await unstable_parseMultipartFormData(request, async (part) => {
      if (typeof part.filename === "string") {
        if (part.name !== "file" || stored) throw new Refusal("invalid", "Send one file, in the field named file.");
        // A form sent with no file chosen carries an empty part with no name.
        if (part.filename === "") {
          for await (const _ of part.data) throw new Refusal("no_file");
          return undefined;
        }
        // A recipes file is small (RECIPES_LIMITS): when the form says so before the file, cut it there.
        const kindSoFar = fields.kind ?? kind;
        stored = await storeFile(files, jobId, part, kindSoFar === "recipes" ? recipeLimits(limits) : limits);
        return undefined;
      }
      fields[part.name] = await readField(part);
      return undefined;
    });
  } catch (error) {
    await removeStored(files, stored);
    if (error instanceof Refusal) {
      const recipes = (fields.kind ?? kind) === "recipes" && error.refusal === "too_large";
      return refuse(error.refusal, recipes ? RECIPES_FILE_MESSAGES.tooLarge : error.message || undefined);
    }
    if (error instanceof TypeError) return refuse("not_multipart");
    throw error;
  }
  const file = stored as StoredFile | null;
  const refused = async (refusal: ImportRefusal, message?: string) => {
    await removeStored(files, file, jobId);
    return refuse(refusal, message);
  };
  if (!file) return refused("no_file");

  const parsed = UploadFields.safeParse(fields);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message;
    return refused(parsed.error.issues[0]?.path[0] === "mapping" ? "bad_mapping" : "invalid", message);
  }
  const jobKind = parsed.data.kind ?? kind;
  if (!jobKind || (kind && parsed.data.kind && parsed.data.kind !== kind)) return refused("kind");
  if (options.mayBring && !options.mayBring(jobKind)) return refused("forbidden");
  if (jobKind === "recipes" && file.size > RECIPES_LIMITS.maxBytes) {
    return refused("too_large", RECIPES_FILE_MESSAGES.tooLarge);
  }
  // Recipes are the organization's catalogue: no location of their own.
  const locationId = jobKind === "recipes" ? null : parsed.data.locationId;
  if (locationId && !mayImportAt(actor, locationId)) return refused("location_unavailable");
  if (!locationId && options.requireComplete && jobKind === "sales") return refused("location_needed");

  const rows = await rowsOf(files, jobId, file, limits, jobKind);
  if (rows instanceof Refusal) return refused(rows.refusal, rows.message || undefined);
  if (rows.rowsTotal === 0) return refused("no_rows");

  let source: ImportSource = "custom";
  let mapping: ColumnMapping = {};
  if (jobKind === "sales") {
    const preset: PresetId | null = recognisePreset(rows.headers);
    const saved = preset ? null : await savedMapping(db, actor, jobKind, rows.headers);
    const given = parsed.data.mapping ?? null;
    if (given) mapping = keptMapping(given, rows.headers);
    else if (preset) mapping = presetMapping(preset, rows.headers);
    else if (saved) mapping = keptMapping(saved, rows.headers);
    else mapping = guessMapping(rows.headers);
    source = preset && !given ? preset : "custom";
    if (!preset && !saved && !given && REQUIRED_SALES_FIELDS.every((f) => !mapping[f])) {
      return refused("wrong_headers", wrongHeaders(rows.headers));
    }
    if (given) {
      const unknown = Object.values(given).find((h) => h && !rows.headers.includes(h));
      if (unknown)
        return refused(
          "unknown_header",
          `The file has no column "${unknown.slice(0, 80)}": ${IMPORT_REFUSALS_UNKNOWN}`,
        );
    }
    // The API takes only columns it was told or that are known (never a guess from the names).
    const missing = missingFields(preset || saved || given ? mapping : {}, rows.headers);
    if (options.requireComplete && missing.length > 0) {
      return refused("missing_fields", IMPORT_UPLOAD_MESSAGES.missingFields(missing.map((f) => FIELD_NAMES[f] ?? f)));
    }
    if (!locationId && !mapping.location) return refused("location_needed");
  }

  const key = await idempotencyKeyFor(actor.id, options.idempotencyKey, "upload_import", {
    kind: jobKind,
    locationId,
    fileHash: file.hash,
    fileName: file.fileName,
    mapping: parsed.data.mapping ?? null,
  });
  const now = Date.now();
  const organization = organizationOf(actor);
  // The location's time zone, for rows whose file names none; with a mapped location column, the
  // first location of the organization's (each row's own location decides when the worker reads it).
  const zoneOf = locationId
    ? sql`(SELECT timezone FROM locations WHERE id = ${locationId} AND organization_id = ${organization} AND active = 1)`
    : sql`(SELECT timezone FROM locations WHERE organization_id = ${organization} AND active = 1 ORDER BY created_at LIMIT 1)`;
  const [inserted, , , recalled] = await db.batch([
    db.all<{
      id: string;
    }>(sql`INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name,
        format, file_hash, original_key, rows_key, rows_bytes, headers, mapping, time_zone, byte_offset, rows_total,
        created_by, created_at)
      SELECT ${jobId}, ${organization}, ${jobKind}, ${locationId}, 'preview', ${source}, ${file.fileName}, ${file.format},
        ${file.hash}, ${file.key}, ${rows.rowsKey}, ${rows.rowsBytes}, ${JSON.stringify(rows.headers)},
        ${JSON.stringify(mapping)}, zone.tz, 0, ${rows.rowsTotal}, ${actor.id}, ${now}
      FROM (SELECT ${zoneOf} AS tz) AS zone
      WHERE zone.tz IS NOT NULL AND ${keyUnused(key)}
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId,
        action: "upload_import",
        entity: "import_job",
        entityId: jobId,
        summary: sql`json_object('fileName', j.file_name, 'location', (SELECT name FROM locations WHERE id = j.location_id))`,
      },
      sql`FROM import_jobs AS j WHERE j.id = ${jobId} AND j.created_at = ${now}`,
    ),
    rememberKey(
      db,
      key,
      sql`json_object('id', ${jobId}, 'status', 'preview')`,
      sql`FROM import_jobs WHERE id = ${jobId}`,
    ),
    recallKey(db, key),
  ]);
  if (inserted.length !== 1) {
    await removeStored(files, file, jobId);
    const replay = replayOf<{ id: string }>(recalled, key);
    if (replay.replay) {
      const earlier = await receivedJob(db, actor, replay.answer.id);
      if (earlier) return { ok: true, job: earlier };
    } else if (replay.misused) return refuse("key_misused");
    return refuse("location_unavailable");
  }
  return {
    ok: true,
    job: {
      id: jobId,
      kind: jobKind,
      status: "preview",
      fileName: file.fileName,
      format: file.format,
      source,
      locationId,
      headers: rows.headers,
      mapping,
      rowsTotal: rows.rowsTotal,
      missing: jobKind === "sales" ? missingFields(mapping, rows.headers) : [],
    },
  };
}

const IMPORT_REFUSALS_UNKNOWN = "map each field to one of the file's own column names.";

async function savedMapping(
  db: Database,
  actor: ScopedActor,
  kind: ImportKind,
  headers: readonly string[],
): Promise<ColumnMapping | null> {
  const rows = await db.all<{ mapping: string }>(sql`SELECT mapping FROM import_mappings
    WHERE organization_id = ${organizationOf(actor)} AND kind = ${kind} AND header_signature = ${headerSignature(headers)}`);
  const text = rows[0]?.mapping;
  if (!text) return null;
  try {
    return JSON.parse(text) as ColumnMapping;
  } catch {
    return null;
  }
}

/** An earlier upload's job (a replayed key), as receiveUpload answers it. */
async function receivedJob(db: Database, actor: ScopedActor, id: string): Promise<ReceivedJob | null> {
  const rows = await db.all<{
    id: string;
    kind: ImportKind;
    status: ImportStatus;
    file_name: string;
    format: ImportFormat;
    source: ImportSource;
    location_id: string | null;
    headers: string;
    mapping: string;
    rows_total: number;
  }>(sql`SELECT id, kind, status, file_name, format, source, location_id, headers, mapping, rows_total
    FROM import_jobs WHERE id = ${id} AND organization_id = ${organizationOf(actor)}`);
  const row = rows[0];
  if (!row) return null;
  const headers = JSON.parse(row.headers) as string[];
  const mapping = JSON.parse(row.mapping) as ColumnMapping;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    fileName: row.file_name,
    format: row.format,
    source: row.source,
    locationId: row.location_id,
    headers,
    mapping,
    rowsTotal: Number(row.rows_total),
    missing: row.kind === "sales" ? missingFields(mapping, headers) : [],
  };
}

/** Deletes what an upload stored (the original, and an XLSX's rows), when it is refused. */
async function removeStored(files: R2Bucket, stored: StoredFile | null, jobId?: string) {
  const keys = [stored?.key, jobId ? importKeys.rows(jobId) : undefined].filter((k): k is string => !!k);
  if (keys.length > 0) await files.delete(keys).catch(() => undefined);
}
