// /sales-import/{id}/errors.csv: an import's rows in error (row number, column, value, message) as
// a CSV file, streamed a page of rows at a time (never the whole table in memory). Read as the
// import's page is: READ_IMPORTS where the reader stands; an import elsewhere is not there (404).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { csvResponse } from "~/http/csv.server";
import { orOutage } from "~/http/outage.server";
import { importJob, rowErrorPages } from "~/imports/list.server";
import { area } from "~/shell/areas";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/sales-import/{id}").permission);
  const { db } = args.context;
  const job = await orOutage(importJob(db, actor, args.params.jobId ?? "", 0));
  if (!job) throw data("That import does not exist here.", { status: 404 });
  const base = job.fileName.replace(/\.(csv|xlsx)$/i, "");
  async function* pages() {
    for await (const page of rowErrorPages(db, job?.id ?? "")) {
      yield page.map((e) => [e.row, e.column, e.value, e.message] as const);
    }
  }
  return csvResponse(`${base}-rows-in-error`, ["Row", "Column", "Value", "Message"], pages());
}
