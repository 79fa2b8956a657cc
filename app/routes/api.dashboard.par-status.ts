// GET /api/dashboard/par-status?locationId=: the location × variation pairs below par at the
// location asked for (else the one in scope; `all` in organization mode), as the stock levels
// judge them: {belowReorder, belowParOnly, belowPar, items} with the first rows (at or under the
// reorder point first), each with `reorderPackages`, the packages to order to reach its maximum.
// The stock levels list (`/api/stock-levels?status=below_reorder`, `below_par`) has every row.
// READ_INVENTORY there. Same reads as the dashboard's par status list (in organization mode, the
// organization's worked-out figures when recent, ADR 0030).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { dashboardUnreadable } from "~/dashboard/api.server";
import { readParStatus } from "~/dashboard/dashboard.server";
import { placeOf } from "~/dashboard/place.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { reportError } from "~/observability/report.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_INVENTORY");
  const { request, context } = args;
  const parStatus = await orOutage(
    readParStatus(context.db, actor, placeOf(actor), (error) =>
      reportError(error, { request, env: context.env, ctx: context.ctx }),
    ),
  );
  if (!parStatus) throw dashboardUnreadable();
  return Response.json(parStatus, { headers: API_HEADERS });
}

export { getOnly as action } from "~/http/api.server";
