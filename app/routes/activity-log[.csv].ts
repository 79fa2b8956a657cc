// /activity-log.csv?…the screen's filters: the filtered activity log as a CSV file, streamed (no
// app shell), with each row's words and its raw action code. Read as the screen is: READ_ACTIVITY
// where the reader stands, every location in organization mode. A filter it cannot use answers
// 400, not a file that ignores it.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { activityCsv } from "~/activity-log/csv.server";
import { readActivityQuery } from "~/activity-log/list.server";
import { hasProblems, invalidFilter } from "~/http/filters.server";
import { area } from "~/shell/areas";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/activity-log").permission);
  const { query, problems } = readActivityQuery(new URL(args.request.url).searchParams);
  if (hasProblems(problems)) return invalidFilter(problems);
  return activityCsv(args.context.db, actor, query, { timeZone: timeZoneHere(actor) });
}
