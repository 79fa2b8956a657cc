// /reconciliation.csv?from=&to=&threshold=: the reconciliation's whole table as a CSV file (no app
// shell), read as the screen is: READ_REPORTS where the reader stands, every location in
// organization mode. A filter it cannot use answers 400, not a file of another period.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { hasProblems, invalidFilter } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { reconciliationCsv } from "~/reconciliation/csv.server";
import { readReconciliationAsk } from "~/reconciliation/screen.server";
import { area } from "~/shell/areas";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/reconciliation").permission);
  const ask = readReconciliationAsk(actor, new URL(args.request.url).searchParams);
  if (hasProblems(ask.problems)) return invalidFilter(ask.problems);
  return orOutage(reconciliationCsv(args.context.db, ask.scope, ask.threshold));
}
