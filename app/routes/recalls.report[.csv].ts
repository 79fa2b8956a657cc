// /recalls/report.csv?variationId=&lot=: the recall report of a lot as a CSV file (no app shell),
// read as the report screen reads it (READ_INVENTORY where the reader stands). A file, not a page:
// a missing or unknown variation is answered in the one error shape {error, code}, saying what is
// wrong (a thrown `data` reached the 500 handler's "Unexpected Server Error" here).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { readRecallReport, reportQueryOf } from "~/recalls/report.server";
import { recallReportCsv } from "~/recalls/report-csv.server";
import { area } from "~/shell/areas";

export const REPORT_CSV_MESSAGES = {
  asked: "Name the variation and the lot: /recalls/report.csv?variationId=…&lot=… (the report's Download CSV link).",
  notFound: "That product variation does not exist in your organization.",
} as const;

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/recalls/report").permission);
  const asked = reportQueryOf(new URL(args.request.url).searchParams);
  if (!asked) throw jsonError(400, REPORT_CSV_MESSAGES.asked, API_HEADERS);
  const report = await orOutage(readRecallReport(args.context.db, actor, asked));
  if (!report) throw jsonError(404, REPORT_CSV_MESSAGES.notFound, API_HEADERS);
  return recallReportCsv(report);
}
