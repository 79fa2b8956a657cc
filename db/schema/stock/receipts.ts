import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { vendors } from "../catalog/vendors";
import { createdAt, id, instant } from "../columns";
import { locations } from "../organization/locations";
import { RECEIPT_STATUSES } from "./constants";

/**
 * A delivery being checked in at one location: open while its lines are added, then completed
 * (items, RECEIVE movements and levels written in the same batch) or cancelled. Triggers in the
 * migrations keep a completed or cancelled receipt and its lines immutable, bump `version` on every
 * line change (completion names the version it read), and refuse deletes.
 */
export const receipts = sqliteTable(
  "receipts",
  {
    id: id(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    vendorId: text("vendor_id").references(() => vendors.id),
    /**
     * The purchase order this delivery answers (purchase_orders; no foreign key: the column came
     * before its table, and SQLite adds none to an existing table). The receiving verbs check it.
     */
    purchaseOrderId: text("purchase_order_id"),
    /** Why more arrived than the order still expected (required then: app/purchasing). */
    overReceiptReason: text("over_receipt_reason"),
    /** Packing slip or invoice number, as printed by the vendor. */
    reference: text("reference"),
    notes: text("notes"),
    status: text("status", { enum: RECEIPT_STATUSES }).notNull().default("open"),
    version: integer("version").notNull().default(1),
    /** Who opened / completed it; no foreign key, like activity_log. */
    openedBy: text("opened_by"),
    createdAt: createdAt(),
    completedBy: text("completed_by"),
    completedAt: instant("completed_at"),
  },
  (t) => [
    check("receipts_status", sql`${t.status} IN ('open', 'completed', 'cancelled')`),
    check("receipts_completed_at", sql`(${t.status} = 'completed') = (${t.completedAt} IS NOT NULL)`),
    // Serves the receiving list of a location: open first, newest first.
    index("receipts_location_status_created_idx").on(t.locationId, t.status, t.createdAt),
    // Serves an order's receipts (its page, the receipts still open against it).
    index("receipts_purchase_order_idx").on(t.purchaseOrderId).where(sql`${t.purchaseOrderId} IS NOT NULL`),
  ],
);
