// Who may read stock, and at which locations (spec section 7: /api/vials, /api/stock-levels take an
// optional `locationId`): READ_INVENTORY there, else at the location in scope; organization mode
// (organization admins only) covers every location of the organization.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { requireApiReader } from "~/access/api-reader.server";
import { ORGANIZATION } from "~/access/permissions";

/**
 * The locations a stock read covers: the one named, or every location the user works at for
 * organization mode (an organization admin's list holds every active location), or none.
 */
export function locationsInScope(
  user: { locationRoles: readonly { locationId: string }[] },
  locationId: string | null,
): string[] {
  if (!locationId) return [];
  if (locationId === ORGANIZATION) return user.locationRoles.map((r) => r.locationId);
  return [locationId];
}

/** The gate of the stock APIs: READ_INVENTORY where asked, and the locations the read covers. */
export async function requireInventoryReader(args: { request: Request; context: AppLoadContext }) {
  const { actor, searchParams } = await requireApiReader(args, "READ_INVENTORY");
  return { actor, locationIds: locationsInScope(actor, actor.locationId), searchParams };
}
