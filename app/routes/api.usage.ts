// GET /api/usage?locationId=&from=&to=&productId=&variationId=&lot=&provider=&serviceId=&patientRef=&page=&pageSize=
// (spec section 7): a page of the usage log at the location asked for (else the one in scope, or
// every location in organization mode), newest first, {items, page, pageSize, total}.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS, requireApiReader } from "~/access/api-reader.server";
import { orOutage } from "~/db/outage.server";
import { readUsage } from "~/usage/list.server";
import { UsageQuery } from "~/usage/query";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await requireApiReader(args, "READ_INVENTORY");
  const page = await orOutage(readUsage(args.context.db, actor, UsageQuery.parse(Object.fromEntries(searchParams))));
  return Response.json(page, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
