// Retail sales leave stock (issue 24 item 3): each imported line of an item mapped to a retail
// variation is booked once, by the jobs worker, as a SALE movement through the ledger's rules (the
// movements and their stock levels in the same batch) and a sale_bookings row saying what it took
// and what the ledger did not have. A sale never drives a level below zero: it takes what is on hand
// and the rest is "short" (a finding for reconciliation); a refund returns its units. Base units as
// receiving counts them: packages × the variation's units_per_package. Lines are booked in bounded
// batches, in line order, after the chunks of each run and on their own, so a late mapping (an
// unknown item mapped to a retail variation) books its earlier lines on the next run.
//
// A batch is worked out here from the lines and the levels it read, then written set-based in ONE
// batch whose first statement refuses it if anything it read changed meanwhile (a level moved by a
// draw or a receipt, an item re-mapped): nothing is written then, and the next run reads again.
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import { logActivity } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, isConstraintError } from "~/db/sql.server";
import { recordMovementSet } from "~/stock/ledger.server";

/** Lines booked in one batch. */
export const BOOKING_BATCH = 500;

export interface Unbooked {
  id: number;
  jobId: string;
  locationId: string;
  soldAt: number;
  quantity: number;
  variationId: string;
  unitsPerPackage: number;
  /** The pair's level as read (null: no level row yet). */
  onHand: number | null;
}

/**
 * Where this run's booking starts: the first retail line with no booking. Walked from the retail
 * items (their partial variation index) to their lines (the lines' item index, which holds the line
 * id), each probed in sale_bookings by its key: the retail lines' index entries, not every line.
 */
async function firstUnbooked(db: Database): Promise<number | null> {
  const [row] = await db.all<{ id: number | null }>(sql`SELECT min(l.id) AS id
    FROM sale_items AS i CROSS JOIN sales_lines AS l ON l.sale_item_id = i.id
    WHERE i.kind = 'retail' AND i.variation_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM sale_bookings AS b WHERE b.line_id = l.id)`);
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

/** The next `limit` unbooked retail lines from line `from` on (by the lines' key), with their pair's level. */
function unbooked(db: Database, from: number, limit: number) {
  return db.all<Unbooked>(sql`SELECT l.id, l.job_id AS jobId, l.location_id AS locationId, l.sold_at AS soldAt,
      l.quantity, i.variation_id AS variationId, v.units_per_package AS unitsPerPackage, s.on_hand AS onHand
    FROM sales_lines AS l
      JOIN sale_items AS i ON i.id = l.sale_item_id
      JOIN product_variations AS v ON v.id = i.variation_id
      LEFT JOIN stock_levels AS s ON s.location_id = l.location_id AND s.variation_id = i.variation_id
    WHERE l.id >= ${from} AND i.kind = 'retail'
      AND NOT EXISTS (SELECT 1 FROM sale_bookings AS b WHERE b.line_id = l.id)
    ORDER BY l.id LIMIT ${limit}`);
}

interface Booking {
  lineId: number;
  variationId: string;
  booked: number;
  short: number;
  movementId: string;
  locationId: string;
  soldAt: number;
  jobId: string;
}

/**
 * Each line in order against its pair's running level: a sale takes min(units, on hand), a refund
 * returns its units. Answers the bookings and each pair's level before and after.
 */
export function workOutBookings(lines: readonly Unbooked[]) {
  const pairs = new Map<string, { locationId: string; variationId: string; before: number | null; level: number }>();
  const bookings: Booking[] = [];
  for (const line of lines) {
    const key = `${line.locationId} ${line.variationId}`;
    let pair = pairs.get(key);
    if (!pair) {
      const before = line.onHand === null ? null : Number(line.onHand);
      pair = { locationId: line.locationId, variationId: line.variationId, before, level: before ?? 0 };
      pairs.set(key, pair);
    }
    const units = Math.abs(Number(line.quantity)) * Number(line.unitsPerPackage);
    let booked: number;
    let short = 0;
    if (Number(line.quantity) < 0) booked = units;
    else {
      const taken = Math.min(units, pair.level);
      booked = -taken;
      short = units - taken;
    }
    pair.level += booked;
    bookings.push({
      lineId: Number(line.id),
      variationId: line.variationId,
      booked,
      short,
      movementId: uuidv7(),
      locationId: line.locationId,
      soldAt: Number(line.soldAt),
      jobId: line.jobId,
    });
  }
  return { bookings, pairs: [...pairs.values()] };
}

/** Whether a batch was refused because what it read changed meanwhile (its guard's NULL variation). */
function changedMeanwhile(error: unknown): boolean {
  return constraintFailed(error, /sale_bookings\.variation_id/);
}

function bookingStatements(db: Database, lines: readonly Unbooked[], at: Date): BatchItem<"sqlite">[] {
  const { bookings, pairs } = workOutBookings(lines);
  const read = JSON.stringify(lines.map((l) => [l.id, l.variationId, l.unitsPerPackage]));
  const levels = JSON.stringify(pairs.map((p) => [p.locationId, p.variationId, p.before ?? -1]));
  const written = JSON.stringify(bookings.map((b) => [b.lineId, b.variationId, b.booked, b.short]));
  const statements: BatchItem<"sqlite">[] = [
    // The guard: a line whose item or package changed, or a level that moved, since the read fails
    // the whole batch (a booking with no variation breaks sale_bookings' NOT NULL).
    db.run(sql`INSERT INTO sale_bookings (line_id, variation_id, booked_units, short_units, booked_at)
      SELECT 0, NULL, 0, 0, 0
      WHERE EXISTS (SELECT 1 FROM json_each(${read}) AS e
          JOIN sales_lines AS l ON l.id = json_extract(e.value, '$[0]')
          JOIN sale_items AS i ON i.id = l.sale_item_id
          LEFT JOIN product_variations AS v ON v.id = i.variation_id
        WHERE i.kind <> 'retail' OR i.variation_id IS NOT json_extract(e.value, '$[1]')
          OR v.units_per_package IS NOT json_extract(e.value, '$[2]'))
        OR EXISTS (SELECT 1 FROM json_each(${levels}) AS e
        WHERE coalesce((SELECT s.on_hand FROM stock_levels AS s WHERE s.location_id = json_extract(e.value, '$[0]')
          AND s.variation_id = json_extract(e.value, '$[1]')), -1) <> json_extract(e.value, '$[2]'))`),
    // A plain INSERT: a line another run booked first fails the batch on the key.
    db.run(sql`INSERT INTO sale_bookings (line_id, variation_id, booked_units, short_units, booked_at)
      SELECT json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]'), json_extract(e.value, '$[2]'),
        json_extract(e.value, '$[3]'), ${at.getTime()}
      FROM json_each(${written}) AS e`),
    // The SALE movements and their pairs' levels (the running level never went below zero; the
    // CHECK on stock_levels stands behind that).
    ...recordMovementSet(
      db,
      bookings.map((b) => ({
        id: b.movementId,
        occurredAt: b.soldAt,
        locationId: b.locationId,
        variationId: b.variationId,
        quantity: b.booked,
        type: "SALE",
        reference: { type: "import", id: b.jobId },
      })),
      at,
    ),
  ];
  const groups = new Map<string, { jobId: string; locationId: string; lines: number }>();
  for (const b of bookings) {
    const key = `${b.jobId} ${b.locationId}`;
    const group = groups.get(key) ?? { jobId: b.jobId, locationId: b.locationId, lines: 0 };
    group.lines++;
    groups.set(key, group);
  }
  for (const group of groups.values())
    statements.push(
      logActivity(db, {
        userId: null,
        locationId: group.locationId,
        action: "book_sales",
        entity: "import_job",
        entityId: group.jobId,
        summary: { lines: group.lines },
      }),
    );
  return statements;
}

/**
 * Books unbooked retail lines, a batch at a time, in line order, while `more()` allows. Each batch is
 * one transaction with one `book_sales` activity row per import and location it booked lines of.
 * Answers the lines booked.
 */
export async function bookRetailSales(
  db: Database,
  at: Date,
  more: () => boolean,
  batchSize = BOOKING_BATCH,
): Promise<number> {
  let booked = 0;
  let from = await firstUnbooked(db);
  while (from !== null && more()) {
    const lines = await unbooked(db, from, batchSize);
    if (!lines.length) break;
    try {
      await db.batch(bookingStatements(db, lines, at) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (error) {
      // Another run booked some of these lines first, or a level moved under the batch: nothing was
      // written, and the next run reads again.
      if (changedMeanwhile(error) || isConstraintError(error)) break;
      throw error;
    }
    booked += lines.length;
    if (lines.length < batchSize) break;
    from = Number((lines[lines.length - 1] as Unbooked).id) + 1;
  }
  return booked;
}
