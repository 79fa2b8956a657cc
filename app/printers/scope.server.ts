// Which locations a permission reaches, as SQL on a location column: printer profiles and receipt
// labels are location-bound, so every query names the locations the actor may use.
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { isOrganizationAdmin, locationsWith, type Permission } from "~/access/permissions";
import { organizationOf, valueList } from "~/db/sql.server";

/**
 * Whether the location column `column` is one where the actor holds `permission`: any location of
 * their organization for organization admins, else the locations whose role grants it.
 */
export function locationsWhere(actor: Actor, permission: Permission, column: SQL): SQL {
  if (isOrganizationAdmin(actor)) {
    return sql`${column} IN (SELECT id FROM locations WHERE organization_id = ${organizationOf(actor)})`;
  }
  const ids = locationsWith(actor, permission);
  return ids.length === 0 ? sql`0` : sql`${column} IN (${valueList(ids)})`;
}
