// Whether an actor may change the organization's shared things: the catalogue (products,
// variations, barcodes, services, recipes, recalls), a product's safety fields, vendors, and
// people with their roles. They belong to the organization, not to one location, so the permission
// is read where the actor acts from ("all" in organization mode). The routes' door already asked
// for the permission; a verb asks these because forms, the JSON API, seeds and tests all call it.
import type { Actor, ScopedActor } from "./actor";
import { can, isOrganizationAdmin, locationsWith } from "./permissions";

/** Whether the actor may change products, variations, barcodes, services and recipes from where they stand. */
export function canWriteCatalog(actor: ScopedActor): boolean {
  return can(actor, "WRITE_PRODUCTS", actor.locationId);
}

/**
 * Whether the actor may change a product's safety fields (controlled, beyond-use hours, tracking):
 * they govern every location, so only organization admins, wherever they stand.
 */
export function canChangeSafetyFields(actor: ScopedActor): boolean {
  return isOrganizationAdmin(actor);
}

/** Whether the actor may add, change or archive vendors from where they stand (WRITE_VENDORS there). */
export function canWriteVendors(actor: ScopedActor): boolean {
  return can(actor, "WRITE_VENDORS", actor.locationId);
}

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
