// Catalogue objects belong to the organization and are governed by the permission at the location
// the actor acts from ("all" in organization mode).
import type { ScopedActor } from "~/access/actor";
import { can, isOrganizationAdmin } from "~/access/permissions";

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
