// /recalls/report.csv?variationId=&lot=: the recall report of a lot as a CSV file (no app shell),
// read as the report screen reads it (READ_INVENTORY where the reader stands).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { requireScopedActor } from "~/access/scope.server";
import { orOutage } from "~/db/outage.server";
import { readRecallReport, reportQueryOf } from "~/recalls/report.server";
import { recallReportCsv } from "~/recalls/report-csv.server";
import { area } from "~/shell/areas";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await requireScopedActor(args, area("/recalls/report").permission);
  const asked = reportQueryOf(new URL(args.request.url).searchParams);
  if (!asked) throw data("Name the variation and the lot: ?variationId=…&lot=…", { status: 400 });
  const report = await orOutage(readRecallReport(args.context.db, actor, asked));
  if (!report) throw data("That product variation does not exist in your organization.", { status: 404 });
  return recallReportCsv(report);
}
