import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "../columns";
import { purchaseOrders } from "./purchase-orders";

/**
 * A recorded change to a submitted order: its number (1, 2, ...), why, and what changed (JSON: the
 * lines before and after), by whom. Append-only: a revision is history.
 */
export const purchaseOrderRevisions = sqliteTable(
  "purchase_order_revisions",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => purchaseOrders.id),
    revision: integer("revision").notNull(),
    reason: text("reason").notNull(),
    /** JSON: [{variationId, what, before: {packages, unitCostCents} | null, after: ... | null}]. */
    changes: text("changes").notNull(),
    revisedBy: text("revised_by"),
    createdAt: createdAt(),
  },
  (t) => [
    check("purchase_order_revisions_revision", sql`typeof(${t.revision}) = 'integer' AND ${t.revision} >= 1`),
    check("purchase_order_revisions_changes", sql`json_valid(${t.changes})`),
    uniqueIndex("purchase_order_revisions_unique").on(t.orderId, t.revision),
  ],
);
