// Sales imports for the worker's tests: a CSV put into a local R2 and its job queued, as the upload
// leaves them (app/imports/upload.server.ts, queue.server.ts), without going through the screens; and
// everything an import writes, read whole for comparisons.
import type { Client } from "@libsql/client";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "../../app/db/client.server";
import { parseCsv, RowScanner } from "../../app/imports/parse/csv";
import type { ColumnMapping } from "../../app/imports/parse/fields";
import { findHeaderRow, PRESETS, type PresetId } from "../../app/imports/parse/presets";

export interface QueuedImport {
  organizationId: string;
  createdBy: string;
  /** The location of every row; leave out to map the file's location column (`locationMap`). */
  locationId?: string | null;
  locationMap?: Record<string, string> | null;
  csv: string;
  fileName?: string;
  source: PresetId | "custom";
  /** A custom mapping; a preset's by default. */
  mapping?: ColumnMapping;
  timeZone?: string;
  id?: string;
  queuedAt?: number;
}

/** Puts `csv` into R2 and inserts its job, queued; answers the job's id. */
export async function queueSalesImport(db: Database, files: R2Bucket, job: QueuedImport): Promise<string> {
  const id = job.id ?? uuidv7();
  const bytes = new TextEncoder().encode(job.csv);
  const scanner = new RowScanner();
  scanner.feed(bytes);
  const scan = scanner.finish();
  const head = parseCsv(job.csv.slice(0, 64 * 1024));
  const headerIndex = findHeaderRow(head);
  if (headerIndex < 0) throw new Error("no header row in the test's CSV");
  const headers = head[headerIndex] as string[];
  const mapping = job.mapping ?? (job.source === "custom" ? {} : PRESETS[job.source].mapping);
  const key = `imports/${id}/rows.csv`;
  await files.put(key, bytes);
  const now = job.queuedAt ?? Date.now();
  await (db.$client as Client).execute({
    sql: `INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name, format, file_hash,
        original_key, rows_key, rows_bytes, headers, mapping, location_map, time_zone, rows_total, created_by,
        created_at, queued_at)
      VALUES (?, ?, 'sales', ?, 'queued', ?, ?, 'csv', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      id,
      job.organizationId,
      job.locationId ?? null,
      job.source,
      job.fileName ?? "sales.csv",
      await sha256Hex(bytes),
      key,
      key,
      bytes.length,
      JSON.stringify(headers),
      JSON.stringify(mapping),
      job.locationMap ? JSON.stringify(job.locationMap) : null,
      job.timeZone ?? "America/New_York",
      Math.max(0, scan.rows - headerIndex - 1),
      job.createdBy,
      now,
      now,
    ],
  });
  return id;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function jobRow(db: Database, id: string): Promise<Record<string, unknown>> {
  const result = await (db.$client as Client).execute({ sql: "SELECT * FROM import_jobs WHERE id = ?", args: [id] });
  const row = result.rows[0];
  if (!row) throw new Error(`no import job ${id}`);
  return { ...row } as Record<string, unknown>;
}

/**
 * What the imports wrote, without ids and times that differ from one database to the next: the
 * lines (by row key), items, bookings (by their line's key), SALE movements and the levels they
 * moved, jobs' marks and counts, row errors, occurrences, and the imports' activity rows.
 */
export async function importState(db: Database): Promise<Record<string, string[]>> {
  const client = db.$client as Client;
  const queries: Record<string, string> = {
    sales_lines: `SELECT json_array(l.row_key, l.job_id, l.row_number, l.location_id, l.sold_at, i.item_key, l.quantity,
        l.net_cents, l.transaction_ref, l.provider) AS r FROM sales_lines AS l JOIN sale_items AS i ON i.id = l.sale_item_id
      ORDER BY l.row_key`,
    sale_items: `SELECT json_array(organization_id, item_key, name, sku, gtin, kind, service_id, variation_id) AS r
      FROM sale_items ORDER BY organization_id, item_key`,
    sale_bookings: `SELECT json_array(l.row_key, b.variation_id, b.booked_units, b.short_units) AS r
      FROM sale_bookings AS b JOIN sales_lines AS l ON l.id = b.line_id ORDER BY l.row_key`,
    sale_movements: `SELECT json_array(location_id, variation_id, quantity, occurred_at, reference_type, reference_id) AS r
      FROM stock_movements WHERE type = 'SALE' ORDER BY location_id, variation_id, occurred_at, quantity`,
    stock_levels:
      "SELECT json_array(location_id, variation_id, on_hand) AS r FROM stock_levels ORDER BY location_id, variation_id",
    import_jobs: `SELECT json_array(id, status, byte_offset, rows_done, rows_total, imported, duplicates, skipped, unmapped,
        errors, attempts, last_error, lease_until IS NULL) AS r FROM import_jobs ORDER BY id`,
    import_row_errors: `SELECT json_array(job_id, row_number, "column", value, message) AS r FROM import_row_errors
      ORDER BY job_id, row_number`,
    import_row_occurrences:
      "SELECT json_array(job_id, row_hash, seen) AS r FROM import_row_occurrences ORDER BY job_id, row_hash",
    activity: `SELECT json_array(action, entity, entity_id, user_id, location_id, summary) AS r FROM activity_log
      WHERE action IN ('import_sales', 'map_sale_item') ORDER BY action, entity_id, summary`,
    // Booked lines per import and location: how many runs booked them depends on the runs, not the import.
    booked: `SELECT json_array(entity_id, location_id, sum(json_extract(summary, '$.lines'))) AS r FROM activity_log
      WHERE action = 'book_sales' GROUP BY entity_id, location_id ORDER BY entity_id, location_id`,
  };
  const out: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(queries)) {
    const result = await client.execute(query);
    out[name] = result.rows.map((r) => String(r.r));
  }
  return out;
}
