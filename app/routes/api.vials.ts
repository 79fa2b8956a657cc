// GET /api/vials?state=&productId=&variationId=&lot=&expiringWithinDays=&recalled=&page=&pageSize=&locationId=
// (spec section 7): a page of the serialized items at the location asked for (else the one in
// scope, or every location in organization mode), {items, page, pageSize, total}. `recalled=true`
// lists only vials of a lot under recall, `recalled=false` none of them.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS } from "~/access/api-reader.server";
import { orOutage } from "~/db/outage.server";
import { requireInventoryReader } from "~/stock/api.server";
import { readVials, vialQueryOf } from "~/stock/vials.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, locationIds, searchParams } = await requireInventoryReader(args);
  const page = await orOutage(readVials(args.context.db, actor, locationIds, vialQueryOf(searchParams)));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
