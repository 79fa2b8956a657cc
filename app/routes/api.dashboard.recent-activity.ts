// GET /api/dashboard/recent-activity?locationId=: the newest activity rows the reader may see at the
// location asked for (else the one in scope; `all` in organization mode), {items: [{id, at, text,
// href, action, userName, location}]}: each in words with its link, as the activity log shows it.
// READ_ACTIVITY there (managers and admins; staff get 403). Same reads as the dashboard's widget.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { dashboardUnreadable } from "~/dashboard/api.server";
import { activityWidget } from "~/dashboard/dashboard.server";
import { readWidgets } from "~/dashboard/read.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { reportError } from "~/observability/report.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_ACTIVITY");
  const { request, context } = args;
  const { activity } = await orOutage(
    readWidgets(context.db, { activity: activityWidget(context.db, actor) }, (error) =>
      reportError(error, { request, env: context.env, ctx: context.ctx }),
    ),
  );
  if (!activity.ok) throw dashboardUnreadable();
  return Response.json({ items: activity.data }, { headers: API_HEADERS });
}

export { getOnly as action } from "~/http/api.server";
