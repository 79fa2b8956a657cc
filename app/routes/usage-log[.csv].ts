// /usage-log.csv?…the screen's filters: the filtered usage log as a CSV file, streamed (no app
// shell). Read as the screen is: READ_INVENTORY where the reader stands, every location in
// organization mode. A filter it cannot use answers 400, not a file that ignores it.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { hasProblems, invalidFilter } from "~/http/filters.server";
import { area } from "~/shell/areas";
import { usageCsv } from "~/usage/csv.server";
import { readUsageQuery } from "~/usage/list.server";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/usage-log").permission);
  const { query, problems } = readUsageQuery(new URL(args.request.url).searchParams);
  // Not a file of every entry as if unfiltered: what is wrong, in the one error shape.
  if (hasProblems(problems)) return invalidFilter(problems);
  return usageCsv(args.context.db, actor, query);
}
