// Where an actor reaches, decided once for every domain (ADR 0014). Records of a location-bound
// domain (receipts, labels, printer profiles, stock, par levels) are reached at the location in
// scope, with the permission there; in organization mode (organization admins only) at every
// location of the organization. A record elsewhere is simply not there (a 404), whatever role the
// actor holds at its location: switch location to reach it. The verbs ask it; the routes' door
// (./door.server) admits the actor they pass.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { organizationOf } from "~/db/sql.server";
import type { ScopedActor } from "./actor";
import { can, isOrganizationAdmin, ORGANIZATION, type Permission } from "./permissions";

export interface Reach {
  /** The location ids reached: the one in scope, every active one in organization mode, or none. */
  ids: readonly string[];
  /** Whether a location column is one of them, as SQL (organization mode: any location of the organization). */
  where(column: SQL | SQLiteColumn): SQL;
}

const NOWHERE: Reach = { ids: [], where: () => sql`0` };

function inOrganizationMode(actor: ScopedActor): boolean {
  return actor.locationId === ORGANIZATION && isOrganizationAdmin(actor);
}

/** Which locations `actor` reaches for `permission` from where they stand. */
export function locationsFor(actor: ScopedActor, permission: Permission): Reach {
  if (inOrganizationMode(actor)) {
    const organization = organizationOf(actor);
    return {
      // An organization admin's roles list every active location of the organization.
      ids: actor.locationRoles.map((r) => r.locationId),
      where: (column) => sql`${column} IN (SELECT id FROM locations WHERE organization_id = ${organization})`,
    };
  }
  const here = actor.locationId;
  if (!here || !reachesAt(actor, permission, here)) return NOWHERE;
  return { ids: [here], where: (column) => sql`${column} = ${here}` };
}

/** The tables of location-bound records, each with its `location_id` (items: vials at their location). */
type LocationBound = "receipts" | "printer_profiles" | "items";

/** The ids of the `table` rows the actor reaches for `permission`, as a subquery for `… IN ${…}`. */
export function idsReached(table: LocationBound, actor: ScopedActor, permission: Permission): SQL {
  const reached = locationsFor(actor, permission).where(sql`reached.location_id`);
  return sql`(SELECT reached.id FROM ${sql.identifier(table)} AS reached WHERE ${reached})`;
}

/**
 * Whether `actor` holds `permission` at `locationId` from where they stand: it is the location in
 * scope (one they work at), or they are in organization mode (the query still checks that the
 * location is their organization's).
 */
export function reachesAt(actor: ScopedActor, permission: Permission, locationId: string): boolean {
  if (inOrganizationMode(actor)) return true;
  return (
    locationId === actor.locationId &&
    actor.locationRoles.some((r) => r.locationId === locationId) &&
    can(actor, permission, locationId)
  );
}

/** Whether `actor` holds `permission` where they stand (the location in scope, or organization mode). */
export function canHere(actor: ScopedActor, permission: Permission): boolean {
  return actor.locationId !== null && reachesAt(actor, permission, actor.locationId);
}
