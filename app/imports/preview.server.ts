// The preview of an uploaded file before it is queued: its preset, its column mapping, the first
// rows parsed as the worker will parse them (each with its error), and, when the file names its
// locations, the location values of its first rows with the location each is likely to be. Reads
// only the start of the file from R2 (a byte range), never the whole of it.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { ImportFormat, ImportKind, ImportSource, ImportStatus } from "../../db/schema/imports/constants";
import { LOCATION_VALUES_MAX, PREVIEW_ROWS } from "./forms";
import { type Outcome, refuse } from "./job-refusals";
import { type ImportHead, jobReached } from "./list.server";
import { completeRowsEnd, parseCsv } from "./parse/csv";
import type { ColumnMapping, SalesField } from "./parse/fields";
import { findHeaderRow, PRESETS, type PresetId } from "./parse/presets";
import { parseSalesRow, type SkipReason } from "./parse/rows";
import { missingFields, PREVIEW_BYTES } from "./upload.server";

export const SKIP_LABELS: Record<SkipReason, string> = {
  package: "Skipped: a package",
  membership: "Skipped: a membership",
  gift_card: "Skipped: a gift card",
  custom_amount: "Skipped: a custom amount",
  not_closed: "Skipped: not closed",
};

export type PreviewRow =
  | {
      kind: "sale";
      row: number;
      soldAt: number;
      item: string;
      sku: string | null;
      gtin: string | null;
      quantity: number;
      netCents: number;
      location: string | null;
    }
  | { kind: "skip"; row: number; reason: string }
  | { kind: "error"; row: number; column: string | null; value: string | null; message: string };

export interface PreviewJob extends ImportHead {
  timeZone: string;
  rowsTotal: number;
  headers: string[];
  mapping: ColumnMapping;
  locationMap: Record<string, string>;
}

export interface Preview {
  job: PreviewJob;
  /** The preset recognised by the headers, named ("Square item sales export"), if any. */
  presetName: string | null;
  missing: SalesField[];
  rows: PreviewRow[];
  /** With a mapped location column: each value of the first rows, and the location it was mapped (or looks) to. */
  locationValues: { value: string; locationId: string | null }[];
}

export interface PreviewJobRow {
  id: string;
  kind: ImportKind;
  status: ImportStatus;
  source: ImportSource;
  format: ImportFormat;
  file_name: string;
  location_id: string | null;
  location_name: string | null;
  time_zone: string;
  rows_total: number;
  rows_key: string;
  headers: string;
  mapping: string;
  location_map: string | null;
}

/** The statement reading a job the actor reaches, as the preview needs it (for the page's batch). */
export function previewJobQuery(db: Database, actor: ScopedActor, id: string) {
  return db.all<PreviewJobRow>(sql`SELECT j.id, j.kind, j.status, j.source, j.format, j.file_name, j.location_id,
      l.name AS location_name, j.time_zone, j.rows_total, j.rows_key, j.headers, j.mapping, j.location_map
    FROM import_jobs AS j LEFT JOIN locations AS l ON l.id = j.location_id
    WHERE j.id = ${id} AND ${jobReached(actor, "READ_IMPORTS")}`);
}

/**
 * The preview of a job (`row`, read by previewJobQuery): its mapping, its first rows read from the
 * start of its file in R2, and the locations its location values may be matched to by name or code.
 */
export async function previewOf(
  files: R2Bucket,
  row: PreviewJobRow | undefined,
  locations: readonly { id: string; name: string; code: string }[],
): Promise<Outcome<{ preview: Preview }>> {
  if (!row) return refuse("not_found");
  const headers = JSON.parse(row.headers) as string[];
  const mapping = JSON.parse(row.mapping) as ColumnMapping;
  const locationMap = row.location_map ? (JSON.parse(row.location_map) as Record<string, string>) : {};
  const job: PreviewJob = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    source: row.source,
    format: row.format,
    fileName: row.file_name,
    locationId: row.location_id,
    locationName: row.location_name,
    timeZone: row.time_zone,
    rowsTotal: Number(row.rows_total),
    headers,
    mapping,
    locationMap,
  };
  const presetName = row.source === "custom" ? null : PRESETS[row.source as PresetId].name;
  const missing = missingFields(mapping, headers);

  // The start of the rows (title rows, the header, the first rows), as the worker's first chunk reads it.
  const object = await files.get(row.rows_key, { range: { offset: 0, length: PREVIEW_BYTES } });
  if (!object) return { ok: true, preview: { job, presetName, missing, rows: [], locationValues: [] } };
  const bytes = new Uint8Array(await object.arrayBuffer());
  const atEnd = bytes.length >= object.size;
  const all = parseCsv(new TextDecoder().decode(bytes.subarray(0, completeRowsEnd(bytes, atEnd))));
  const headerIndex = findHeaderRow(all);
  const data = all.slice(headerIndex + 1);
  // Row numbers as the worker gives them (and a spreadsheet shows them): the header is row headerIndex + 1.
  const firstRow = headerIndex + 2;

  const rows: PreviewRow[] = [];
  const values = new Map<string, string | null>();
  const locationColumn = mapping.location ? headers.indexOf(mapping.location) : -1;
  data.forEach((cells, i) => {
    const rowNumber = firstRow + i;
    if (locationColumn >= 0 && values.size < LOCATION_VALUES_MAX) {
      const value = (cells[locationColumn] ?? "").trim();
      if (value && !values.has(value)) values.set(value, locationMap[value] ?? likelyLocation(value, locations));
    }
    if (i >= PREVIEW_ROWS) return;
    const parsed = parseSalesRow(cells, headers, mapping, rowNumber, row.time_zone);
    if (parsed.kind === "sale") {
      rows.push({
        kind: "sale",
        row: rowNumber,
        soldAt: parsed.soldAt.getTime(),
        item: parsed.item.name,
        sku: parsed.item.sku,
        gtin: parsed.item.gtin,
        quantity: parsed.quantity,
        netCents: parsed.netCents,
        location: parsed.locationValue,
      });
    } else if (parsed.kind === "skip") {
      rows.push({ kind: "skip", row: rowNumber, reason: SKIP_LABELS[parsed.reason] });
    } else {
      rows.push({ kind: "error", row: rowNumber, column: parsed.column, value: parsed.value, message: parsed.message });
    }
  });
  const locationValues = [...values].map(([value, locationId]) => ({ value, locationId }));
  return { ok: true, preview: { job, presetName, missing, rows, locationValues } };
}

const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The location a file's value most likely names: the same name or code, or a name containing it. */
function likelyLocation(
  value: string,
  locations: readonly { id: string; name: string; code: string }[],
): string | null {
  const v = normal(value);
  if (!v) return null;
  const exact = locations.find((l) => normal(l.name) === v || normal(l.code) === v);
  if (exact) return exact.id;
  const within = locations.filter((l) => normal(l.name).includes(v) || v.includes(normal(l.name)));
  return within.length === 1 ? (within[0]?.id ?? null) : null;
}
