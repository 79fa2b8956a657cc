// The reconciliation's question as a request asks it, read once for the screen, its CSV, the
// drill-down and the API: the filters (./query), the period (default the last 30 days, in the
// location's zone; UTC in organization mode), the threshold and where it is read (./read.server).
import type { ScopedActor } from "~/access/actor";
import { type FilterProblems, readFilters } from "~/http/filters.server";
import { type Period, periodOf, ReconciliationQuery, type ReconciliationQueryInput, thresholdOf } from "./query";
import { type Scope, scopeOf } from "./read.server";

export interface ReconciliationAsk {
  query: ReconciliationQueryInput;
  problems: FilterProblems;
  period: Period;
  threshold: number;
  scope: Scope;
}

export function readReconciliationAsk(
  actor: ScopedActor,
  params: URLSearchParams,
  now = new Date(),
): ReconciliationAsk {
  const { query, problems } = readFilters(ReconciliationQuery, Object.fromEntries(params));
  // The zone the days are read in: the location's (the one asked for, in organization mode).
  const zoneScope = scopeOf(actor, { from: "2000-01-01", to: "2000-01-01" }, query.locationId || null);
  const { period, problem } = periodOf(query, zoneScope.timeZone, now);
  const all: FilterProblems = { ...problems };
  if (problem && !all.from && !all.to) all.from = problem;
  return {
    query,
    problems: all,
    period,
    threshold: thresholdOf(query),
    scope: scopeOf(actor, period, query.locationId || null),
  };
}
