// What the jobs worker works out every minute for a whole organization, read where summing it on
// each view would cost more than a page may (ADR 0030): the dashboard's stock and waste figures in
// organization mode, the balancing suggestions. One row per organization and kind; a reader uses
// it while it is recent and of the same locations, and otherwise works the figures out itself.
import { type SQL, sql } from "drizzle-orm";
import type { WorkedOutKind } from "../../db/schema/jobs/worked-out";
import type { Database } from "./client.server";
import { schema } from "./client.server";
import { jsonObjectOf } from "./sql.server";

/** How long worked-out figures stand in for a reader's own (the work cron refreshes them every minute). */
export const WORKED_OUT_STANDS_FOR_MS = 3 * 60 * 1000;

/** One key for a set of locations, whatever their order. */
export function locationKey(ids: readonly string[]): string {
  return [...ids].sort().join(",");
}

/** The statement reading one kind of the organization's worked-out figures, for a reader's batch. */
export function workedOutQuery(db: Database, organization: SQL, kind: WorkedOutKind) {
  return db.all<{ computedAt: number; locationIds: string; body: string }>(
    sql`SELECT computed_at AS computedAt, location_ids AS locationIds, body
      FROM worked_out WHERE organization_id = ${organization} AND kind = ${kind}`,
  );
}

/**
 * The worked-out figures of `workedOutQuery`'s rows if they may stand in at `now` for figures of
 * `locationIds`: not older than WORKED_OUT_STANDS_FOR_MS, not from the future (a clock put back),
 * of the same locations; else null.
 */
export function workedOutOf(
  rows: readonly { computedAt: number; locationIds: string; body: string }[] | undefined,
  now: Date,
  locationIds: readonly string[],
): { computedAt: number; body: Record<string, unknown> } | null {
  const row = rows?.[0];
  if (!row) return null;
  const computedAt = Number(row.computedAt);
  const at = now.getTime();
  if (computedAt > at || at - computedAt > WORKED_OUT_STANDS_FOR_MS) return null;
  if (row.locationIds !== locationKey(locationIds)) return null;
  const body = jsonObjectOf(row.body);
  return body ? { computedAt, body } : null;
}

/**
 * Like workedOutOf, for a reader of one location's part of figures worked out for a set of
 * locations: recent, and of a set that holds `locationId` (the part itself is the reader's to find).
 */
export function workedOutHolding(
  rows: readonly { computedAt: number; locationIds: string; body: string }[] | undefined,
  now: Date,
  locationId: string,
): { computedAt: number; body: Record<string, unknown> } | null {
  const held = rows?.[0]?.locationIds.split(",") ?? [];
  return held.includes(locationId) ? workedOutOf(rows, now, held) : null;
}

/** Writes one kind of an organization's figures; a slower run of an earlier minute never overwrites a later one's. */
export function saveWorkedOut(
  db: Database,
  row: { organizationId: string; kind: WorkedOutKind; computedAt: Date; locationIds: readonly string[]; body: object },
) {
  const values = {
    organizationId: row.organizationId,
    kind: row.kind,
    computedAt: row.computedAt,
    locationIds: locationKey(row.locationIds),
    body: JSON.stringify(row.body),
  };
  return db
    .insert(schema.workedOut)
    .values(values)
    .onConflictDoUpdate({
      target: [schema.workedOut.organizationId, schema.workedOut.kind],
      set: values,
      setWhere: sql`${schema.workedOut.computedAt} <= excluded.computed_at`,
    });
}
