import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { organizations } from "../organization/organizations";
import { productVariations } from "./product-variations";

/** A treatment the clinic sells (e.g. "Glabella lines, toxin"); its recipe says what it consumes. */
export const services = sqliteTable(
  "services",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    /** The code the point-of-sale export uses, matched by the sales and recipe imports. */
    code: text("code").notNull(),
    category: text("category"),
    priceCents: integer("price_cents"),
    durationMinutes: integer("duration_minutes"),
    active: flag("active").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    uniqueIndex("services_org_code_unique").on(t.organizationId, t.code),
    check("services_price", sql`coalesce(${t.priceCents}, 0) >= 0`),
    check("services_duration", sql`${t.durationMinutes} IS NULL OR ${t.durationMinutes} > 0`),
    // Serves the services list (active first, by name).
    index("services_org_active_name_idx").on(t.organizationId, t.active, t.name),
  ],
);

/** One line of a service's recipe: this variation, this many base units, per service performed. */
export const recipeLines = sqliteTable(
  "recipe_lines",
  {
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.variationId] }),
    check("recipe_lines_quantity", sql`${t.quantity} > 0`),
    // Serves "which services use this variation" on the product detail page.
    index("recipe_lines_variation_idx").on(t.variationId),
  ],
);
