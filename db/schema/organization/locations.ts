import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { organizations } from "./organizations";

export const locations = sqliteTable(
  "locations",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    code: text("code").notNull(),
    address: text("address"),
    timezone: text("timezone").notNull().default("UTC"),
    active: flag("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    // Codes are printed on labels and typed by staff: short, upper-case, unique per organization.
    uniqueIndex("locations_org_code_unique").on(t.organizationId, t.code),
    check("locations_code_format", sql`${t.code} = upper(${t.code}) AND length(${t.code}) BETWEEN 2 AND 8`),
    // Serves the location switcher and lists (active locations by name).
    index("locations_org_active_name_idx").on(t.organizationId, t.active, t.name),
  ],
);
