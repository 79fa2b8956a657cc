// Who may read stock, and at which locations (spec section 7: /api/vials, /api/stock-levels take an
// optional `locationId`): READ_INVENTORY there, else at the location in scope; organization mode
// (organization admins only) covers every location of the organization.
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Actor } from "~/access/actor";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { ORGANIZATION } from "~/access/permissions";
import type { SessionUser } from "~/auth/session.server";
import { jsonError } from "~/http/json.server";

/**
 * The locations a stock read covers: the one named, or every location the user works at for
 * organization mode (an organization admin's list holds every active location), or none.
 */
export function locationsInScope(user: SessionUser, locationId: string | null): string[] {
  if (!locationId) return [];
  if (locationId === ORGANIZATION) return user.locationRoles.map((r) => r.locationId);
  return [locationId];
}

/** The gate of the stock APIs: signed in (else 401 JSON), READ_INVENTORY where asked (else 403 JSON). */
export async function requireInventoryReader(args: { request: Request; context: AppLoadContext }) {
  const url = new URL(args.request.url);
  const locationId = url.searchParams.get("locationId") || null;
  const viewer = await requirePermission(args, "READ_INVENTORY", { locationId });
  // Organization admins hold every permission anywhere: still, a location they cannot see (unknown,
  // archived, another organization's) is not one they may name.
  if (
    locationId &&
    locationId !== ORGANIZATION &&
    !viewer.user.locationRoles.some((r) => r.locationId === locationId)
  ) {
    throw jsonError(403, FORBIDDEN);
  }
  const actor: Actor = viewer.user;
  return { actor, locationIds: locationsInScope(viewer.user, viewer.locationId), searchParams: url.searchParams };
}
