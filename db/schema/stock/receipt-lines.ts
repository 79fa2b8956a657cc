import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { createdAt, id } from "../columns";
import { receipts } from "./receipts";

/**
 * One line of a receipt: `quantity` packages of a variation from one lot. A serialized product
 * becomes `quantity` items at completion; a bulk product `quantity × units_per_package` base units.
 */
export const receiptLines = sqliteTable(
  "receipt_lines",
  {
    id: id(),
    receiptId: text("receipt_id")
      .notNull()
      .references(() => receipts.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    /** Packages received (vials, boxes), not base units. */
    quantity: integer("quantity").notNull(),
    lot: text("lot"),
    /** Manufacturer's serial (GS1 AI 21) when one unit was scanned. */
    serial: text("serial"),
    /** YYYY-MM-DD, treated as the end of that day in UTC (spec section 3). */
    expirationDate: text("expiration_date"),
    unitCostCents: integer("unit_cost_cents"),
    createdAt: createdAt(),
  },
  (t) => [
    check("receipt_lines_quantity", sql`${t.quantity} BETWEEN 1 AND 1000`),
    check("receipt_lines_serial_one_unit", sql`${t.serial} IS NULL OR ${t.quantity} = 1`),
    check(
      "receipt_lines_expiration_date",
      sql`${t.expirationDate} IS NULL OR date(${t.expirationDate}) IS ${t.expirationDate}`,
    ),
    check("receipt_lines_cost", sql`coalesce(${t.unitCostCents}, 0) >= 0`),
    // Serves a receipt's lines, in the order they were added.
    index("receipt_lines_receipt_idx").on(t.receiptId, t.createdAt),
  ],
);
