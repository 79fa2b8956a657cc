// GET /api/dashboard/stats?locationId= (spec section 7): the dashboard's stock figures at the
// location asked for (else the one in scope; `all`, the ORGANIZATION of app/access/permissions.ts,
// for every location in organization mode): {vialsOnHand, inUse, expiringSoon,
// expiringSoonValueCents, expired, recalled, belowPar (belowReorder + belowParOnly),
// stockValueCents, inTransitToHere, openDiscrepancies, wasteThisMonth {units, cents}}, defined in app/dashboard/stats.server.ts and
// waste.server.ts, read by the same functions as the page's cards. READ_INVENTORY there.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { dashboardUnreadable } from "~/dashboard/api.server";
import { readStats } from "~/dashboard/dashboard.server";
import { placeOf } from "~/dashboard/place.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { reportError } from "~/observability/report.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_INVENTORY");
  const { request, context } = args;
  const stats = await orOutage(
    readStats(context.db, actor, placeOf(actor), (error) =>
      reportError(error, { request, env: context.env, ctx: context.ctx }),
    ),
  );
  if (!stats) throw dashboardUnreadable();
  return Response.json(stats, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
