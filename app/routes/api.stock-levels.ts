// GET /api/stock-levels?q=&category=&status=&after=&before=&pageSize=&locationId= (spec section 7):
// on hand per location × variation against its par level, for the location asked for (else the
// one in scope, or every location in organization mode), {items, pageSize, total, totalExact, next,
// previous}: keyset pages (a cursor it did not make is a 400), a count capped at 1,000 (ADR 0018).
// A filter it cannot use (text over 100 characters, an unknown status) is a 400 `invalid_filter`.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import { hasProblems, invalidCursor, invalidFilter } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { levelKeyset, readStockLevelQuery, readStockLevels } from "~/stock/levels.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_INVENTORY");
  const locationIds = locationsFor(actor, "READ_INVENTORY").ids;
  const { query, problems } = readStockLevelQuery(searchParams);
  if (hasProblems(problems)) throw invalidFilter(problems);
  const keyset = levelKeyset(query);
  if (!keyset) throw invalidCursor();
  const page = await orOutage(readStockLevels(args.context.db, actor, locationIds, query, new Date(), keyset));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
