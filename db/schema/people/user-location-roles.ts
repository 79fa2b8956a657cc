import { sql } from "drizzle-orm";
import { check, index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../columns";
import { locations } from "../organization/locations";
import { LOCATION_ROLES } from "./location-roles";
import { users } from "./users";

export { LOCATION_ROLES, type LocationRole } from "./location-roles";

export const userLocationRoles = sqliteTable(
  "user_location_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    role: text("role", { enum: LOCATION_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.locationId] }),
    check("user_location_roles_role_known", sql`${t.role} IN ('ADMIN', 'MANAGER', 'STAFF')`),
    // Serves "who works at this location" on the users screen.
    index("user_location_roles_location_idx").on(t.locationId),
  ],
);
