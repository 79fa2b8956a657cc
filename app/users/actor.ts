// Who is acting: the signed-in user's id and access, as the session lookup reads them. Every
// domain verb of users and locations takes one and checks it before touching the database.
import type { Actor } from "~/access/actor";
import { can, isOrganizationAdmin, locationsWith } from "~/access/permissions";

/** Locations where the actor may manage people (WRITE_USERS there). */
export function userAdminLocationIds(actor: Actor): string[] {
  return locationsWith(actor, "WRITE_USERS");
}

/**
 * Whether the actor may manage a person's account (names, password, active): organization admins
 * anyone; a location admin only someone who is not an organization admin, works somewhere, and
 * works only at locations that admin administers. Mirrors `manageableBy` (the SQL guard) for the UI.
 */
export function canManageAccount(
  actor: Actor,
  target: { organizationRole: string | null; roles: readonly { locationId: string }[] },
): boolean {
  if (isOrganizationAdmin(actor)) return true;
  if (target.organizationRole !== null || target.roles.length === 0) return false;
  const administered = new Set(userAdminLocationIds(actor));
  return target.roles.every((r) => administered.has(r.locationId));
}

/** Whether the actor may grant, change or revoke roles at `locationId`. */
export function canManageRolesAt(actor: Actor, locationId: string): boolean {
  return can(actor, "WRITE_USERS", locationId);
}
