// Where and when the dashboard's figures are of: the locations the reader reaches for
// READ_INVENTORY (the location in scope, or every location in organization mode,
// app/access/scope.server.ts), the zone its months are counted in, and `now`, judged once per
// request.
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { isOrganizationAdmin, ORGANIZATION } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import { type WasteMonths, wasteMonths } from "./month";

export interface DashboardPlace {
  locationIds: readonly string[];
  /** Every location of the organization (organization mode), not one location's. */
  organization: boolean;
  /** The zone the months are counted in (the location's; UTC in organization mode). */
  timeZone: string;
  months: WasteMonths;
  now: Date;
}

export function placeOf(actor: ScopedActor, now = new Date()): DashboardPlace {
  const timeZone = timeZoneHere(actor);
  return {
    locationIds: locationsFor(actor, "READ_INVENTORY").ids,
    organization: actor.locationId === ORGANIZATION && isOrganizationAdmin(actor),
    timeZone,
    months: wasteMonths(now, timeZone),
    now,
  };
}
