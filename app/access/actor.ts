// Who is acting, as domain verbs receive it: the signed-in user's id and access, and for
// organization-wide objects (catalogue, vendors) the location they act from.
import type { Access } from "./permissions";

export interface Actor extends Access {
  id: string;
}

export interface ScopedActor extends Actor {
  /** The location in scope: a location id, "all" (organization mode), or null (no location). */
  locationId: string | null;
  /** As the session reads them, each with its location's time zone (an actor made without one reads UTC). */
  locationRoles: readonly (Access["locationRoles"][number] & { location?: { timeZone: string } })[];
}

/** What a location-bound screen or verb says in organization mode until a location is picked. */
export const CHOOSE_A_LOCATION = "Organization mode: choose a location first.";

/**
 * The time zone of the location in scope, carried by the session lookup (no round trip of its
 * own): a screen's dates are whole days there. UTC in organization mode or at no location.
 */
export function timeZoneHere(actor: ScopedActor): string {
  return actor.locationRoles.find((r) => r.locationId === actor.locationId)?.location?.timeZone ?? "UTC";
}

/** Where an activity row is filed: the location in scope, or none in organization mode. */
export function activityLocation(actor: ScopedActor): string | null {
  return actor.locationId && actor.locationId !== "all" ? actor.locationId : null;
}
