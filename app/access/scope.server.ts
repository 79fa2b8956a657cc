// Where an actor reaches, decided once for every domain (ADR 0014). Records of a location-bound
// domain (receipts, labels, printer profiles, stock, par levels) are reached at the location in
// scope, with the permission there; in organization mode (organization admins only) at every
// location of the organization. A record elsewhere is simply not there (a 404), whatever role the
// actor holds at its location: switch location to reach it.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { organizationOf } from "~/db/sql.server";
import { CHOOSE_A_LOCATION, type ScopedActor } from "./actor";
import { forbidden, requirePermission, requireViewer } from "./guard.server";
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

type Args = { request: Request; context: AppLoadContext };

/**
 * The guard's `requirePermission` at a location a request names (an API's `locationId`, the
 * organization-mode pick), which must also be a real location the user works at: organization
 * admins hold every permission anywhere, yet an unknown, archived or other organization's location
 * is not one they may name (403).
 */
export async function requirePermissionAt(args: Args, permission: Permission, locationId: string | null) {
  const viewer = await requirePermission(args, permission, { locationId });
  const named = viewer.locationId;
  if (named && named !== ORGANIZATION && !viewer.user.locationRoles.some((r) => r.locationId === named)) {
    throw forbidden(args.request);
  }
  return viewer;
}

/**
 * The ONE location a location-bound screen works at, with `permission` there (else 403): the
 * location in scope, or in organization mode the one `picked` (a `?location=` or a form's
 * `locationId`), null until one is. The actor returned stands at that location.
 */
export async function locationInScope(args: Args, permission: Permission, picked: string | null | undefined) {
  const viewer = await requireViewer(args);
  const organizationMode = viewer.scope.kind === "organization";
  // Only a real location of theirs is picked; anything else (unknown, archived) asks again.
  const real = viewer.user.locationRoles.some((r) => r.locationId === picked);
  const asked = organizationMode ? (real && picked) || null : viewer.scope.locationId;
  const { user } = await requirePermissionAt(args, permission, asked);
  const actor: ScopedActor = { ...user, locationId: asked ?? viewer.scope.locationId };
  return { viewer, user, actor, organizationMode, locationId: asked };
}

/** As `locationInScope`, for a verb (or a screen) that cannot go on without one: 400 in organization mode until one is picked. */
export async function requireLocationInScope(args: Args, permission: Permission, picked: string | null | undefined) {
  const found = await locationInScope(args, permission, picked);
  const { locationId } = found;
  if (!locationId) throw data(CHOOSE_A_LOCATION, { status: 400 });
  return { ...found, locationId };
}

/** The actor of a page or verb that works wherever the viewer stands (every location in organization mode). */
export async function requireScopedActor(args: Args, permission: Permission): Promise<ScopedActor> {
  const { user, locationId } = await requirePermission(args, permission);
  return { ...user, locationId };
}
