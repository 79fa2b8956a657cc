// Who is changing the catalogue and from where: catalogue objects belong to the organization and
// are governed by the permission at the location in scope ("all" in organization mode).
import { can } from "~/access/permissions";
import type { Actor } from "~/users/actor";

export interface CatalogActor extends Actor {
  /** The location in scope: a location id, "all" (organization mode), or null (no location). */
  locationId: string | null;
}

/** Whether the actor may change products, variations and barcodes from where they stand. */
export function canWriteCatalog(actor: CatalogActor): boolean {
  return can(actor, "WRITE_PRODUCTS", actor.locationId);
}

/** Where an activity row is filed: the location in scope, or none in organization mode. */
export function activityLocation(actor: CatalogActor): string | null {
  return actor.locationId && actor.locationId !== "all" ? actor.locationId : null;
}
