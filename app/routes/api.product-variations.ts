// GET /api/product-variations?productId=&q=&status=&page=&pageSize=&locationId= (spec section 7):
// a page of variations with their product and barcodes, {items, page, pageSize, total}.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { VariationListQuery } from "~/products/forms";
import { listVariations } from "~/products/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_PRODUCTS");
  const query = VariationListQuery.parse(Object.fromEntries(searchParams));
  const page = await orOutage(listVariations(args.context.db, actor, query));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
