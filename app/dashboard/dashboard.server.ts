// What the dashboard (/) and its three APIs read, composed from the widgets' own modules: the same
// statements and the same readers, so a figure on the page and in the API is one number. Where: the
// locations the reader reaches for READ_INVENTORY (the location in scope, or every location in
// organization mode, app/access/scope.server.ts). When: `now`, judged once per request.
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { recentActivityQueries } from "./activity.server";
import { backupLineOf, backupQueries } from "./backups.server";
import { inUseOf, inUseQueries } from "./in-use.server";
import { type WasteMonths, wasteMonths } from "./month";
import { parStatusOf, parStatusQueries } from "./par-status.server";
import { readWidgets, type Widget, widget } from "./read.server";
import { type StockStats, statsOf, statsQueries } from "./stats.server";
import { type Waste, wasteByReasonQueries, wasteOf, wasteQueries } from "./waste.server";

export interface DashboardPlace {
  locationIds: readonly string[];
  /** The zone the months are counted in (the location's; UTC in organization mode). */
  timeZone: string;
  months: WasteMonths;
  now: Date;
}

export function placeOf(actor: ScopedActor, now = new Date()): DashboardPlace {
  const timeZone = timeZoneHere(actor);
  return { locationIds: locationsFor(actor, "READ_INVENTORY").ids, timeZone, months: wasteMonths(now, timeZone), now };
}

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

/** GET /api/dashboard/stats: the stock figures and this month's waste, {units, cents}. */
export interface StatsAnswer extends StockStats {
  wasteThisMonth: { units: number; cents: number };
}

/**
 * The stats API's reads: the stock figures and the waste, one batch. Null when a statement failed
 * (the API then answers its error; the page shows the section error).
 */
export async function readStats(db: Database, actor: ScopedActor, place: DashboardPlace, report: (e: unknown) => void) {
  // This month's waste is the page's waste widget's total, read by the same statement (its by-reason
  // one; the products that waste the most are the page's alone).
  const byReason = widget(wasteByReasonQueries(db, place.locationIds, place.months), (results) =>
    wasteOf(results, place.months),
  );
  const { stats, waste } = await readWidgets(db, { stats: statsWidget(db, actor, place), waste: byReason }, report);
  if (!stats.ok || !waste.ok) return null;
  const { units, cents } = waste.data.thisMonth;
  return { ...stats.data, wasteThisMonth: { units, cents } } satisfies StatsAnswer;
}

/** What the reader may see on the dashboard besides the stock (each needs its own permission where they stand). */
export interface DashboardAccess {
  activity: boolean;
  backups: boolean;
}

/** The dashboard page: every widget the reader may see, one round trip (see ./read.server.ts). */
export function dashboardScreen(
  db: Database,
  actor: ScopedActor,
  place: DashboardPlace,
  access: DashboardAccess,
  report: (e: unknown) => void,
) {
  return readWidgets(
    db,
    {
      stats: statsWidget(db, actor, place),
      waste: wasteWidget(db, place),
      parStatus: parStatusWidget(db, actor, place),
      inUse: inUseWidget(db, place),
      activity: access.activity ? activityWidget(db, actor) : null,
      backups: access.backups ? backupsWidget(db, actor) : null,
    },
    report,
  );
}
