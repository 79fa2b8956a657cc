// Saving the bulk par level page: every changed row of one location in ONE batch, each with its
// par_level_set / par_level_clear activity row (as the product page's single-row verbs write
// them). Needs WRITE_PRODUCTS at THAT location. All or nothing: a row naming a variation outside
// the organization, or an archived location, makes a NOT NULL constraint roll the whole batch back.
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Actor } from "~/access/actor";
import { can } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { ParChange } from "./forms";
import { type Outcome, refuse } from "./outcome";

const FROM = sql`FROM product_variations AS v JOIN products AS p ON p.id = v.product_id, locations AS l`;

export async function saveParLevels(
  db: Database,
  actor: Actor,
  input: { locationId: string; changes: readonly ParChange[] },
): Promise<Outcome<{ set: number; cleared: number }>> {
  const { locationId, changes } = input;
  if (!can(actor, "WRITE_PRODUCTS", locationId)) return refuse("forbidden");
  if (changes.length === 0) return { ok: true, set: 0, cleared: 0 };
  const organization = organizationOf(actor);
  const now = Date.now();

  // Each change is its activity row (written only if the row really changes) and then the change.
  const statements: BatchItem<"sqlite">[] = [];
  /** Which statements are the writes, and what they do; their RETURNING rows count what was done. */
  const writes = new Map<number, "set" | "cleared">();
  for (const { variationId, levels } of changes) {
    const target = sql`v.id = ${variationId} AND p.organization_id = ${organization}
      AND l.id = ${locationId} AND l.organization_id = ${organization} AND l.active = 1`;
    const activity = {
      userId: actor.id,
      locationId,
      entity: "variation",
      entityId: variationId,
    } as const;
    if (levels === null) {
      const existing = sql`${FROM}, par_levels AS pl WHERE ${target} AND pl.location_id = l.id AND pl.variation_id = v.id`;
      statements.push(
        logActivityWhere(
          db,
          {
            ...activity,
            action: "par_level_clear",
            summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'location', l.code,
              'before', json_object('par', pl.par, 'reorderPoint', pl.reorder_point, 'max', pl.max), 'after', NULL)`,
          },
          existing,
        ),
      );
      writes.set(statements.length, "cleared");
      statements.push(
        db.all(sql`DELETE FROM par_levels WHERE (location_id, variation_id) IN
          (SELECT pl.location_id, pl.variation_id ${existing}) RETURNING variation_id`),
      );
      continue;
    }
    const { par, reorderPoint, max } = levels;
    const unchanged = sql`EXISTS (SELECT 1 FROM par_levels AS pl WHERE pl.location_id = l.id
      AND pl.variation_id = v.id AND pl.par = ${par} AND pl.reorder_point = ${reorderPoint} AND pl.max IS ${max})`;
    const before = sql`(SELECT json_object('par', par, 'reorderPoint', reorder_point, 'max', max) FROM par_levels AS pl
      WHERE pl.location_id = l.id AND pl.variation_id = v.id)`;
    statements.push(
      logActivityWhere(
        db,
        {
          ...activity,
          action: "par_level_set",
          summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'location', l.code,
            'before', json(${before}), 'after', json(${JSON.stringify({ par, reorderPoint, max })}))`,
        },
        sql`${FROM} WHERE ${target} AND NOT ${unchanged}`,
      ),
    );
    writes.set(statements.length, "set");
    statements.push(
      // A variation or location that is not there makes its id NULL: the NOT NULL constraint then
      // rolls the whole batch back, so no row of the page is saved.
      db.all(sql`INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at)
        VALUES (
          (SELECT id FROM locations WHERE id = ${locationId} AND organization_id = ${organization} AND active = 1),
          (SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
            WHERE v.id = ${variationId} AND p.organization_id = ${organization}),
          ${par}, ${reorderPoint}, ${max}, ${now})
        ON CONFLICT (location_id, variation_id) DO UPDATE SET par = excluded.par,
          reorder_point = excluded.reorder_point, max = excluded.max, updated_at = excluded.updated_at
        WHERE par IS NOT excluded.par OR reorder_point IS NOT excluded.reorder_point OR max IS NOT excluded.max
        RETURNING variation_id`),
    );
  }

  // Last, in the same transaction: whether the location is there (every write above needs it).
  const located = statements.length;
  statements.push(
    db.all(sql`SELECT id FROM locations WHERE id = ${locationId} AND organization_id = ${organization} AND active = 1`),
  );

  try {
    const results: unknown[] = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    const location = results[located];
    if (!Array.isArray(location) || location.length === 0) return refuse("location_unavailable");
    const done = { set: 0, cleared: 0 };
    for (const [index, kind] of writes) {
      const rows = results[index];
      if (Array.isArray(rows)) done[kind] += rows.length;
    }
    return { ok: true, ...done };
  } catch (error) {
    if (constraintFailed(error, /par_levels\.location_id/)) return refuse("location_unavailable");
    if (constraintFailed(error, /par_levels\.variation_id/)) return refuse("variation_not_found");
    throw error;
  }
}
