// Par levels: how many packages of a variation a location wants on the shelf. Setting or clearing
// one needs WRITE_PRODUCTS at THAT location (a manager at Westside edits Westside's rows only;
// organization admins any). The row rules are app/catalog/par-level.ts and the table's CHECK.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { can } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { ParLevelInput } from "~/catalog/par-level";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

/** The variation of this product in the actor's organization, and an active location of it. */
function target(actor: ScopedActor, input: { productId: string; variationId: string; locationId: string }) {
  const organization = organizationOf(actor);
  return sql`v.id = ${input.variationId} AND v.product_id = ${input.productId} AND p.organization_id = ${organization}
    AND l.id = ${input.locationId} AND l.organization_id = ${organization} AND l.active = 1`;
}

const FROM = sql`FROM product_variations AS v JOIN products AS p ON p.id = v.product_id, locations AS l`;

const existing = (input: { variationId: string; locationId: string }) =>
  sql`(SELECT json_object('par', par, 'reorderPoint', reorder_point, 'max', max) FROM par_levels AS pl
    WHERE pl.location_id = ${input.locationId} AND pl.variation_id = ${input.variationId})`;

export async function setParLevel(
  db: Database,
  actor: ScopedActor,
  input: ParLevelInput & { productId: string },
): Promise<Outcome<{ changed: boolean; location: string; variation: string }>> {
  if (!can(actor, "WRITE_PRODUCTS", input.locationId)) return refuse("forbidden");
  const max = input.max ?? null;
  const after = { par: input.par, reorderPoint: input.reorderPoint, max };
  const where = target(actor, input);
  // Logged only when the row is new or different, in the same transaction as the upsert.
  const unchanged = sql`EXISTS (SELECT 1 FROM par_levels AS pl WHERE pl.location_id = l.id AND pl.variation_id = v.id
    AND pl.par = ${input.par} AND pl.reorder_point = ${input.reorderPoint} AND pl.max IS ${max})`;
  const [, written, found] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "par_level_set",
        entity: "variation",
        entityId: input.variationId,
        summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'location', l.code,
          'before', json(${existing(input)}), 'after', json(${JSON.stringify(after)}))`,
      },
      sql`${FROM} WHERE ${where} AND NOT ${unchanged}`,
    ),
    db.all<{
      locationId: string;
    }>(sql`INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at)
      SELECT l.id, v.id, ${input.par}, ${input.reorderPoint}, ${max}, ${Date.now()} ${FROM} WHERE ${where}
      ON CONFLICT (location_id, variation_id) DO UPDATE SET par = excluded.par, reorder_point = excluded.reorder_point,
        max = excluded.max, updated_at = excluded.updated_at
      WHERE par IS NOT excluded.par OR reorder_point IS NOT excluded.reorder_point OR max IS NOT excluded.max
      RETURNING location_id AS locationId`),
    db.all<{ location: string; variation: string }>(sql`SELECT l.name AS location, v.name AS variation
      ${FROM} WHERE ${where}`),
  ]);
  const names = found[0];
  if (!names) return refuse("not_found", "That variation or location is not available: reload the page.");
  return { ok: true, changed: written.length === 1, ...names };
}

export async function clearParLevel(
  db: Database,
  actor: ScopedActor,
  input: { productId: string; variationId: string; locationId: string },
): Promise<Outcome<{ location: string; variation: string }>> {
  if (!can(actor, "WRITE_PRODUCTS", input.locationId)) return refuse("forbidden");
  const where = sql`${target(actor, input)} AND pl.location_id = l.id AND pl.variation_id = v.id`;
  const from = sql`${FROM}, par_levels AS pl`;
  const [, removed, found] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "par_level_clear",
        entity: "variation",
        entityId: input.variationId,
        summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'location', l.code,
          'before', json_object('par', pl.par, 'reorderPoint', pl.reorder_point, 'max', pl.max), 'after', NULL)`,
      },
      sql`${from} WHERE ${where}`,
    ),
    db.all<{ locationId: string }>(sql`DELETE FROM par_levels WHERE (location_id, variation_id) IN
      (SELECT pl.location_id, pl.variation_id ${from} WHERE ${where}) RETURNING location_id AS locationId`),
    db.all<{ location: string; variation: string }>(sql`SELECT l.name AS location, v.name AS variation
      ${FROM} WHERE ${target(actor, input)}`),
  ]);
  const names = found[0];
  if (!names) return refuse("not_found", "That variation or location is not available: reload the page.");
  if (removed.length !== 1) return refuse("no_par_level");
  return { ok: true, ...names };
}
