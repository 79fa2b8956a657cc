// GET /api/stock-levels?q=&category=&status=&page=&pageSize=&locationId= (spec section 7): on hand
// per location × variation against its par level, for the location asked for (else the one in
// scope, or every location in organization mode), {items, page, pageSize, total}.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS } from "~/access/api-reader.server";
import { orOutage } from "~/db/outage.server";
import { requireInventoryReader } from "~/stock/api.server";
import { readStockLevels, StockLevelQuery } from "~/stock/levels.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, locationIds, searchParams } = await requireInventoryReader(args);
  const query = StockLevelQuery.parse(Object.fromEntries(searchParams));
  const page = await orOutage(readStockLevels(args.context.db, actor, locationIds, query));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
