// What the dashboard (/) and its three APIs read, composed from the widgets' own modules: the same
// statements and the same readers, so a figure on the page and in the API is one number. Where and
// when: ./place.server.ts. The stock, waste and par figures are those worked out in the last minutes
// by the jobs worker, the organization's or the location's, when there are such
// (./organization-figures.server.ts); else they are summed on the view.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { recentActivityQueries } from "./activity.server";
import { backupLineOf, backupQueries } from "./backups.server";
import { inUseOf, inUseQueries } from "./in-use.server";
import { figuresOf, figuresQuery, type OrganizationFigures } from "./organization-figures.server";
import { type ParStatus, parStatusOf, parStatusQueries } from "./par-status.server";
import type { DashboardPlace } from "./place.server";
import { readWidgets, type Widget, widget } from "./read.server";
import { type StockStats, statsOf, statsQueries } from "./stats.server";
import { type Waste, wasteByReasonQueries, wasteOf, wasteQueries } from "./waste.server";

export function statsWidget(db: Database, actor: ScopedActor, place: DashboardPlace): Widget<StockStats> {
  return widget(statsQueries(db, actor, place.locationIds, place.now), statsOf);
}

export function wasteWidget(db: Database, place: DashboardPlace): Widget<Waste> {
  return widget(wasteQueries(db, place.locationIds, place.months), (results) => wasteOf(results, place.months));
}

export function parStatusWidget(db: Database, actor: ScopedActor, place: DashboardPlace) {
  return widget(parStatusQueries(db, actor, place.locationIds, place.now), parStatusOf);
}

export function inUseWidget(db: Database, place: DashboardPlace) {
  return widget(inUseQueries(db, place.locationIds), inUseOf);
}

export function activityWidget(db: Database, actor: ScopedActor) {
  const { statements, read } = recentActivityQueries(db, actor);
  return widget(statements, read);
}

export function backupsWidget(db: Database, actor: ScopedActor) {
  return widget(backupQueries(db, actor), backupLineOf);
}

/** The worked-out figures of the place, when they may stand in for the live sums. */
export function figuresWidget(db: Database, actor: ScopedActor, place: DashboardPlace) {
  return widget([figuresQuery(db, actor)], (results) => figuresOf(results, place));
}

/**
 * The place's recent worked-out figures read on their own (the APIs, which read nothing else);
 * null when there are none recent (then they are summed).
 */
async function recentFigures(
  db: Database,
  actor: ScopedActor,
  place: DashboardPlace,
  report: (e: unknown) => void,
): Promise<OrganizationFigures | null> {
  const fig = figuresWidget(db, actor, place);
  const { fig: found } = await readWidgets(db, { fig }, report);
  return found.ok ? found.data : null;
}

/** GET /api/dashboard/stats: the stock figures and this month's waste, {units, cents}, and the instant they are of. */
export interface StatsAnswer extends StockStats {
  wasteThisMonth: { units: number; cents: number };
  asOf: string;
}

/**
 * The stats API's reads: the stock figures and the waste, one batch (in organization mode, the
 * organization's worked-out figures first). Null when a statement failed (the API then answers its
 * error; the page shows the section error).
 */
export async function readStats(db: Database, actor: ScopedActor, place: DashboardPlace, report: (e: unknown) => void) {
  // This month's waste is the page's waste widget's total, read by the same statement (its by-reason
  // one; the products that waste the most are the page's alone).
  const byReason = widget(wasteByReasonQueries(db, place.locationIds, place.months), (results) =>
    wasteOf(results, place.months),
  );
  const figures = await recentFigures(db, actor, place, report);
  const { stats, waste } = figures
    ? { stats: { ok: true as const, data: figures.stats }, waste: { ok: true as const, data: figures.waste } }
    : await readWidgets(db, { stats: statsWidget(db, actor, place), waste: byReason }, report);
  const asOf = figures?.computedAt ?? null;
  if (!stats.ok || !waste.ok) return null;
  const { units, cents } = waste.data.thisMonth;
  return {
    ...stats.data,
    wasteThisMonth: { units, cents },
    asOf: new Date(asOf ?? place.now.getTime()).toISOString(),
  } satisfies StatsAnswer;
}

/** What the reader may see on the dashboard besides the stock (each needs its own permission where they stand). */
export interface DashboardAccess {
  activity: boolean;
  backups: boolean;
}

/**
 * The dashboard page: every widget the reader may see, one round trip (see ./read.server.ts); with
 * no recent worked-out figures (the worker stopped, a location just added), a second one sums them.
 */
export async function dashboardScreen(
  db: Database,
  actor: ScopedActor,
  place: DashboardPlace,
  access: DashboardAccess,
  report: (e: unknown) => void,
) {
  const fig = figuresWidget(db, actor, place);
  const { figures, ...rest } = await readWidgets(
    db,
    {
      figures: fig,
      inUse: inUseWidget(db, place),
      activity: access.activity ? activityWidget(db, actor) : null,
      backups: access.backups ? backupsWidget(db, actor) : null,
    },
    report,
  );
  const found = figures?.ok ? figures.data : null;
  if (found)
    return {
      ...rest,
      stats: { ok: true as const, data: found.stats },
      waste: { ok: true as const, data: found.waste },
      parStatus: { ok: true as const, data: found.parStatus },
      asOf: found.computedAt,
    };
  // No recent figures: summed now.
  const summed = await readWidgets(
    db,
    {
      stats: statsWidget(db, actor, place),
      waste: wasteWidget(db, place),
      parStatus: parStatusWidget(db, actor, place),
    },
    report,
  );
  return { ...rest, ...summed, asOf: null };
}

/**
 * GET /api/dashboard/par-status: the par status the page shows (from the worked-out figures when
 * recent). Null when a statement failed.
 */
export async function readParStatus(
  db: Database,
  actor: ScopedActor,
  place: DashboardPlace,
  report: (e: unknown) => void,
): Promise<ParStatus | null> {
  const figures = await recentFigures(db, actor, place, report);
  if (figures) return figures.parStatus;
  const { parStatus } = await readWidgets(db, { parStatus: parStatusWidget(db, actor, place) }, report);
  return parStatus.ok ? parStatus.data : null;
}
