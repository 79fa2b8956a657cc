// GET /api/vials?state=&productId=&variationId=&lot=&expiringWithinDays=&recalled=&after=&before=&pageSize=&locationId=
// (spec section 7): a page of the serialized items at the location asked for (else the one in
// scope, or every location in organization mode), {items, pageSize, total, totalExact, next,
// previous}: keyset pages (`after=<next>`, `before=<previous>`; a cursor it did not make is a 400)
// and a count capped at 1,000 (ADR 0018). `recalled=true` lists only vials of a lot under recall,
// `recalled=false` none of them. A filter it cannot use (a lot over 100 characters, days not a
// whole number from 0 to 3650, an unknown state) is a 400 `invalid_filter` naming it.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import { hasProblems, invalidCursor, invalidFilter } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { readVialQuery, readVials, vialKeyset } from "~/stock/vials.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_INVENTORY");
  const locationIds = locationsFor(actor, "READ_INVENTORY").ids;
  const { query, problems } = readVialQuery(searchParams);
  if (hasProblems(problems)) throw invalidFilter(problems);
  const keyset = vialKeyset(query);
  if (!keyset) throw invalidCursor();
  const page = await orOutage(readVials(args.context.db, actor, locationIds, query, new Date(), keyset));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
