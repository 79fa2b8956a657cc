import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { createdAt, id } from "../columns";
import { receipts } from "./receipts";

/**
 * One line of a receipt: `quantity` packages of a variation from one lot. A serialized product
 * becomes `quantity` items at completion; a bulk product `quantity × units_per_package` base units,
 * counted with the package size copied here when the line was added (ADR 0013), not the
 * variation's current one.
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
    /** Base units in one package, copied from the variation when the line was added. */
    unitsPerPackage: integer("units_per_package").notNull(),
    lot: text("lot"),
    /** Manufacturer's serial (GS1 AI 21) when one unit was scanned. */
    serial: text("serial"),
    /** YYYY-MM-DD, treated as the end of that day in UTC (spec section 3). */
    expirationDate: text("expiration_date"),
    unitCostCents: integer("unit_cost_cents"),
    /** Why a lot already expired (or dated over 10 years ahead) when the line was added was taken anyway. */
    expiryReason: text("expiry_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    // Integers only (SQLite would keep 1.5 as a REAL), bounded so quantity × units stays far below 2^53.
    check("receipt_lines_quantity", sql`typeof(${t.quantity}) = 'integer' AND ${t.quantity} BETWEEN 1 AND 1000`),
    check(
      "receipt_lines_units_per_package",
      sql`typeof(${t.unitsPerPackage}) = 'integer' AND ${t.unitsPerPackage} BETWEEN 1 AND 1000000`,
    ),
    check("receipt_lines_serial_one_unit", sql`${t.serial} IS NULL OR ${t.quantity} = 1`),
    check(
      "receipt_lines_expiration_date",
      sql`${t.expirationDate} IS NULL OR date(${t.expirationDate}) IS ${t.expirationDate}`,
    ),
    check(
      "receipt_lines_cost",
      sql`${t.unitCostCents} IS NULL OR (typeof(${t.unitCostCents}) = 'integer' AND ${t.unitCostCents} >= 0)`,
    ),
    // A lot already expired, or dated more than 10 years ahead, on the day the line was added
    // (UTC) is taken only with a reason (deterministic: it compares with the row's own created_at).
    check(
      "receipt_lines_expiry_confirmed",
      sql`${t.expirationDate} IS NULL OR ${t.expiryReason} IS NOT NULL OR ${t.expirationDate}
        BETWEEN date(${t.createdAt} / 1000, 'unixepoch') AND date(${t.createdAt} / 1000, 'unixepoch', '+10 years')`,
    ),
    // Serves a receipt's lines, in the order they were added.
    index("receipt_lines_receipt_idx").on(t.receiptId, t.createdAt),
    // Serves the check that a variation has no open lines before its package size changes.
    index("receipt_lines_variation_idx").on(t.variationId),
    // A serial is on a receipt once (two people scanning the same package at once); also serves
    // adding a line, which looks for the serial on open receipts.
    uniqueIndex("receipt_lines_serial_unique")
      .on(t.variationId, t.lot, t.serial, t.receiptId)
      .where(sql`${t.serial} IS NOT NULL`),
  ],
);
