import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { organizations } from "../organization/organizations";
import { STORAGE_CONDITIONS, TRACKING_MODES } from "./constants";
import { vendors } from "./vendors";

/**
 * What the clinic stocks. Quantities are integers in the base unit divided by `unit_scale`
 * (e.g. mL with scale 100 counts hundredths of a mL), so stock arithmetic never uses floats.
 * `version` is bumped by every edit; an edit names the version it started from (optimistic lock).
 */
export const products = sqliteTable(
  "products",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    sku: text("sku"),
    category: text("category").notNull(),
    manufacturer: text("manufacturer"),
    defaultVendorId: text("default_vendor_id").references(() => vendors.id),
    tracking: text("tracking", { enum: TRACKING_MODES }).notNull(),
    baseUnit: text("base_unit").notNull(),
    unitScale: integer("unit_scale").notNull().default(1),
    /** Hours a unit stays usable once opened (reconstituted toxin 24, multi-dose vial 672). */
    beyondUseHours: integer("beyond_use_hours"),
    storage: text("storage", { enum: STORAGE_CONDITIONS }).notNull().default("room"),
    costCents: integer("cost_cents"),
    priceCents: integer("price_cents"),
    /**
     * A controlled substance: an empty or discard that wastes units needs a second person of the
     * location as witness (domain.md "Stock").
     */
    controlled: flag("controlled").notNull().default(false),
    active: flag("active").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    uniqueIndex("products_org_sku_unique").on(t.organizationId, t.sku),
    check("products_tracking_known", sql`${t.tracking} IN ('serialized', 'bulk')`),
    check("products_storage_known", sql`${t.storage} IN ('room', 'refrigerated', 'frozen')`),
    check("products_unit_scale", sql`${t.unitScale} IN (1, 10, 100, 1000)`),
    check("products_beyond_use", sql`${t.beyondUseHours} IS NULL OR ${t.beyondUseHours} > 0`),
    check("products_money", sql`coalesce(${t.costCents}, 0) >= 0 AND coalesce(${t.priceCents}, 0) >= 0`),
    // Serves the products list and search (productPageQueries): the active/archived filter in the list's
    // order (lower(name), id), so a page stops at its LIMIT instead of sorting every product.
    index("products_org_active_name_idx").on(t.organizationId, t.active, sql`lower(${t.name})`, t.id),
    // Serves the stock levels list (app/stock/levels.server), archived products included: the
    // catalogue walked in its order (lower(name), id), each pair probed, a page stopping at its LIMIT.
    index("products_org_name_idx").on(t.organizationId, sql`lower(${t.name})`, t.id),
    // Serves the category filter.
    index("products_org_category_idx").on(t.organizationId, t.category),
    // Serves the vendor filter.
    index("products_vendor_idx").on(t.defaultVendorId),
  ],
);
