// The balancing suggestions as /transfers shows them. Working them out reads every par level, the
// shelves' sealed vials and 90 days of usage of the organization (about 150 ms for the large chain,
// 60 ms for one of its locations: docs/performance.md), more than a page may spend on each view. So
// the jobs worker works out the organization's every minute (ADR 0030), the SUGGESTIONS_KEPT worth
// the most, and a reader is shown those with either end in their scope, the SUGGESTIONS_SHOWN worth
// the most. Without recent ones (no run yet, the worker stopped, a location opened), the page works
// them out itself. A suggestion a minute old may name a vial started since: making its draft then
// says which line cannot go, and nothing is written.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { organizationReaders } from "~/access/organization-readers.server";
import { ORGANIZATION } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { organizationOf, valueList } from "~/db/sql.server";
import { saveWorkedOut, workedOutOf, workedOutQuery } from "~/db/worked-out.server";
import type { BalancingSuggestion } from "./balance";
import { balancingSuggestions, SUGGESTIONS_SHOWN } from "./balance.server";

/** The organization's suggestions kept by each run, the most valuable first, for every reader's share. */
export const SUGGESTIONS_KEPT = 200;

/** A reader's share of the organization's suggestions: either end in scope, the most valuable first. */
function inScope(all: readonly BalancingSuggestion[], locationIds: readonly string[]): BalancingSuggestion[] {
  const scope = new Set(locationIds);
  return all.filter((s) => scope.has(s.fromLocationId) || scope.has(s.toLocationId)).slice(0, SUGGESTIONS_SHOWN);
}

/**
 * The statement of the page's batch that reads the organization's worked-out suggestions; `shownOf`
 * turns its rows into the reader's suggestions (working them out when there are none recent). Of
 * the body, only the suggestions with either end in the reader's scope come back, in their order
 * (what `inScope` keeps): a chain's 200 are 100 KB, carried and parsed on every view of a location's
 * transfers or purchase orders for the few that touch it. A body that is not JSON comes back as it
 * is (read as none, so worked out afresh).
 */
export function suggestionsQuery(db: Database, actor: ScopedActor) {
  // In organization mode the share is the whole: read as it is.
  if (actor.locationId === ORGANIZATION) return workedOutQuery(db, organizationOf(actor), "balancing_suggestions");
  const ids = locationsFor(actor, "READ_TRANSFERS").ids;
  const scope = valueList(ids.length > 0 ? ids : ["-"]);
  return db.all<{ computedAt: number; locationIds: string; body: string }>(sql`SELECT w.computed_at AS computedAt,
      w.location_ids AS locationIds,
      CASE WHEN json_valid(w.body) THEN json_object('suggestions', (SELECT json_group_array(json(s.value))
        FROM (SELECT e.value FROM json_each(w.body, '$.suggestions') AS e
          WHERE e.value ->> 'fromLocationId' IN (${scope}) OR e.value ->> 'toLocationId' IN (${scope})
          ORDER BY e.key) AS s)) ELSE w.body END AS body
    FROM worked_out AS w WHERE w.organization_id = ${organizationOf(actor)} AND w.kind = 'balancing_suggestions'`);
}

/** The suggestions a reader of transfers sees where they stand, and the instant they are of (null: now). */
export async function suggestionsShown(
  db: Database,
  actor: ScopedActor,
  rows: Awaited<ReturnType<typeof suggestionsQuery>>,
  now = new Date(),
): Promise<{ suggestions: BalancingSuggestion[]; asOf: number | null }> {
  const locationIds = locationsFor(actor, "READ_TRANSFERS").ids;
  if (locationIds.length === 0) return { suggestions: [], asOf: null };
  const found = workedOut(rows, now);
  // Worked out for every active location then: they stand in for any scope within those.
  if (found && locationIds.every((id) => found.locationIds.includes(id)))
    return { suggestions: inScope(found.suggestions, locationIds), asOf: found.computedAt };
  return { suggestions: await balancingSuggestions(db, actor, locationIds, now), asOf: null };
}

/** The organization's worked-out suggestions if recent enough, with the locations they were worked out for. */
function workedOut(rows: Awaited<ReturnType<typeof suggestionsQuery>>, now: Date) {
  const row = rows[0];
  if (!row) return null;
  const locationIds = row.locationIds.split(",");
  const found = workedOutOf(rows, now, locationIds);
  const suggestions = found?.body.suggestions;
  return found && Array.isArray(suggestions)
    ? { computedAt: found.computedAt, locationIds, suggestions: suggestions as BalancingSuggestion[] }
    : null;
}

/** Works out every organization's suggestions for all its active locations (the work cron). */
export async function workOutBalancingSuggestions(db: Database, now: Date): Promise<string> {
  const readers = await organizationReaders(db);
  for (const { organizationId, actor } of readers) {
    const locationIds = locationsFor(actor, "READ_TRANSFERS").ids;
    const suggestions = await balancingSuggestions(db, actor, locationIds, now, SUGGESTIONS_KEPT);
    await saveWorkedOut(db, {
      organizationId,
      kind: "balancing_suggestions",
      computedAt: now,
      locationIds,
      body: { suggestions },
    });
  }
  return `suggestions of ${readers.length} organization${readers.length === 1 ? "" : "s"}`;
}
