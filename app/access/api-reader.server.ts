// The gate of the read APIs (spec section 7: `/api/*` with an optional location id): signed in
// (else 401 JSON), `permission` at the `locationId` asked for (else at the location in scope),
// and a location named must be one the caller works at (else 403 JSON).
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import { requirePermissionAt } from "~/access/scope.server";

/** Answers about one person's data: never kept by shared caches, nor reused by the browser. */
export const API_HEADERS = { "Cache-Control": "private, no-store" };

export async function requireApiReader(args: { request: Request; context: AppLoadContext }, permission: Permission) {
  const url = new URL(args.request.url);
  const locationId = url.searchParams.get("locationId") || null;
  const viewer = await requirePermissionAt(args, permission, locationId);
  const actor: ScopedActor = { ...viewer.user, locationId: viewer.locationId };
  return { actor, searchParams: url.searchParams };
}
