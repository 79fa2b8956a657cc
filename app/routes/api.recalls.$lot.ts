// GET /api/recalls/{lot}?variationId= (READ_INVENTORY): the recall report of that lot, recalled or
// not (a trace): every use and where its unused vials are, at the locations the caller reaches
// (the locationId asked for, else the one in scope, every location in organization mode).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { readRecallReport } from "~/recalls/report.server";

const REPORT_MESSAGES = {
  variation: "Name the product variation of the lot: ?variationId=<id>.",
  notFound: "That product variation does not exist in your organization.",
} as const;

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_INVENTORY");
  const variationId = searchParams.get("variationId")?.trim() ?? "";
  const lot = (args.params.lot ?? "").trim();
  if (!variationId || variationId.length > 100) throw jsonError(400, REPORT_MESSAGES.variation, API_HEADERS);
  const report = await orOutage(readRecallReport(args.context.db, actor, { variationId, lot }));
  if (!report) throw jsonError(404, REPORT_MESSAGES.notFound, API_HEADERS);
  return Response.json(report, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
