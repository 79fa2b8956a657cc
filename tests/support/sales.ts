// Sales lines of a test's own, written as an import leaves them (a completed job, its sale items,
// its lines), for the tests that read sales (reconciliation) before J's processing writes them:
// the e2e goes through the real import. Sale items are found or made by their key, once per
// organization, as the import does.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/client.server";

export type SoldItem =
  | { kind: "service"; serviceId: string; name: string }
  | { kind: "retail"; variationId: string; name: string }
  | { kind: "unmapped"; name: string };

export interface SoldLine {
  item: SoldItem;
  locationId: string;
  soldAt: Date;
  /** Signed: a refund is negative. */
  quantity: number;
  netCents?: number;
  provider?: string | null;
  transactionRef?: string | null;
}

/** The sale item of `item` in the organization (made on first use), by its key: `name:<lower-cased name>`. */
export async function saleItemOf(db: Database, organizationId: string, item: SoldItem): Promise<number> {
  const key = `name:${item.name.toLowerCase().replace(/\s+/g, " ").trim()}`;
  await db.run(sql`INSERT INTO sale_items (organization_id, item_key, name, kind, service_id, variation_id, created_at)
    VALUES (${organizationId}, ${key}, ${item.name}, ${item.kind}, ${item.kind === "service" ? item.serviceId : null},
      ${item.kind === "retail" ? item.variationId : null}, ${Date.now()})
    ON CONFLICT (organization_id, item_key) DO NOTHING`);
  const [row] = await db.all<{ id: number }>(
    sql`SELECT id FROM sale_items WHERE organization_id = ${organizationId} AND item_key = ${key}`,
  );
  if (!row) throw new Error(`no sale item ${key}`);
  return Number(row.id);
}

/**
 * One completed import of `lines` (its job, by `createdBy`), each line keyed uniquely: returns the
 * job id and the lines' ids in order.
 */
export async function importedSales(
  db: Database,
  input: { organizationId: string; createdBy: string; lines: readonly SoldLine[] },
): Promise<{ jobId: string; lineIds: number[] }> {
  const jobId = randomUUID();
  const now = Date.now();
  const first = input.lines[0]?.locationId ?? null;
  await db.run(sql`INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name, format,
      file_hash, original_key, rows_key, rows_bytes, headers, mapping, time_zone, byte_offset, rows_done, rows_total,
      imported, created_by, created_at, queued_at, started_at, finished_at)
    VALUES (${jobId}, ${input.organizationId}, 'sales', ${first}, 'completed', 'square', 'test-sales.csv', 'csv',
      ${"0".repeat(64)}, ${`test/${jobId}`}, ${`test/${jobId}`}, 0, '[]', '{}', 'UTC', 0, ${input.lines.length},
      ${input.lines.length}, ${input.lines.length}, ${input.createdBy}, ${now}, ${now}, ${now}, ${now})`);
  const lineIds: number[] = [];
  for (const [i, line] of input.lines.entries()) {
    const saleItemId = await saleItemOf(db, input.organizationId, line.item);
    const [row] = await db.all<{
      id: number;
    }>(sql`INSERT INTO sales_lines (organization_id, row_key, job_id, row_number,
        location_id, sold_at, sale_item_id, quantity, net_cents, transaction_ref, provider)
      VALUES (${input.organizationId}, ${`${jobId}|${i + 1}`}, ${jobId}, ${i + 1}, ${line.locationId},
        ${line.soldAt.getTime()}, ${saleItemId}, ${line.quantity}, ${line.netCents ?? line.quantity * 10_000},
        ${line.transactionRef ?? null}, ${line.provider ?? null})
      RETURNING id`);
    lineIds.push(Number(row?.id));
  }
  return { jobId, lineIds };
}
