// Who is acting, as domain verbs receive it: the signed-in user's id and access, and for
// organization-wide objects (catalogue, vendors) the location they act from.
import type { Access } from "./permissions";

export interface Actor extends Access {
  id: string;
}

export interface ScopedActor extends Actor {
  /** The location in scope: a location id, "all" (organization mode), or null (no location). */
  locationId: string | null;
}

/** What a location-bound screen or verb says in organization mode until a location is picked. */
export const CHOOSE_A_LOCATION = "Organization mode: choose a location first.";

/** Where an activity row is filed: the location in scope, or none in organization mode. */
export function activityLocation(actor: ScopedActor): string | null {
  return actor.locationId && actor.locationId !== "all" ? actor.locationId : null;
}
