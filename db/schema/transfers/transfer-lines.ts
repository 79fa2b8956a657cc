import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { createdAt, id, instant, quotedList } from "../columns";
import { items } from "../stock/items";
import { TRANSFER_LINE_STATUSES } from "./constants";
import { transfers } from "./transfers";

/**
 * One line of a transfer: a vial (item_id, sealed only: a started vial stays where it was opened)
 * or a bulk quantity of a variation. `quantity` is in base units: what the sender books out (a
 * vial's units when sent; the bulk quantity asked); `quantity_received` what arrived. A line
 * marked missing, damaged or short is a discrepancy, open until resolved with a note.
 */
export const transferLines = sqliteTable(
  "transfer_lines",
  {
    id: id(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    itemId: text("item_id").references(() => items.id),
    lot: text("lot"),
    /** Base units sent (a vial's units; a bulk quantity). */
    quantity: integer("quantity").notNull(),
    status: text("status", { enum: TRANSFER_LINE_STATUSES }).notNull().default("pending"),
    /** Base units that arrived (null until the line is received or marked). */
    quantityReceived: integer("quantity_received"),
    /** Why a line was marked missing, damaged or short. */
    reason: text("reason"),
    receivedBy: text("received_by"),
    receivedAt: instant("received_at"),
    /** A discrepancy's resolution: who, when, and the note. */
    resolvedBy: text("resolved_by"),
    resolvedAt: instant("resolved_at"),
    resolutionNote: text("resolution_note"),
    createdAt: createdAt(),
  },
  (t) => [
    check("transfer_lines_status", sql`${t.status} IN (${quotedList(TRANSFER_LINE_STATUSES)})`),
    check("transfer_lines_quantity", sql`typeof(${t.quantity}) = 'integer' AND ${t.quantity} > 0`),
    check(
      "transfer_lines_received",
      sql`${t.quantityReceived} IS NULL OR (typeof(${t.quantityReceived}) = 'integer'
        AND ${t.quantityReceived} BETWEEN 0 AND ${t.quantity})`,
    ),
    check("transfer_lines_closed", sql`(${t.status} IN ('pending', 'returned')) = (${t.receivedAt} IS NULL)`),
    check(
      "transfer_lines_discrepancy_reason",
      sql`${t.status} NOT IN ('missing', 'damaged', 'short') OR ${t.reason} IS NOT NULL`,
    ),
    check("transfer_lines_resolved", sql`(${t.resolvedAt} IS NULL) = (${t.resolutionNote} IS NULL)`),
    index("transfer_lines_transfer_idx").on(t.transferId, t.createdAt, t.id),
    // A vial is on one line of a transfer at most.
    uniqueIndex("transfer_lines_item_unique").on(t.transferId, t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    // Serves a vial's transfers (its page, "is it on the way?").
    index("transfer_lines_item_idx").on(t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    // Serves the open discrepancies (dashboard, both locations' lists).
    index("transfer_lines_open_discrepancy_idx")
      .on(t.transferId)
      .where(sql`${t.status} IN ('missing', 'damaged', 'short') AND ${t.resolvedAt} IS NULL`),
  ],
);
