// GET /api/usage?locationId=&from=&to=&product=&productId=&variationId=&lot=&provider=&serviceId=&patientRef=&pageSize=&after=|before=
// (spec section 7): a page of the usage log at the location asked for (else the one in scope, or
// every location in organization mode), newest first, by keyset (ADR 0018):
// {items, next, previous, pageSize, total, totalExact}; follow `next` as `after`, `previous` as `before`.
// A filter it cannot use (a date not YYYY-MM-DD, text over its length) is a 400 `invalid_filter`.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { hasProblems, invalidCursor, invalidFilter } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { readUsage, readUsageQuery } from "~/usage/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_INVENTORY");
  const { query, problems } = readUsageQuery(searchParams);
  if (hasProblems(problems)) throw invalidFilter(problems);
  const page = await orOutage(readUsage(args.context.db, actor, query));
  return page ? Response.json(page, { headers: API_HEADERS }) : invalidCursor();
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
