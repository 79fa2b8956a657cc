// Vendors belong to the organization and are governed by WRITE_VENDORS at the location in scope.
import type { ScopedActor } from "~/access/actor";
import { can } from "~/access/permissions";

export function canWriteVendors(actor: ScopedActor): boolean {
  return can(actor, "WRITE_VENDORS", actor.locationId);
}
