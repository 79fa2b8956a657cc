// GET /api/product-variations?productId=&q=&status=&page=&pageSize=&locationId= (spec section 7):
// a page of variations with their product and barcodes, {items, page, pageSize, total}.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS } from "~/access/api-reader.server";
import { orOutage } from "~/http/outage.server";
import { requireCatalogReader } from "~/products/api.server";
import { VariationListQuery } from "~/products/forms";
import { listVariations } from "~/products/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, params } = await requireCatalogReader(args);
  const query = VariationListQuery.parse(params);
  const page = await orOutage(listVariations(args.context.db, actor, query));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
