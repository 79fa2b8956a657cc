import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "../columns";
import { productVariations } from "./product-variations";

/**
 * A code that identifies something when scanned: a catalogue code of a variation, or (from the
 * stock-in issue on) the label code of one item. Unique across the whole catalogue; the rules of
 * spec section 5 hold in the database too.
 */
export const barcodes = sqliteTable(
  "barcodes",
  {
    id: id(),
    code: text("code").notNull().unique(),
    variationId: text("variation_id").references(() => productVariations.id),
    /** Label code of one serialized item; the items table arrives with the stock-in issue. */
    itemId: text("item_id"),
    createdAt: createdAt(),
  },
  (t) => [
    check("barcodes_code_rules", sql`length(${t.code}) BETWEEN 4 AND 50 AND ${t.code} NOT GLOB '*[^A-Z0-9_-]*'`),
    check("barcodes_one_target", sql`(${t.variationId} IS NULL) + (${t.itemId} IS NULL) = 1`),
    // Serves a variation's codes on the product detail page.
    index("barcodes_variation_idx").on(t.variationId),
  ],
);
