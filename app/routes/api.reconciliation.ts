// GET /api/reconciliation?locationId=&from=&to=&threshold=&page=&pageSize= (spec section 7): per variation at the
// location asked for (else the one in scope; every location with locationId=all, organization
// admins), over the days from–to in its time zone (default the last 30 days):
// {items: [{variationId, product, variation, unit, expected, actual, change, variance: {units,
// percent, cents}, split: {recipeDrift, waste, unexplained}, flagged}], page, pageSize, total, from,
// to, threshold}: flagged first, 100 a page (pageSize up to 500).
// READ_REPORTS; a date it cannot use, a period backwards or over a year: 400 `invalid_filter`.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { hasProblems, invalidFilter } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { reconciliationApi } from "~/reconciliation/api.server";
import { readReconciliationAsk } from "~/reconciliation/screen.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_REPORTS");
  // The location is the actor's (apiActor read `locationId`); the query's own is for the screens.
  searchParams.delete("locationId");
  const ask = readReconciliationAsk(actor, searchParams);
  if (hasProblems(ask.problems)) throw invalidFilter(ask.problems);
  return Response.json(await orOutage(reconciliationApi(args.context.db, ask)), { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
