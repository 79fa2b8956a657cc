// The organization's stock and waste figures, worked out by the jobs worker every minute and read
// by the dashboard (and GET /api/dashboard/stats) in organization mode. A chain's figures sum every
// shelf vial, every bulk level and two months of waste movements of every location: on the large
// data set 30,683 vials, 15,488 levels and about 14,000 movements, 2.7 million SQLite steps, more
// than a page may spend on each view. No exact summary kept beside the ledger would sum much less:
// the vials spread over 19,550 location × variation × date × cost groups and a month's waste over
// 4,466 location × variation pairs, and "expired" and "expiring soon" move with the clock. So the
// organization's view shows the figures as of the last minute, and says so. A location's own
// figures (3,700 shelf vials, 6,000 levels and its par levels at the large chain's busiest: half a
// million steps a view) are worked out in the same run, each as its location's readers see them
// (its time zone's months), and its view reads its part the same way.
//
// The figures are the same statements and readers as the live ones (./stats.server.ts,
// ./waste.server.ts) run for the organization's locations as its admins reach them; they stand in
// for the live sums while they are recent, of the same locations and of the same month. Otherwise
// (no run yet, the worker stopped, a location added) the page sums them itself, as before.
import type { ScopedActor } from "~/access/actor";
import { organizationReaders } from "~/access/organization-readers.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import {
  saveWorkedOut,
  WORKED_OUT_STANDS_FOR_MS,
  workedOutHolding,
  workedOutOf,
  workedOutQuery,
} from "~/db/worked-out.server";
import { type ParStatus, parStatusOf, parStatusQueries } from "./par-status.server";
import { type DashboardPlace, placeOf } from "./place.server";
import { type StockStats, statsOf, statsQueries } from "./stats.server";
import { type Waste, wasteOf, wasteQueries } from "./waste.server";

/** How long worked-out figures stand in for the live sums (the worker refreshes them every minute). */
export const FIGURES_STAND_FOR_MS = WORKED_OUT_STANDS_FOR_MS;

/** The figures as the organization's view (or a location's) reads them, with the instant they are true of. */
export interface OrganizationFigures {
  computedAt: number;
  stats: StockStats;
  waste: Waste;
  /** The par status too: led by every par level of the chain (2,567 on the large set), a million steps a view. */
  parStatus: ParStatus;
}

/** What is worked out for one place: the whole organization, or one location. */
type PlaceFigures = Omit<OrganizationFigures, "computedAt">;

/** The statement reading the organization's worked-out figures, for the page's batch. */
export function figuresQuery(db: Database, actor: ScopedActor) {
  return workedOutQuery(db, organizationOf(actor), "dashboard_figures");
}

/**
 * The worked-out figures if they may stand in for the live sums at `place` (the organization's
 * for organization mode, the location's part for one location), else null.
 */
export function figuresOf(results: readonly unknown[], place: DashboardPlace): OrganizationFigures | null {
  const [rows] = results as [Awaited<ReturnType<typeof figuresQuery>>];
  const [here] = place.locationIds;
  const found = place.organization
    ? workedOutOf(rows, place.now, place.locationIds)
    : place.locationIds.length === 1 && here
      ? workedOutHolding(rows, place.now, here)
      : null;
  if (!found) return null;
  const part = (place.organization ? found.body : (found.body.locations as Record<string, unknown>)?.[here ?? ""]) as
    | Partial<PlaceFigures>
    | undefined;
  const { stats, waste, parStatus } = part ?? {};
  // A month that turned since: this month's waste is another month's.
  if (!stats || !waste || !parStatus || waste.months?.thisMonthStart !== place.months.thisMonthStart) return null;
  // Worked out before the figures had transfers: not these (the next minute's will).
  if (typeof stats.inTransitToHere !== "number" || typeof stats.openDiscrepancies !== "number") return null;
  return { computedAt: found.computedAt, stats, waste, parStatus };
}

/** The statements that sum the figures of `place`, for a batch, and how to read their results. */
function figureQueries(db: Database, actor: ScopedActor, place: DashboardPlace) {
  const stats = statsQueries(db, actor, place.locationIds, place.now);
  const waste = wasteQueries(db, place.locationIds, place.months);
  const par = parStatusQueries(db, actor, place.locationIds, place.now);
  const wasteEnd = stats.length + waste.length;
  return {
    statements: [...stats, ...waste, ...par],
    figuresOf: (results: readonly unknown[]): PlaceFigures => ({
      stats: statsOf(results.slice(0, stats.length)),
      waste: wasteOf(results.slice(stats.length, wasteEnd), place.months),
      parStatus: parStatusOf(results.slice(wasteEnd)),
    }),
  };
}

/**
 * Works out every organization's figures as its admins would see them in organization mode at
 * `now`, and each of its locations' as seen there, one organization at a time (one batch of reads,
 * one write). Answers what it did, for the job's record.
 */
export async function workOutOrganizationFigures(db: Database, now: Date): Promise<string> {
  const readers = await organizationReaders(db);
  let places = 0;
  for (const { organizationId, actor } of readers) {
    const place = placeOf(actor, now);
    // The organization's and each location's, read in one batch.
    const reads = [place, ...place.locationIds.map((locationId) => placeOf({ ...actor, locationId }, now))].map((p) =>
      figureQueries(db, actor, p),
    );
    const results = (await db.batch(reads.flatMap((r) => r.statements) as never)) as unknown[];
    let at = 0;
    const [whole, ...each] = reads.map((r) => {
      const figures = r.figuresOf(results.slice(at, at + r.statements.length));
      at += r.statements.length;
      return figures;
    });
    const locations = Object.fromEntries(place.locationIds.map((id, i) => [id, each[i]]));
    places += 1 + place.locationIds.length;
    await saveWorkedOut(db, {
      organizationId,
      kind: "dashboard_figures",
      computedAt: now,
      locationIds: place.locationIds,
      body: { ...whole, locations },
    });
  }
  return `figures of ${readers.length} organization${readers.length === 1 ? "" : "s"} (${places} places)`;
}
