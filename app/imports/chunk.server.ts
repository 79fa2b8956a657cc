// One chunk of a sales import (issue 24 item 3, architecture.md "Scheduled work"): the bytes of the
// job's rows file from its progress mark, cut at the last complete row, parsed row by row, and
// committed in ONE batch with the new mark. Every statement of that batch is guarded by the mark the
// chunk started at, so a chunk is applied exactly once, however often a run dies or two runs race:
// a crash before the batch leaves nothing, a crash after it leaves the whole chunk and its mark.

import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { sha256Hex } from "~/sha256";
import { CSV_LIMITS, completeRowsEnd, parseCsv } from "./parse/csv";
import type { ColumnMapping } from "./parse/fields";
import { findHeaderRow, isTotalsRow } from "./parse/presets";
import { ERROR_VALUE_MAX, parseSalesRow } from "./parse/rows";

/** Bytes of the rows file one chunk reads: some 2,000 to 3,000 rows of a Square export. */
export const CHUNK_BYTES = 512 * 1024;

/** The head of a file its header row is looked for in (title rows and the header). */
const HEAD_BYTES = CSV_LIMITS.maxRowBytes * 4;

/** A claimed job as the chunk reads it. */
export interface ChunkJob {
  id: string;
  organizationId: string;
  locationId: string | null;
  fileName: string;
  rowsKey: string;
  rowsBytes: number;
  headers: string[];
  mapping: ColumnMapping;
  locationMap: Record<string, string> | null;
  timeZone: string;
  byteOffset: number;
  rowsDone: number;
  createdBy: string;
}

/** What the worker knows of a job for the length of one run. */
export interface RunContext {
  /** Index of the header row among the file's first rows (title rows above it in Zenoti's exports). */
  headerIndex: number | null;
  /** The organization's location ids: a mapped location value must name one of them. */
  locations: ReadonlySet<string>;
}

/** A failure no retry can mend (the file is gone, has no header row, a row too long to be a row). */
export class UnreadableFile extends Error {}

export interface ChunkResult {
  /** The job's mark after the chunk, or null when the mark had moved (another run applied it). */
  byteOffset: number | null;
  rowsDone: number;
  rows: number;
  bytes: number;
  completed: boolean;
}

interface SaleRow {
  rowNumber: number;
  rowHash: string;
  keyMaterial: string;
  locationId: string;
  soldAt: number;
  itemKey: string;
  quantity: number;
  netCents: number;
  transactionRef: string | null;
  provider: string | null;
}

interface ErrorRow {
  rowNumber: number;
  column: string | null;
  value: string | null;
  message: string;
}

/** Reads `length` bytes of the rows file from `offset`; a file gone from R2 cannot be imported. */
async function readRange(files: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array> {
  const object = await files.get(key, { range: { offset, length } });
  if (!object) throw new UnreadableFile("The uploaded file is no longer in storage: upload it again.");
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * The bytes of the complete rows from `offset`: a chunk of `chunkBytes`, grown (doubled) while a
 * single row is longer than it, up to the longest row an upload lets through.
 */
async function readRows(
  files: R2Bucket,
  job: ChunkJob,
  offset: number,
  chunkBytes: number,
): Promise<{ bytes: Uint8Array; atEnd: boolean }> {
  const left = job.rowsBytes - offset;
  let length = Math.min(chunkBytes, left);
  for (;;) {
    const bytes = await readRange(files, job.rowsKey, offset, length);
    const atEnd = offset + length >= job.rowsBytes;
    const end = completeRowsEnd(bytes, atEnd);
    if (end > 0 || atEnd) return { bytes: bytes.subarray(0, end), atEnd: atEnd && end === bytes.length };
    if (length >= CSV_LIMITS.maxRowBytes * 2)
      throw new UnreadableFile(`A row of the file is longer than ${CSV_LIMITS.maxRowBytes / 1024} KiB.`);
    length = Math.min(length * 2, left);
  }
}

const trimmed = (cells: readonly string[]) => cells.map((c) => c.trim().toLowerCase()).join("\u001f");

const hasRow = (rows: readonly string[][], headers: readonly string[]) =>
  rows.some((row) => trimmed(row) === trimmed(headers));

/** Where the header row is among `rows` (the file's first rows): the job's own headers, else the preset's rule. */
function headerIndexIn(rows: readonly string[][], headers: readonly string[]): number {
  const wanted = trimmed(headers);
  const exact = rows.findIndex((row) => trimmed(row) === wanted);
  return exact >= 0 ? exact : findHeaderRow(rows);
}

/** The header row's index, read from the head of the file (a run that resumes a job half way). */
export async function headerIndexOf(files: R2Bucket, job: ChunkJob): Promise<number> {
  const { bytes } = await readRows(files, job, 0, Math.min(job.rowsBytes, HEAD_BYTES));
  const index = headerIndexIn(parseCsv(new TextDecoder().decode(bytes)), job.headers);
  if (index < 0) throw new UnreadableFile("The file's header row was not found.");
  return index;
}

/** A location value as a row error keeps it (the parser cuts the values it reports itself). */
const cut = (value: string | null) => (value === null ? null : value.slice(0, ERROR_VALUE_MAX));
const blank = (cells: readonly string[]) => cells.every((c) => c.trim() === "");

/** The location a row belongs to: the job's, or its location value's through the job's map. */
function locationOf(
  job: ChunkJob,
  value: string | null,
  known: ReadonlySet<string>,
): { ok: true; id: string } | { ok: false; value: string | null; message: string } {
  if (job.locationId) return { ok: true, id: job.locationId };
  const text = value?.trim() ?? "";
  if (text === "") return { ok: false, value: null, message: "The row names no location." };
  const map = job.locationMap ?? {};
  const id =
    map[text] ?? Object.entries(map).find(([key]) => key.trim().toLowerCase() === text.toLowerCase())?.[1] ?? null;
  if (!id || !known.has(id))
    return { ok: false, value: text, message: `The location "${text}" is not mapped to one of your locations.` };
  return { ok: true, id };
}

/**
 * Reads, parses and commits the chunk at the job's mark. Answers the new mark (null when another
 * run had already moved it: nothing was written), the rows read and whether the job completed.
 */
export async function processChunk(
  db: Database,
  files: R2Bucket,
  job: ChunkJob,
  context: RunContext,
  at: Date,
  options: { chunkBytes: number; leaseMs: number },
): Promise<ChunkResult> {
  const start = job.byteOffset;
  let chunkBytes = options.chunkBytes;
  let { bytes, atEnd } =
    start >= job.rowsBytes ? { bytes: new Uint8Array(0), atEnd: true } : await readRows(files, job, start, chunkBytes);
  let rows = bytes.length ? parseCsv(new TextDecoder().decode(bytes)) : [];
  if (start === 0) {
    // The first chunk holds the header row (and any title rows above it) whatever its size.
    while (!atEnd && !hasRow(rows, job.headers) && chunkBytes < HEAD_BYTES) {
      chunkBytes *= 2;
      ({ bytes, atEnd } = await readRows(files, job, start, chunkBytes));
      rows = parseCsv(new TextDecoder().decode(bytes));
    }
    const index = headerIndexIn(rows, job.headers);
    if (index < 0) throw new UnreadableFile("The file's header row was not found.");
    context.headerIndex = index;
    rows = rows.slice(index + 1);
  }
  if (context.headerIndex === null) context.headerIndex = await headerIndexOf(files, job);
  // Row numbers as a spreadsheet shows them: the header is row headerIndex + 1.
  const firstRow = context.headerIndex + 2 + job.rowsDone;
  const { mapping, headers } = job;

  const sales: SaleRow[] = [];
  const errors: ErrorRow[] = [];
  const items = new Map<string, { name: string; sku: string | null; gtin: string | null }>();
  let skipped = 0;
  for (let i = 0; i < rows.length; i++) {
    const cells = rows[i] as string[];
    if (blank(cells) || isTotalsRow(cells)) continue;
    const rowNumber = firstRow + i;
    const parsed = parseSalesRow(cells, headers, mapping, rowNumber, job.timeZone);
    if (parsed.kind === "skip") {
      skipped++;
      continue;
    }
    if (parsed.kind === "error") {
      errors.push({ rowNumber, column: parsed.column, value: parsed.value, message: parsed.message });
      continue;
    }
    const location = locationOf(job, parsed.locationValue, context.locations);
    if (!location.ok) {
      errors.push({
        rowNumber,
        column: mapping.location ?? null,
        value: cut(location.value),
        message: location.message,
      });
      continue;
    }
    sales.push({
      rowNumber,
      rowHash: "",
      keyMaterial: parsed.keyMaterial,
      locationId: location.id,
      soldAt: parsed.soldAt.getTime(),
      itemKey: parsed.itemKey,
      quantity: parsed.quantity,
      netCents: parsed.netCents,
      transactionRef: parsed.transactionRef,
      provider: parsed.provider,
    });
    if (!items.has(parsed.itemKey)) items.set(parsed.itemKey, parsed.item);
  }

  // Hashed all at once: one digest at a time costs more in waiting than in hashing.
  const rowHashes = await Promise.all(sales.map((sale) => sha256Hex(sale.keyMaterial)));
  sales.forEach((sale, i) => {
    sale.rowHash = rowHashes[i] as string;
  });
  // Identical rows are numbered across the whole file: their count so far, then this chunk's.
  const inChunk = new Map<string, number>();
  for (const sale of sales) inChunk.set(sale.rowHash, 0);
  const seen = new Map<string, number>();
  if (inChunk.size) {
    const earlier = await db.all<{ rowHash: string; seen: number }>(sql`SELECT row_hash AS rowHash, seen
      FROM import_row_occurrences WHERE job_id = ${job.id} AND row_hash IN (SELECT value FROM json_each(${JSON.stringify([...inChunk.keys()])}))`);
    for (const row of earlier) seen.set(row.rowHash, Number(row.seen));
  }
  const keyed: string[] = [];
  for (const sale of sales) {
    const before = inChunk.get(sale.rowHash) ?? 0;
    inChunk.set(sale.rowHash, before + 1);
    keyed.push(`${sale.keyMaterial}#${(seen.get(sale.rowHash) ?? 0) + before + 1}`);
  }
  const rowKeys = await Promise.all(keyed.map((key) => sha256Hex(key)));
  const lines = sales.map((sale, i) => [
    rowKeys[i],
    sale.rowNumber,
    sale.locationId,
    sale.soldAt,
    sale.itemKey,
    sale.quantity,
    sale.netCents,
    sale.transactionRef,
    sale.provider,
  ]);
  const occurrences = [...inChunk].map(([hash, n]) => [hash, (seen.get(hash) ?? 0) + n]);

  const end = start + bytes.length;
  const rowsDone = job.rowsDone + rows.length;
  const lastRow = firstRow + rows.length - 1;
  const completed = atEnd;
  const guard = sql`(SELECT byte_offset FROM import_jobs WHERE id = ${job.id}) = ${start}`;
  const org = job.organizationId;
  const imported = sql`(SELECT count(*) FROM sales_lines WHERE job_id = ${job.id} AND row_number BETWEEN ${firstRow} AND ${lastRow})`;
  const importedUnmapped = sql`(SELECT count(*) FROM sales_lines AS l JOIN sale_items AS i ON i.id = l.sale_item_id
    WHERE l.job_id = ${job.id} AND l.row_number BETWEEN ${firstRow} AND ${lastRow} AND i.kind = 'unmapped')`;
  const statements: BatchItem<"sqlite">[] = [];
  if (items.size) statements.push(insertSaleItems(db, org, [...items], at, guard));
  if (occurrences.length)
    statements.push(
      db.run(sql`INSERT INTO import_row_occurrences (job_id, row_hash, seen)
        SELECT ${job.id}, json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]')
        FROM json_each(${JSON.stringify(occurrences)}) AS e WHERE ${guard}
        ON CONFLICT (job_id, row_hash) DO UPDATE SET seen = excluded.seen`),
    );
  if (lines.length)
    statements.push(
      db.run(sql`INSERT INTO sales_lines (organization_id, row_key, job_id, row_number, location_id, sold_at,
          sale_item_id, quantity, net_cents, transaction_ref, provider)
        SELECT ${org}, json_extract(e.value, '$[0]'), ${job.id}, json_extract(e.value, '$[1]'),
          json_extract(e.value, '$[2]'), json_extract(e.value, '$[3]'),
          (SELECT i.id FROM sale_items AS i WHERE i.organization_id = ${org} AND i.item_key = json_extract(e.value, '$[4]')),
          json_extract(e.value, '$[5]'), json_extract(e.value, '$[6]'), json_extract(e.value, '$[7]'),
          json_extract(e.value, '$[8]')
        FROM json_each(${JSON.stringify(lines)}) AS e WHERE ${guard}
        ON CONFLICT (organization_id, row_key) DO NOTHING`),
    );
  if (errors.length)
    statements.push(
      db.run(sql`INSERT INTO import_row_errors (job_id, row_number, "column", value, message)
        SELECT ${job.id}, json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]'), json_extract(e.value, '$[2]'),
          json_extract(e.value, '$[3]')
        FROM json_each(${JSON.stringify(errors.map((e) => [e.rowNumber, e.column, e.value, e.message]))}) AS e
        WHERE ${guard} ON CONFLICT (job_id, row_number) DO NOTHING`),
    );
  if (completed) {
    statements.push(
      db.run(sql`DELETE FROM import_row_occurrences WHERE job_id = ${job.id} AND ${guard}`),
      // Written before the job's mark moves, under the same guard: the activity row exists exactly
      // when the job completes.
      logActivityWhere(
        db,
        {
          userId: job.createdBy,
          locationId: job.locationId,
          action: "import_sales",
          entity: "import_job",
          entityId: job.id,
          summary: sql`json_object('fileName', j.file_name, 'lines', j.imported + ${imported})`,
        },
        sql`FROM import_jobs AS j WHERE j.id = ${job.id} AND j.byte_offset = ${start}`,
      ),
    );
  }
  const valid = lines.length;
  statements.push(
    db.all<{
      byteOffset: number;
      rowsDone: number;
    }>(sql`UPDATE import_jobs SET byte_offset = ${end}, rows_done = ${rowsDone},
        imported = imported + ${imported}, duplicates = duplicates + ${valid} - ${imported},
        unmapped = unmapped + ${importedUnmapped}, skipped = skipped + ${skipped}, errors = errors + ${errors.length},
        attempts = 0, last_error = NULL,
        status = ${completed ? "completed" : "processing"},
        lease_until = ${completed ? null : at.getTime() + options.leaseMs},
        finished_at = ${completed ? at.getTime() : null}
      WHERE id = ${job.id} AND byte_offset = ${start}
      RETURNING byte_offset AS byteOffset, rows_done AS rowsDone`),
  );
  const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const moved = (results[results.length - 1] as { byteOffset: number; rowsDone: number }[])[0];
  return {
    byteOffset: moved ? Number(moved.byteOffset) : null,
    rowsDone,
    rows: rows.length,
    bytes: bytes.length,
    completed: completed && moved !== undefined,
  };
}

/**
 * The chunk's items the organization does not know yet, each recognised once (set-based, by the
 * unique (organization, item key) index): a GTIN names a bulk-tracked variation (retail; compared as
 * GTIN-14, so a UPC-A in the file finds the same variation as its GTIN-14); a SKU a
 * service's code or a bulk-tracked variation's SKU; a name a service's name or "product · variation"
 * (case-insensitive); anything else is unmapped, and its rows are kept all the same.
 */
function insertSaleItems(
  db: Database,
  org: string,
  items: [string, { name: string; sku: string | null; gtin: string | null }][],
  at: Date,
  guard: ReturnType<typeof sql>,
) {
  const json = JSON.stringify(items.map(([key, item]) => [key, item.name, item.sku, item.gtin]));
  const sellable = sql`p.organization_id = ${org} AND p.tracking = 'bulk' AND p.active = 1 AND v.active = 1`;
  return db.run(sql`INSERT INTO sale_items (organization_id, item_key, name, sku, gtin, kind, service_id, variation_id, created_at)
    SELECT ${org}, k, name, sku, gtin,
      CASE WHEN by_gtin IS NOT NULL THEN 'retail' WHEN service_by_sku IS NOT NULL THEN 'service'
        WHEN variation_by_sku IS NOT NULL THEN 'retail' WHEN service_by_name IS NOT NULL THEN 'service'
        WHEN variation_by_name IS NOT NULL THEN 'retail' ELSE 'unmapped' END,
      CASE WHEN by_gtin IS NULL THEN coalesce(service_by_sku, CASE WHEN variation_by_sku IS NULL THEN service_by_name END) END,
      CASE WHEN by_gtin IS NOT NULL THEN by_gtin WHEN service_by_sku IS NOT NULL THEN NULL
        WHEN variation_by_sku IS NOT NULL THEN variation_by_sku WHEN service_by_name IS NOT NULL THEN NULL
        ELSE variation_by_name END,
      ${at.getTime()}
    FROM (
      SELECT n.k, n.name, n.sku, n.gtin,
        (SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          WHERE n.g14 IS NOT NULL AND v.gtin IN (n.g14, substr(n.g14, 2), substr(n.g14, 3), substr(n.g14, 7))
            AND substr('00000000000000' || v.gtin, -14) = n.g14 AND ${sellable}) AS by_gtin,
        (SELECT s.id FROM services AS s WHERE n.sku IS NOT NULL AND s.organization_id = ${org} AND s.active = 1
          AND s.code = upper(trim(n.sku))) AS service_by_sku,
        (SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          WHERE n.sku IS NOT NULL AND lower(v.sku) = lower(trim(n.sku)) AND ${sellable} ORDER BY v.id LIMIT 1) AS variation_by_sku,
        (SELECT s.id FROM services AS s WHERE s.organization_id = ${org} AND s.active = 1
          AND lower(s.name) = lower(trim(n.name)) ORDER BY s.id LIMIT 1) AS service_by_name,
        (SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
          WHERE lower(p.name || ' · ' || v.name) = lower(trim(n.name)) AND ${sellable} ORDER BY v.id LIMIT 1) AS variation_by_name
      FROM (SELECT json_extract(e.value, '$[0]') AS k, json_extract(e.value, '$[1]') AS name,
          json_extract(e.value, '$[2]') AS sku, json_extract(e.value, '$[3]') AS gtin,
          substr('00000000000000' || json_extract(e.value, '$[3]'), -14) AS g14
        FROM json_each(${json}) AS e) AS n
      WHERE ${guard} AND NOT EXISTS (SELECT 1 FROM sale_items AS known WHERE known.organization_id = ${org} AND known.item_key = n.k)
    )
    WHERE true
    ON CONFLICT (organization_id, item_key) DO NOTHING`);
}
