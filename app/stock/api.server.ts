// Who may read stock, and at which locations (spec section 7: /api/vials, /api/stock-levels take an
// optional `locationId`): READ_INVENTORY there, else at the location in scope; organization mode
// (organization admins only) covers every location of the organization (app/access/scope.server).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { requireApiReader } from "~/access/api-reader.server";
import { locationsFor } from "~/access/scope.server";

/** The gate of the stock APIs: READ_INVENTORY where asked, and the locations the read covers. */
export async function requireInventoryReader(args: { request: Request; context: AppLoadContext }) {
  const { actor, searchParams } = await requireApiReader(args, "READ_INVENTORY");
  return { actor, locationIds: locationsFor(actor, "READ_INVENTORY").ids, searchParams };
}
