import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { createdAt, id, instant } from "../columns";
import { MAX_PACKAGES_A_LINE, MAX_UNIT_COST_CENTS } from "./constants";
import { purchaseOrders } from "./purchase-orders";

/**
 * One line of a purchase order: packages of one variation (one line a variation), at a unit cost a
 * package, with the package size copied when the line was added (as receipt lines do, ADR 0013) and
 * the vendor's own SKU for it. `packages_received` is advanced by completed receipts against the order.
 */
export const purchaseOrderLines = sqliteTable(
  "purchase_order_lines",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => purchaseOrders.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    packagesOrdered: integer("packages_ordered").notNull(),
    /** Base units in one package, copied from the variation when the line was added. */
    unitsPerPackage: integer("units_per_package").notNull(),
    unitCostCents: integer("unit_cost_cents").notNull(),
    packagesReceived: integer("packages_received").notNull().default(0),
    /** The vendor's SKU for this variation (what the vendor's CSV and the printed order show). */
    vendorSku: text("vendor_sku"),
    /** YYYY-MM-DD: when the vendor should deliver it (from its lead time when added). */
    expectedOn: text("expected_on"),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    check(
      "purchase_order_lines_packages",
      sql`typeof(${t.packagesOrdered}) = 'integer' AND ${t.packagesOrdered} BETWEEN 1 AND ${sql.raw(String(MAX_PACKAGES_A_LINE))}`,
    ),
    check(
      "purchase_order_lines_units_per_package",
      sql`typeof(${t.unitsPerPackage}) = 'integer' AND ${t.unitsPerPackage} BETWEEN 1 AND 1000000`,
    ),
    check(
      "purchase_order_lines_cost",
      sql`typeof(${t.unitCostCents}) = 'integer' AND ${t.unitCostCents} BETWEEN 0 AND ${sql.raw(String(MAX_UNIT_COST_CENTS))}`,
    ),
    // More than ordered may arrive (with a reason on the receipt); never a negative or fractional count.
    check(
      "purchase_order_lines_received",
      sql`typeof(${t.packagesReceived}) = 'integer' AND ${t.packagesReceived} >= 0`,
    ),
    check("purchase_order_lines_expected_on", sql`${t.expectedOn} IS NULL OR date(${t.expectedOn}) IS ${t.expectedOn}`),
    uniqueIndex("purchase_order_lines_variation_unique").on(t.orderId, t.variationId),
    // Serves what is on order of a variation (reorder suggestions, product detail).
    index("purchase_order_lines_variation_idx").on(t.variationId),
  ],
);
