// The organization's stock and waste figures, worked out by the jobs worker every minute and read
// by the dashboard (and GET /api/dashboard/stats) in organization mode. A chain's figures sum every
// shelf vial, every bulk level and two months of waste movements of every location: on the large
// data set 30,683 vials, 15,488 levels and about 14,000 movements, 2.7 million SQLite steps, more
// than a page may spend on each view. No exact summary kept beside the ledger would sum much less:
// the vials spread over 19,550 location × variation × date × cost groups and a month's waste over
// 4,466 location × variation pairs, and "expired" and "expiring soon" move with the clock. So the
// organization's view shows the figures as of the last minute, and says so; a location's view
// (what the cart works from) still sums its own stock on every view.
//
// The figures are the same statements and readers as the live ones (./stats.server.ts,
// ./waste.server.ts) run for the organization's locations as its admins reach them; they stand in
// for the live sums while they are recent, of the same locations and of the same month. Otherwise
// (no run yet, the worker stopped, a location added) the page sums them itself, as before.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { ORGANIZATION } from "~/access/permissions";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { jsonObjectOf, organizationOf } from "~/db/sql.server";
import { type DashboardPlace, placeOf } from "./place.server";
import { type StockStats, statsOf, statsQueries } from "./stats.server";
import { type Waste, wasteOf, wasteQueries } from "./waste.server";

/** How long worked-out figures stand in for the live sums (the worker refreshes them every minute). */
export const FIGURES_STAND_FOR_MS = 3 * 60 * 1000;

/** The figures as the organization's view reads them, with the instant they are true of. */
export interface OrganizationFigures {
  computedAt: number;
  stats: StockStats;
  waste: Waste;
}

/** One key for a set of locations, whatever their order. */
function locationKey(ids: readonly string[]): string {
  return [...ids].sort().join(",");
}

/** The statement reading the organization's worked-out figures, for the page's batch. */
export function figuresQuery(db: Database, actor: ScopedActor) {
  return db.all<{ computedAt: number; locationIds: string; stats: string; waste: string }>(
    sql`SELECT computed_at AS computedAt, location_ids AS locationIds, stats, waste
      FROM organization_figures WHERE organization_id = ${organizationOf(actor)}`,
  );
}

/** The worked-out figures if they may stand in for the live sums at `place`, else null. */
export function figuresOf(results: readonly unknown[], place: DashboardPlace): OrganizationFigures | null {
  const [rows] = results as [Awaited<ReturnType<typeof figuresQuery>>];
  const row = rows?.[0];
  if (!row) return null;
  const computedAt = Number(row.computedAt);
  const now = place.now.getTime();
  // From the future (a clock put back) or too old: not these.
  if (computedAt > now || now - computedAt > FIGURES_STAND_FOR_MS) return null;
  if (row.locationIds !== locationKey(place.locationIds)) return null;
  const stats = jsonObjectOf(row.stats) as StockStats | null;
  const waste = jsonObjectOf(row.waste) as Waste | null;
  // A month that turned since: this month's waste is another month's.
  if (!stats || !waste || waste.months?.thisMonthStart !== place.months.thisMonthStart) return null;
  // Worked out before the figures had transfers: not these (the next minute's will).
  if (typeof stats.inTransitToHere !== "number" || typeof stats.openDiscrepancies !== "number") return null;
  return { computedAt, stats, waste };
}

/**
 * Works out every organization's figures as its admins would see them in organization mode at
 * `now`, one organization at a time (one batch of reads, one write each). Answers what it did, for
 * the job's record.
 */
export async function workOutOrganizationFigures(db: Database, now: Date): Promise<string> {
  const organizations = await db.all<{ organizationId: string; adminId: string | null; locationIds: string | null }>(
    sql`SELECT o.id AS organizationId,
        (SELECT u.id FROM users AS u WHERE u.organization_id = o.id AND u.organization_role = 'ORGANIZATION_ADMIN'
          ORDER BY u.id LIMIT 1) AS adminId,
        (SELECT group_concat(l.id) FROM locations AS l WHERE l.organization_id = o.id AND l.active = 1) AS locationIds
      FROM organizations AS o`,
  );
  let done = 0;
  for (const { organizationId, adminId, locationIds } of organizations) {
    if (!adminId || !locationIds) continue;
    // An organization admin in organization mode reaches every active location (as the session reads them).
    const actor: ScopedActor = {
      id: adminId,
      organizationRole: "ORGANIZATION_ADMIN",
      locationId: ORGANIZATION,
      locationRoles: locationIds.split(",").map((locationId) => ({ locationId, role: "ADMIN" as const })),
    };
    const place = placeOf(actor, now);
    const stats = statsQueries(db, actor, place.locationIds, now);
    const waste = wasteQueries(db, place.locationIds, place.months);
    const results = (await db.batch([...stats, ...waste])) as unknown[];
    const row = {
      organizationId,
      computedAt: now,
      locationIds: locationKey(place.locationIds),
      stats: JSON.stringify(statsOf(results.slice(0, stats.length))),
      waste: JSON.stringify(wasteOf(results.slice(stats.length), place.months)),
    };
    await db
      .insert(schema.organizationFigures)
      .values(row)
      .onConflictDoUpdate({
        target: schema.organizationFigures.organizationId,
        set: row,
        // A slower run of an earlier minute never overwrites a later one's figures.
        setWhere: sql`${schema.organizationFigures.computedAt} <= excluded.computed_at`,
      });
    done += 1;
  }
  return `figures of ${done} organization${done === 1 ? "" : "s"}`;
}
