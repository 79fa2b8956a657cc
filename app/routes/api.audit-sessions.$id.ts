// GET /api/audit-sessions/{id}?locationId= (READ_INVENTORY where the count is): the count, its
// `status` and its `lines`; with READ_AUDITS there, or when the count is not blind, its `review`
// (expected against counted as of each line, variances and value, missing and found vials, the
// movements made while it was open; the first 30 products and sizes not counted, `totals` counting
// them all). A count waiting for review or approved is answered from its figures as the jobs worker
// worked them out (`asOf`; app/counts/review.server.ts). A count elsewhere is a 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { linesJson, reviewJson, sessionJson } from "~/counts/json.server";
import { COUNT_REFUSALS } from "~/counts/outcome";
import { readCountDocument } from "~/counts/review.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_INVENTORY");
  const db = args.context.db;
  const read = await orOutage(readCountDocument(db, actor, "READ_INVENTORY", args.params.id ?? ""));
  if (!read) return jsonError(404, COUNT_REFUSALS.not_found, API_HEADERS, "not_found");
  const { session, document: report } = read;
  const reviewer = canHere(actor, "READ_AUDITS");
  return Response.json(
    {
      ...sessionJson(session),
      // While its figures are the jobs worker's (a count waiting for review, or approved), as of when.
      asOf: report.asOf === null ? null : new Date(report.asOf).toISOString(),
      lines: linesJson(report),
      review: reviewer || !Number(session.blind) ? reviewJson(report) : null,
    },
    { headers: API_HEADERS },
  );
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
