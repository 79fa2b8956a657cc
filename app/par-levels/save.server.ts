// Saving the bulk par level page: every changed row of one location in one batch, each row
// written by the catalogue's parLevelWrite (app/catalog/par-levels.server.ts).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Actor } from "~/access/actor";
import { can } from "~/access/permissions";
import { parLevelWrite, writeRefused } from "~/catalog/par-levels.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { ParChange } from "./forms";
import { type Outcome, refuse } from "./outcome";

/**
 * Saves the bulk par level page: every changed row of one location in ONE batch. Needs
 * WRITE_PRODUCTS at THAT location. All or nothing: a row naming a variation outside the
 * organization, or an archived location, rolls the whole batch back.
 */
export async function saveParLevels(
  db: Database,
  actor: Actor,
  input: { locationId: string; changes: readonly ParChange[] },
): Promise<Outcome<{ set: number; cleared: number }>> {
  const { locationId, changes } = input;
  if (!can(actor, "WRITE_PRODUCTS", locationId)) return refuse("forbidden");
  if (changes.length === 0) return { ok: true, set: 0, cleared: 0 };

  const statements: BatchItem<"sqlite">[] = [];
  /** Which statements are the writes, and what they do; their RETURNING rows count what was done. */
  const writes = new Map<number, "set" | "cleared">();
  for (const { variationId, levels } of changes) {
    const [activity, write] = parLevelWrite(db, actor, { locationId, variationId }, levels);
    statements.push(activity);
    writes.set(statements.length, levels === null ? "cleared" : "set");
    statements.push(write);
  }
  // Last, in the same transaction: whether the location is there (a clear alone would not tell).
  const located = statements.length;
  const location: SQL = sql`SELECT id FROM locations WHERE id = ${locationId}
    AND organization_id = ${organizationOf(actor)} AND active = 1`;
  statements.push(db.all(location));

  try {
    const results: unknown[] = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    const found = results[located];
    if (!Array.isArray(found) || found.length === 0) return refuse("location_unavailable");
    const done = { set: 0, cleared: 0 };
    for (const [index, kind] of writes) {
      const rows = results[index];
      if (Array.isArray(rows)) done[kind] += rows.length;
    }
    return { ok: true, ...done };
  } catch (error) {
    const refusal = writeRefused(error);
    if (refusal) return refuse(refusal);
    throw error;
  }
}
