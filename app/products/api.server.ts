// The catalogue API's gate (spec section 7): signed in, READ_PRODUCTS at the optional
// `locationId` (else the location in scope), and that location must be one the caller works at.
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { ORGANIZATION } from "~/access/permissions";
import { jsonError } from "~/http/json.server";

export const API_HEADERS = { "Cache-Control": "private, no-store" };

export async function requireCatalogReader(args: { request: Request; context: AppLoadContext }) {
  const url = new URL(args.request.url);
  const locationId = url.searchParams.get("locationId") || null;
  const viewer = await requirePermission(args, "READ_PRODUCTS", { locationId });
  // Organization admins hold every permission anywhere: still, a location they cannot see (unknown,
  // archived, another organization's) is not one they may name.
  if (
    locationId &&
    locationId !== ORGANIZATION &&
    !viewer.user.locationRoles.some((r) => r.locationId === locationId)
  ) {
    throw jsonError(403, FORBIDDEN);
  }
  const actor: ScopedActor = { ...viewer.user, locationId: viewer.locationId };
  return { actor, params: Object.fromEntries(url.searchParams) };
}
