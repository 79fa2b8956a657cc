// The preview of an uploaded file before it is queued: its preset, its column mapping, the first
// rows parsed as the worker will parse them (each with its error), and, when the file names its
// locations, the location values of its first rows with the location each is likely to be. Reads
// only the start of the file from R2 (a byte range), never the whole of it.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { LOCATION_VALUES_MAX, PREVIEW_ROWS } from "./forms";
import { type Outcome, refuse } from "./job-refusals";
import { headOf, type ImportHead, type ImportListItem, jobReached } from "./list.server";
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

/** What the preview reads of a job besides what every view of it reads (ImportListItem). */
export interface PreviewFacts {
  timeZone: string;
  rowsKey: string;
  headers: string;
  mapping: string;
  locationMap: string | null;
}

/** The statement reading what a job the actor reaches adds for its preview (for the page's batch). */
export function previewFactsQuery(db: Database, actor: ScopedActor, id: string) {
  return db.all<PreviewFacts>(sql`SELECT j.time_zone AS timeZone, j.rows_key AS rowsKey, j.headers, j.mapping,
      j.location_map AS locationMap
    FROM import_jobs AS j WHERE j.id = ${id} AND ${jobReached(actor, "READ_IMPORTS")}`);
}

/**
 * The preview of a job (`job`, as the page read it, and `facts`, read by previewFactsQuery): its
 * mapping, its first rows read from the start of its file in R2, and the locations its location
 * values may be matched to by name or code.
 */
export async function previewOf(
  files: R2Bucket,
  job: ImportListItem,
  facts: PreviewFacts | undefined,
  locations: readonly { id: string; name: string; code: string }[],
): Promise<Outcome<{ preview: Preview }>> {
  if (!facts) return refuse("not_found");
  const headers = JSON.parse(facts.headers) as string[];
  const mapping = JSON.parse(facts.mapping) as ColumnMapping;
  const locationMap = facts.locationMap ? (JSON.parse(facts.locationMap) as Record<string, string>) : {};
  const shown: PreviewJob = {
    ...headOf(job),
    timeZone: facts.timeZone,
    rowsTotal: job.rowsTotal,
    headers,
    mapping,
    locationMap,
  };
  const presetName = job.source === "custom" ? null : PRESETS[job.source as PresetId].name;
  const missing = missingFields(mapping, headers);

  // The start of the rows (title rows, the header, the first rows), as the worker's first chunk reads it.
  const object = await files.get(facts.rowsKey, { range: { offset: 0, length: PREVIEW_BYTES } });
  if (!object) return { ok: true, preview: { job: shown, presetName, missing, rows: [], locationValues: [] } };
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
    const parsed = parseSalesRow(cells, headers, mapping, rowNumber, facts.timeZone);
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
  return { ok: true, preview: { job: shown, presetName, missing, rows, locationValues } };
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
