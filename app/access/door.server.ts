// The door every loader and action goes through, and the only one (ADR 0022). It admits a request
// once: signed in (else the login screen, or a 401 for /api/*), a password of their own (else the
// change-password form, or a 403 for the API), then the permission where the actor stands (else
// 403: the Access Denied screen, or JSON for /api/*). What it returns is the actor the domain verbs
// take. The verbs keep only what the door cannot know (the record's own location, a target user's
// roles), and the guards in SQL keep a race safe; a route never builds an actor by hand.
//
//   signedIn              who is asking, where they stand; no permission (shell, /api/auth/me)
//   actorHere             the permission where they stand (every location in organization mode)
//   actorAt               the permission at a location the route names (a location's own page)
//   actorAtOneLocation    a location-bound screen: the location in scope, or the one picked in
//                         organization mode (null until picked)
//   actorAtPickedLocation as actorAtOneLocation, for a write that cannot go on without one (400)
//   organizationAdmin     organization-wide setup only organization admins do (new locations)
//   apiActor              the JSON API: the permission at `?locationId=` (or a body's), else here
import type { AppLoadContext } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { getSessionUser, type SessionUser } from "~/auth/session.server";
import { jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { FORBIDDEN } from "~/outcome";
import { CHOOSE_A_LOCATION, type ScopedActor } from "./actor";
import { readLocationChoice, resolveScope, type Scope } from "./location-choice.server";
import { can, isOrganizationAdmin, ORGANIZATION, type Permission } from "./permissions";

/** The actor the door admits: the signed-in user, the location they act from, and their scope. */
export interface ActorHere extends SessionUser, ScopedActor {
  locationRoles: SessionUser["locationRoles"];
  /** Where they work now, as the location switcher shows it. */
  scope: Scope;
}

interface Args {
  request: Request;
  context: AppLoadContext;
}

export const CHANGE_PASSWORD_PATH = "/change-password";
export const NOT_SIGNED_IN = "You are not signed in. Sign in and try again.";
export const PASSWORD_CHANGE_REQUIRED = "password_change_required";
export const CHANGE_PASSWORD_FIRST = `Your password was set by an administrator: choose your own password at ${CHANGE_PASSWORD_PATH} first, then try again.`;
const ME_PATH = "/api/auth/me";

function isApi(request: Request) {
  return new URL(request.url).pathname.startsWith("/api/");
}

/** The 403 answer: JSON in the API's one error shape for /api/*, else the Access Denied screen. */
export function forbidden(request: Request): Response {
  return isApi(request) ? jsonError(403, FORBIDDEN) : new Response(FORBIDDEN, { status: 403 });
}

// A page's layout and route loaders run for the same request: look the session up once.
const signedInActors = new WeakMap<AppLoadContext, Promise<ActorHere>>();

/** The signed-in user where they stand, with no permission asked. One database round trip per request. */
export function signedIn(args: Args): Promise<ActorHere> {
  let actor = signedInActors.get(args.context);
  if (!actor) {
    actor = lookUp(args);
    signedInActors.set(args.context, actor);
  }
  return actor;
}

async function lookUp({ request, context }: Args): Promise<ActorHere> {
  const user = await orOutage(getSessionUser(context.env, context.db, request));
  if (!user) {
    if (isApi(request)) throw jsonError(401, NOT_SIGNED_IN);
    const url = new URL(request.url);
    const here = url.pathname + url.search;
    throw redirect(here === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(here)}`);
  }
  // A user given an initial password must choose their own before doing anything else: pages go
  // to the form; the API refuses (who they are stays readable, for an app to send them there).
  if (user.mustChangePassword) {
    if (!isApi(request)) throw redirect(CHANGE_PASSWORD_PATH);
    if (new URL(request.url).pathname !== ME_PATH)
      throw jsonError(403, CHANGE_PASSWORD_FIRST, undefined, PASSWORD_CHANGE_REQUIRED);
  }
  const scope = resolveScope(user, await readLocationChoice(request));
  return { ...user, scope, locationId: scope.locationId };
}

/** The actor of a page or verb that works where the user stands (every location in organization mode). */
export async function actorHere(args: Args, permission: Permission): Promise<ActorHere> {
  const actor = await signedIn(args);
  if (!can(actor, permission, actor.locationId)) throw forbidden(args.request);
  return actor;
}

/**
 * The actor with `permission` at a location the route itself names (a location's own page), which
 * need not be the one in scope. The verb still decides about the record (it may be archived).
 */
export async function actorAt(args: Args, permission: Permission, locationId: string): Promise<ActorHere> {
  const actor = await signedIn(args);
  if (!can(actor, permission, locationId)) throw forbidden(args.request);
  return { ...actor, locationId };
}

/** An organization admin, wherever they stand: setup of the organization itself (a new location). */
export async function organizationAdmin(args: Args): Promise<ActorHere> {
  const actor = await signedIn(args);
  if (!isOrganizationAdmin(actor)) throw forbidden(args.request);
  return actor;
}

/**
 * `permission` at a location a request names (an API's `locationId`, the organization-mode pick),
 * else where the user stands. A named location must also be a real one the user works at:
 * organization admins hold every permission anywhere, yet an unknown, archived or other
 * organization's location is not one they may name (403).
 */
async function actorAtNamed(args: Args, permission: Permission, named: string | null): Promise<ActorHere> {
  const actor = await signedIn(args);
  const locationId = named ?? actor.locationId;
  if (!can(actor, permission, locationId)) throw forbidden(args.request);
  if (named && named !== ORGANIZATION && !actor.locationRoles.some((r) => r.locationId === named)) {
    throw forbidden(args.request);
  }
  return { ...actor, locationId };
}

/**
 * The ONE location a location-bound screen works at (ADR 0014), with `permission` there (else
 * 403): the location in scope, or in organization mode the one `picked` (a `?location=` or a
 * form's `locationId`), null until one is. The actor returned stands at that location.
 */
export async function actorAtOneLocation(args: Args, permission: Permission, picked: string | null | undefined) {
  const viewer = await signedIn(args);
  const organizationMode = viewer.scope.kind === "organization";
  // Only a real location of theirs is picked; anything else (unknown, archived) asks again.
  const real = viewer.locationRoles.some((r) => r.locationId === picked);
  const asked = organizationMode ? (real && picked) || null : viewer.scope.locationId;
  const actor = await actorAtNamed(args, permission, asked);
  return { actor, organizationMode, locationId: asked };
}

/** As `actorAtOneLocation`, for a write (or a screen) that cannot go on without one: 400 in organization mode until one is picked. */
export async function actorAtPickedLocation(args: Args, permission: Permission, picked: string | null | undefined) {
  const found = await actorAtOneLocation(args, permission, picked);
  const { locationId } = found;
  if (!locationId) throw data(CHOOSE_A_LOCATION, { status: 400 });
  return { ...found, locationId };
}

/**
 * The door of the JSON API (spec section 7: `/api/*` with an optional location id), for reads and
 * writes alike: signed in (else 401 JSON), `permission` at the `locationId` the query names (or
 * `at`, a location the body names), else where the user stands; a location named must be one they
 * work at (else 403 JSON).
 */
export async function apiActor(args: Args, permission: Permission, at?: string | null) {
  const searchParams = new URL(args.request.url).searchParams;
  const named = at === undefined ? searchParams.get("locationId") || null : at;
  const actor = await actorAtNamed(args, permission, named);
  return { actor, searchParams };
}
