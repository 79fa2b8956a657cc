// Accepting par levels suggested from usage (issue 23.4): the accepted rows of one location in ONE
// batch, each written as the bulk page writes a par level (parLevelWrite: its set_par_level row,
// only when it changes, then the upsert), and one apply_par_suggestions row for the whole
// acceptance (entity location: how many, where, over how many days). Both: each variation's history
// keeps every change to its level whatever screen made it, and the log says once that these came
// from usage rather than from typing. WRITE_PRODUCTS at the location, as the bulk page's save.
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Actor } from "~/access/actor";
import { can } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Levels } from "~/catalog/par-level";
import { parLevelWrite, writeRefused } from "~/catalog/par-levels.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

export async function applyParSuggestions(
  db: Database,
  actor: Actor,
  input: { locationId: string; days: number; changes: readonly { variationId: string; levels: Levels }[] },
): Promise<Outcome<{ set: number }>> {
  const { locationId, changes } = input;
  if (!can(actor, "WRITE_PRODUCTS", locationId)) return refuse("forbidden");
  if (changes.length === 0) return { ok: true, set: 0 };
  const location: SQL = sql`FROM locations AS l WHERE l.id = ${locationId}
    AND l.organization_id = ${organizationOf(actor)} AND l.active = 1`;
  const statements: BatchItem<"sqlite">[] = [
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId,
        action: "apply_par_suggestions",
        entity: "location",
        entityId: locationId,
        summary: sql`json_object('count', ${changes.length}, 'location', l.code, 'days', ${input.days})`,
      },
      location,
    ),
  ];
  const writes: number[] = [];
  for (const { variationId, levels } of changes) {
    const [activity, write] = parLevelWrite(db, actor, { locationId, variationId }, levels);
    statements.push(activity);
    writes.push(statements.length);
    statements.push(write);
  }
  const located = statements.length;
  statements.push(db.all(sql`SELECT l.id ${location}`));
  try {
    const results: unknown[] = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    const found = results[located];
    // An archived or unknown location: the batch wrote a NULL location and rolled back, or found none.
    if (!Array.isArray(found) || found.length === 0) return refuse("location_unavailable");
    const set = writes.reduce((n, i) => n + (Array.isArray(results[i]) ? (results[i] as unknown[]).length : 0), 0);
    return { ok: true, set };
  } catch (error) {
    const refusal = writeRefused(error);
    if (refusal) return refuse(refusal);
    throw error;
  }
}
