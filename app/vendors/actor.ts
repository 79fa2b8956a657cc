// Who is changing vendors and from where. Vendors belong to the organization and are governed by
// WRITE_VENDORS at the location in scope ("all" in organization mode, organization admins only).
// Same shape as the catalogue's actor (app/products/actor.ts), so a route hands either the same.
import { can } from "~/access/permissions";
import type { Actor } from "~/users/actor";

export interface VendorActor extends Actor {
  /** The location in scope: a location id, "all" (organization mode), or null (no location). */
  locationId: string | null;
}

export function canWriteVendors(actor: VendorActor): boolean {
  return can(actor, "WRITE_VENDORS", actor.locationId);
}

/** Where an activity row is filed: the location in scope, or none in organization mode. */
export function vendorActivityLocation(actor: VendorActor): string | null {
  return actor.locationId && actor.locationId !== "all" ? actor.locationId : null;
}
