import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { organizations } from "../organization/organizations";

/** Who the clinic buys from. Archived, never deleted: purchase orders and receipts point here. */
export const vendors = sqliteTable(
  "vendors",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    accountNumber: text("account_number"),
    contactName: text("contact_name"),
    email: text("email"),
    phone: text("phone"),
    leadTimeDays: integer("lead_time_days"),
    notes: text("notes"),
    active: flag("active").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    uniqueIndex("vendors_org_name_unique").on(t.organizationId, t.name),
    check("vendors_lead_time", sql`${t.leadTimeDays} IS NULL OR ${t.leadTimeDays} BETWEEN 0 AND 365`),
    // Serves the vendors list and the vendor filter of the products list (active first, by name).
    index("vendors_org_active_name_idx").on(t.organizationId, t.active, t.name),
  ],
);
