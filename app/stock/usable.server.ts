// What counts as stock a clinic can use: a vial past its deadline (spec section 4, as `isExpired`
// in ./expiry) is on the shelf but not usable, nor is one of a lot under recall. One rule for the
// stock levels' status, the reorder suggestions and the balancing suggestions.
import { type SQL, sql } from "drizzle-orm";
import { utcDay } from "~/ui/dates";
import { lotRecalled } from "./quarantine.server";

/**
 * SQL that is true while the item aliased `item` is past its deadline at `now`: an in-use vial at
 * its use-by deadline, any other at the end of its expiration day (UTC); one without the date it
 * needs counts as past it.
 */
export function pastDeadline(item: string, now: Date): SQL {
  const alias = sql.identifier(item);
  return sql`(CASE WHEN ${alias}.state = 'in_use' THEN coalesce(${alias}.expires_at <= ${now.getTime()}, 1)
    ELSE coalesce(${alias}.expiration_date < ${utcDay(now)}, 1) END)`;
}

/** SQL that is true while the vial aliased `item` is usable stock at `now`: on the shelf, not past its deadline, not recalled. */
export function usableVial(item: string, now: Date): SQL {
  const alias = sql.identifier(item);
  return sql`(${alias}.state IN ('sealed', 'in_use') AND NOT ${pastDeadline(item, now)} AND NOT ${lotRecalled(item)})`;
}
