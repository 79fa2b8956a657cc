// The one permission check every loader and action goes through: signed in (or off to the login
// screen, or a 401 for /api/*), then the permission at the location in scope (or a 403).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { getSessionUser, type SessionUser } from "~/auth/session.server";
import { jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { FORBIDDEN } from "~/outcome";
import { type LocationChoice, readLocationChoice, resolveScope, type Scope } from "./location-choice.server";
import { can, type Permission } from "./permissions";

export interface Viewer {
  user: SessionUser;
  scope: Scope;
  choice: LocationChoice;
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
const viewers = new WeakMap<AppLoadContext, Promise<Viewer>>();

/** The signed-in user and the location they are working at. One database round trip per request. */
export function requireViewer(args: Args): Promise<Viewer> {
  let viewer = viewers.get(args.context);
  if (!viewer) {
    viewer = lookUpViewer(args);
    viewers.set(args.context, viewer);
  }
  return viewer;
}

async function lookUpViewer({ request, context }: Args): Promise<Viewer> {
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
  const choice = await readLocationChoice(request);
  return { user, choice, scope: resolveScope(user, choice) };
}

/**
 * Requires `permission` at a location: the one asked for (e.g. an API's `locationId`), else the
 * one in scope. Answers 403 when the user's role there does not grant it.
 */
export async function requirePermission(
  args: Args,
  permission: Permission,
  options: { locationId?: string | null } = {},
): Promise<Viewer & { locationId: string | null }> {
  const viewer = await requireViewer(args);
  const locationId = options.locationId ?? viewer.scope.locationId;
  if (!can(viewer.user, permission, locationId)) throw forbidden(args.request);
  return { ...viewer, locationId };
}
