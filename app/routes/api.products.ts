// GET /api/products?q=&category=&vendor=&tracking=&status=&page=&pageSize=&locationId= (spec
// section 7): a page of the catalogue, {items, page, pageSize, total}; same search as /products.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { ProductListQuery } from "~/products/forms";
import { productPageQueries } from "~/products/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_PRODUCTS");
  const query = ProductListQuery.parse(Object.fromEntries(searchParams));
  const { db } = args.context;
  const [items, totals] = await orOutage(db.batch(productPageQueries(db, actor, query)));
  return Response.json(
    { items, page: query.page, pageSize: query.pageSize, total: totals[0]?.total ?? 0 },
    { headers: API_HEADERS },
  );
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
