import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { instant } from "../columns";
import { locations } from "../organization/locations";

/**
 * The cached balance of the stock ledger: base units of a variation on hand at a location. Written
 * only in the same batch as the movements that explain it (stock-in issue); never negative.
 */
export const stockLevels = sqliteTable(
  "stock_levels",
  {
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    onHand: integer("on_hand").notNull().default(0),
    updatedAt: instant("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.variationId] }),
    check("stock_levels_not_negative", sql`${t.onHand} >= 0`),
    check("stock_levels_on_hand_integer", sql`typeof(${t.onHand}) = 'integer'`),
    // Serves on-hand per location of one variation (product detail), and the dashboard's value of
    // bulk stock (each bulk variation's levels at the locations in scope, read from the index alone).
    index("stock_levels_variation_idx").on(t.variationId, t.locationId, t.onHand),
  ],
);
