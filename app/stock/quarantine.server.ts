// A recalled lot's vials are quarantined everywhere (domain.md "Stock"): no start, no draw. Derived
// from lot_recalls at the moment of asking, never copied onto items, so marking or lifting a recall
// quarantines or frees every vial of the lot at every location at once, in one row.
import { type SQL, sql } from "drizzle-orm";

/** SQL that is true while a recall of the lot of the item aliased `item` is in force. */
export function lotRecalled(item: string): SQL {
  const alias = sql.identifier(item);
  return sql`EXISTS (SELECT 1 FROM lot_recalls AS recall WHERE recall.variation_id = ${alias}.variation_id
    AND recall.lot = ${alias}.lot AND recall.lifted_at IS NULL)`;
}
