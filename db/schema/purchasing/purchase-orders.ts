import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { vendors } from "../catalog/vendors";
import { createdAt, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { organizations } from "../organization/organizations";
import { PURCHASE_ORDER_STATUSES } from "./constants";

/**
 * An order to one vendor for one location (domain.md "Flows": purchase_order), numbered per
 * organization and year: `PO-2026-0042` is sequence 42 of 2026. A draft is edited freely; a
 * submitted order changes only through a revision (purchase_order_revisions), which bumps
 * `revision`. Receipts against it (receipts.purchase_order_id) advance its lines' received packages
 * and its status. Who did what is kept on the row; no foreign keys to users, like activity_log.
 */
export const purchaseOrders = sqliteTable(
  "purchase_orders",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    vendorId: text("vendor_id")
      .notNull()
      .references(() => vendors.id),
    /** The year of its number (the organization's sequence restarts each year). */
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    /** `PO-{year}-{sequence, at least 4 digits}`, as printed for the vendor. */
    number: text("number").notNull(),
    status: text("status", { enum: PURCHASE_ORDER_STATUSES }).notNull().default("draft"),
    /** 0 until a submitted order is first revised. */
    revision: integer("revision").notNull().default(0),
    /** Bumped by every change to the order or its lines (a write names the version it read). */
    version: integer("version").notNull().default(1),
    /** For the vendor (printed on the order). */
    note: text("note"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
    submittedBy: text("submitted_by"),
    submittedAt: instant("submitted_at"),
    closedBy: text("closed_by"),
    closedAt: instant("closed_at"),
    /** Why an order was closed with lines outstanding. */
    closeReason: text("close_reason"),
    cancelledBy: text("cancelled_by"),
    cancelledAt: instant("cancelled_at"),
    cancelReason: text("cancel_reason"),
  },
  (t) => [
    check("purchase_orders_status", sql`${t.status} IN (${quotedList(PURCHASE_ORDER_STATUSES)})`),
    check("purchase_orders_sequence", sql`typeof(${t.sequence}) = 'integer' AND ${t.sequence} >= 1`),
    check("purchase_orders_revision", sql`typeof(${t.revision}) = 'integer' AND ${t.revision} >= 0`),
    check("purchase_orders_submitted", sql`${t.status} IN ('draft', 'cancelled') OR ${t.submittedAt} IS NOT NULL`),
    check("purchase_orders_closed", sql`(${t.status} = 'closed') = (${t.closedAt} IS NOT NULL)`),
    check("purchase_orders_cancelled", sql`(${t.status} = 'cancelled') = (${t.cancelledAt} IS NOT NULL)`),
    uniqueIndex("purchase_orders_number_unique").on(t.organizationId, t.year, t.sequence),
    // Serves each location's list by status, newest first, and what is on order there.
    index("purchase_orders_location_status_idx").on(t.locationId, t.status, t.createdAt, t.id),
    // Serves a vendor's orders.
    index("purchase_orders_vendor_idx").on(t.vendorId, t.status),
  ],
);
