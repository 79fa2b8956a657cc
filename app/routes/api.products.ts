// GET /api/products?q=&category=&vendor=&tracking=&status=&page=&pageSize=&locationId= (spec
// section 7): a page of the catalogue, {items, page, pageSize, total}; same search as /products.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS } from "~/access/api-reader.server";
import { orOutage } from "~/http/outage.server";
import { requireCatalogReader } from "~/products/api.server";
import { ProductListQuery } from "~/products/forms";
import { productPageQueries } from "~/products/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, params } = await requireCatalogReader(args);
  const query = ProductListQuery.parse(params);
  const { db } = args.context;
  const [items, totals] = await orOutage(db.batch(productPageQueries(db, actor, query)));
  return Response.json(
    { items, page: query.page, pageSize: query.pageSize, total: totals[0]?.total ?? 0 },
    { headers: API_HEADERS },
  );
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
