// /usage-log.csv?…the screen's filters: the filtered usage log as a CSV file, streamed (no app
// shell). Read as the screen is: READ_INVENTORY where the reader stands, every location in
// organization mode.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireScopedActor } from "~/access/scope.server";
import { area } from "~/shell/areas";
import { usageCsv } from "~/usage/csv.server";
import { UsageQuery } from "~/usage/query";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await requireScopedActor(args, area("/usage-log").permission);
  const query = UsageQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  return usageCsv(args.context.db, actor, query);
}
