import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";
import { locations } from "../organization/locations";
import { productVariations } from "./product-variations";

/** How much of a variation a location wants on the shelf, in packages. */
export const parLevels = sqliteTable(
  "par_levels",
  {
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    par: integer("par").notNull(),
    reorderPoint: integer("reorder_point").notNull(),
    max: integer("max"),
    updatedAt: instant("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.variationId] }),
    check(
      "par_levels_order",
      sql`${t.reorderPoint} >= 0 AND ${t.reorderPoint} <= ${t.par} AND (${t.max} IS NULL OR ${t.max} >= ${t.par})`,
    ),
    // Serves a variation's par levels at every location (product detail).
    index("par_levels_variation_idx").on(t.variationId),
  ],
);
