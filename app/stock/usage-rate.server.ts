// How fast a location goes through a variation, read from the stock ledger: what purchasing's
// reorder suggestions and par levels from usage, and the transfers' balancing suggestions, all ask
// (ADR 0032). One definition, so a vial that "expires before North can use it" and a reorder that
// "covers 20 days" are judged at the same rate.
//
// Use is the ledger's movements that take stock away because it was consumed:
// - USE: units drawn from a vial for a treatment (each with its usage entry);
// - SALE: units sold (the sales import books them; bulk and retail products are used this way);
// - WASTE: what an emptied or wasted vial still held: the vial is gone all the same, so it is part of
//   what the location goes through and must buy again.
// Not use: DISCARD (expired, damaged, recalled, lost: what went wrong, not what the clinic needs;
// counting expired stock as use would order more of what expires), ADJUST (corrections, donations,
// damage), COUNT (a count's variance), TRANSFER_OUT (stock moved, not used), START and EMPTY
// (a vial changing state), RECEIVE and TRANSFER_IN.
import { type SQL, sql } from "drizzle-orm";
import type { MovementType } from "../../db/schema/stock/constants";

/** The movement types that are use (see above). */
export const USE_MOVEMENTS = ["USE", "SALE", "WASTE"] as const satisfies readonly MovementType[];

const DAY = 24 * 60 * 60 * 1000;

/** The instant `days` days before `now` (ms): the start of a usage window. */
export function windowStart(now: Date, days: number): number {
  return now.getTime() - days * DAY;
}

/** Whether movement alias `m` is use, as SQL. */
export function isUse(m: string): SQL {
  return sql`${sql.raw(m)}.type IN (${sql.raw(USE_MOVEMENTS.map((t) => `'${t}'`).join(", "))})`;
}

/**
 * Base units of `variation` used at `location` since `since` (ms), as a scalar subquery (0 when
 * none): one seek of stock_movements_location_variation_at_idx (location, variation, time), the
 * window's movements of that pair only.
 */
export function unitsUsedSql(location: SQL, variation: SQL, since: number): SQL {
  return sql`(SELECT coalesce(-sum(um.quantity), 0) FROM stock_movements AS um
    INDEXED BY stock_movements_location_variation_at_idx
    WHERE um.location_id = ${location} AND um.variation_id = ${variation} AND um.occurred_at >= ${since}
      AND ${isUse("um")})`;
}

/**
 * Whether `variation` was used at any of `locations` (a subquery or list in parentheses) since
 * `since`, as SQL: a seek a location.
 */
export function usedAnyOfSql(locations: SQL, variation: SQL, since: number): SQL {
  return sql`EXISTS (SELECT 1 FROM stock_movements AS um INDEXED BY stock_movements_location_variation_at_idx
    WHERE um.location_id IN ${locations} AND um.variation_id = ${variation} AND um.occurred_at >= ${since}
      AND ${isUse("um")})`;
}

/** Base units a day, from the units used over a window of `days` days. */
export function dailyRate(unitsUsed: number, days: number): number {
  return days > 0 ? Math.max(0, unitsUsed) / days : 0;
}
