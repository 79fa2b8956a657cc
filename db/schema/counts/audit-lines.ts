import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { flag, id, instant } from "../columns";
import { items } from "../stock/items";
import { auditSessions } from "./audit-sessions";

/**
 * One thing counted in a cycle count: a vial scanned (item_id; its units left for a started one)
 * or a bulk quantity of a variation and lot on one shelf (several lines of the same variation, by
 * two people on two shelves, add up). `ledger_position` is the stock ledger's position when it was
 * counted (the highest stock_movements rowid then), so movements after it are not variances.
 * `found`: the vial was scanned here but the system placed it elsewhere or in another state.
 */
export const auditLines = sqliteTable(
  "audit_lines",
  {
    id: id(),
    sessionId: text("session_id")
      .notNull()
      .references(() => auditSessions.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    itemId: text("item_id").references(() => items.id),
    lot: text("lot"),
    /** Base units counted: a vial's units left; a bulk quantity on one shelf. */
    quantity: integer("quantity").notNull(),
    ledgerPosition: integer("ledger_position").notNull(),
    found: flag("found").notNull().default(false),
    countedBy: text("counted_by"),
    countedAt: instant("counted_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    check("audit_lines_quantity", sql`typeof(${t.quantity}) = 'integer' AND ${t.quantity} >= 0`),
    // A vial scanned twice is counted once.
    uniqueIndex("audit_lines_item_unique").on(t.sessionId, t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    index("audit_lines_session_variation_idx").on(t.sessionId, t.variationId, t.lot),
    // Serve the count page's newest lines, counted by me and by the others.
    index("audit_lines_session_counted_idx").on(t.sessionId, t.countedAt, t.id),
    index("audit_lines_session_counter_idx").on(t.sessionId, t.countedBy, t.countedAt, t.id),
  ],
);
