import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { products } from "./products";

/** A stocked form of a product, e.g. "100 U vial" or "Box of 100". Stock is counted per variation. */
export const productVariations = sqliteTable(
  "product_variations",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id),
    name: text("name").notNull(),
    sku: text("sku"),
    /** GS1 GTIN-8/12/13/14, digits only; what manufacturers' barcodes carry (AI 01). */
    gtin: text("gtin"),
    /** Base units in one package (e.g. 100 for a 100 U vial; 100 for 1 mL at scale 100). */
    unitsPerPackage: integer("units_per_package").notNull(),
    costCents: integer("cost_cents"),
    active: flag("active").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    // Serves scanning a manufacturer's barcode at receiving: GTIN → variation.
    uniqueIndex("product_variations_gtin_unique").on(t.gtin),
    uniqueIndex("product_variations_product_name_unique").on(t.productId, t.name),
    check(
      "product_variations_gtin_digits",
      sql`${t.gtin} IS NULL OR (length(${t.gtin}) IN (8, 12, 13, 14) AND ${t.gtin} NOT GLOB '*[^0-9]*')`,
    ),
    // At most 1,000,000 base units a package: with at most 1000 packages a line, no product passes 2^53.
    check(
      "product_variations_units",
      sql`typeof(${t.unitsPerPackage}) = 'integer' AND ${t.unitsPerPackage} BETWEEN 1 AND 1000000`,
    ),
    check("product_variations_cost", sql`coalesce(${t.costCents}, 0) >= 0`),
    // Serves the dashboard's values at cost (app/dashboard): a variation's package and cost by its id,
    // read from the index alone for each vial and waste movement valued (named there: INDEXED BY).
    index("product_variations_cost_idx").on(t.id, t.unitsPerPackage, t.costCents, t.productId),
    // Serves a product's variations on its detail page.
    index("product_variations_product_idx").on(t.productId),
    // Serves the product search by a variation's SKU typed or scanned whole (productMatching).
    index("product_variations_sku_idx").on(sql`lower(${t.sku})`),
  ],
);
