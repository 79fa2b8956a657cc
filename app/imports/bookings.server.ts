// Retail sales leave stock (issue 24 item 3): each imported line of an item mapped to a retail
// variation is booked once, by the jobs worker, as a SALE movement through the ledger's rules (the
// movement and its stock level in the same batch) and a sale_bookings row saying what it took and
// what the ledger did not have. A sale never drives a level below zero: it takes what is on hand and
// the rest is "short" (a finding for reconciliation); a refund returns its units. Lines are booked
// in bounded batches after the chunks of each run, so a late mapping (an unknown item mapped to a
// retail variation) books its earlier lines on the next run.
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { isConstraintError } from "~/db/sql.server";

/** Lines booked in one batch: four statements each, well inside one request. */
export const BOOKING_BATCH = 300;

interface Unbooked {
  id: number;
  jobId: string;
  locationId: string;
}

/** The oldest retail lines with no booking yet, `limit` of them. */
function unbooked(db: Database, limit: number) {
  return db.all<Unbooked>(sql`SELECT l.id, l.job_id AS jobId, l.location_id AS locationId
    FROM sale_items AS i JOIN sales_lines AS l ON l.sale_item_id = i.id
    WHERE i.kind = 'retail' AND NOT EXISTS (SELECT 1 FROM sale_bookings AS b WHERE b.line_id = l.id)
    ORDER BY l.id LIMIT ${limit}`);
}

/**
 * The statements that book one line: its booking (units from the variation's package size, as
 * receiving counts them: packages × units_per_package; a sale takes at most what is on hand), then
 * the SALE movement and the level, both read from that booking, so nothing moves when it took 0.
 * The booking is a plain INSERT: a line another run booked meanwhile fails the whole batch.
 */
function bookLine(db: Database, line: Unbooked, at: Date): BatchItem<"sqlite">[] {
  const booking = sql`(SELECT b.booked_units FROM sale_bookings AS b WHERE b.line_id = ${line.id})`;
  const variation = sql`(SELECT b.variation_id FROM sale_bookings AS b WHERE b.line_id = ${line.id})`;
  return [
    db.run(sql`INSERT INTO sale_bookings (line_id, variation_id, booked_units, short_units, booked_at)
      SELECT l.id, i.variation_id,
        CASE WHEN l.quantity < 0 THEN -l.quantity * v.units_per_package
          ELSE -min(l.quantity * v.units_per_package, coalesce(s.on_hand, 0)) END,
        CASE WHEN l.quantity < 0 THEN 0
          ELSE l.quantity * v.units_per_package - min(l.quantity * v.units_per_package, coalesce(s.on_hand, 0)) END,
        ${at.getTime()}
      FROM sales_lines AS l
        JOIN sale_items AS i ON i.id = l.sale_item_id AND i.kind = 'retail'
        JOIN product_variations AS v ON v.id = i.variation_id
        LEFT JOIN stock_levels AS s ON s.location_id = l.location_id AND s.variation_id = i.variation_id
      WHERE l.id = ${line.id}`),
    db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type, reference_type,
        reference_id, user_id)
      SELECT ${uuidv7()}, l.sold_at, l.location_id, b.variation_id, b.booked_units, 'SALE', 'import', l.job_id, NULL
      FROM sale_bookings AS b JOIN sales_lines AS l ON l.id = b.line_id
      WHERE b.line_id = ${line.id} AND b.booked_units <> 0`),
    db.run(sql`UPDATE stock_levels SET on_hand = on_hand + ${booking}, updated_at = ${at.getTime()}
      WHERE location_id = ${line.locationId} AND variation_id = ${variation} AND ${booking} <> 0`),
    db.run(sql`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
      SELECT ${line.locationId}, b.variation_id, b.booked_units, ${at.getTime()}
      FROM sale_bookings AS b WHERE b.line_id = ${line.id} AND b.booked_units > 0
        AND NOT EXISTS (SELECT 1 FROM stock_levels AS existing
          WHERE existing.location_id = ${line.locationId} AND existing.variation_id = b.variation_id)`),
  ];
}

/**
 * Books unbooked retail lines, a batch at a time, while `more()` allows. Each batch is one
 * transaction with one `book_sales` activity row per import and location it booked lines of.
 * Answers the lines booked.
 */
export async function bookRetailSales(
  db: Database,
  at: Date,
  more: () => boolean,
  batchSize = BOOKING_BATCH,
): Promise<number> {
  let booked = 0;
  while (more()) {
    const lines = await unbooked(db, batchSize);
    if (!lines.length) break;
    const statements: BatchItem<"sqlite">[] = [];
    const groups = new Map<string, { jobId: string; locationId: string; ids: number[] }>();
    for (const line of lines) {
      statements.push(...bookLine(db, line, at));
      const key = `${line.jobId} ${line.locationId}`;
      const group = groups.get(key) ?? { jobId: line.jobId, locationId: line.locationId, ids: [] };
      group.ids.push(line.id);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      statements.push(
        logActivityWhere(
          db,
          {
            userId: null,
            locationId: group.locationId,
            action: "book_sales",
            entity: "import_job",
            entityId: group.jobId,
            summary: sql`json_object('lines', booked.n)`,
          },
          sql`FROM (SELECT count(*) AS n FROM sale_bookings
            WHERE line_id IN (SELECT value FROM json_each(${JSON.stringify(group.ids)}))) AS booked WHERE booked.n > 0`,
        ),
      );
    }
    const counted = db.all<{ n: number }>(sql`SELECT count(*) AS n FROM sale_bookings
      WHERE line_id IN (SELECT value FROM json_each(${JSON.stringify(lines.map((l) => l.id))}))`);
    let now: number;
    try {
      const results = await db.batch([...statements, counted] as unknown as [
        BatchItem<"sqlite">,
        ...BatchItem<"sqlite">[],
      ]);
      now = Number((results[results.length - 1] as { n: number }[])[0]?.n ?? 0);
    } catch (error) {
      // Another run booked some of these lines first: theirs stand, and the next run goes on.
      if (isConstraintError(error)) break;
      throw error;
    }
    booked += now;
    // A batch that booked nothing (its items re-mapped meanwhile) would find the same lines again.
    if (lines.length < batchSize || now === 0) break;
  }
  return booked;
}
