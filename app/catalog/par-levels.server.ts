// Writing one par level row. Every write, from the bulk page (app/par-levels) or the product page
// (app/products), is parLevelWrite: its set_par_level / clear_par_level activity row (only when the
// row really changes) and then the upsert or delete, guarded in SQL, for the caller's one batch.
// Both screens write it, so it lives with the catalogue the par_levels table belongs to.
import { sql } from "drizzle-orm";
import { logActivityWhere } from "~/activity/log.server";
import type { Levels } from "~/catalog/par-level";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";

const FROM = sql`FROM product_variations AS v JOIN products AS p ON p.id = v.product_id, locations AS l`;

/** One par level row: a variation (of this product, when given) at a location. */
export interface ParPlace {
  locationId: string;
  variationId: string;
  productId?: string;
}

/** The row's variation (v, p) and location (l), both in the actor's organization, the location active. */
function placeOf(actor: { id: string }, place: ParPlace) {
  const organization = organizationOf(actor);
  const ofProduct = place.productId === undefined ? sql`` : sql`AND v.product_id = ${place.productId}`;
  const variation = sql`v.id = ${place.variationId} AND p.organization_id = ${organization} ${ofProduct}`;
  const location = sql`l.id = ${place.locationId} AND l.organization_id = ${organization} AND l.active = 1`;
  return { variation, location, both: sql`${variation} AND ${location}` };
}

/**
 * The one par level write, as the two statements of a batch: the activity row, then the upsert
 * (or, for `levels` null, the delete). The write returns one row exactly when it changed the row.
 * An upsert whose variation or location is not there (another organization's, another product's,
 * archived) writes a NULL id: the NOT NULL constraint rolls the whole batch back (`writeRefused`).
 */
export function parLevelWrite(db: Database, actor: { id: string }, place: ParPlace, levels: Levels | null) {
  const where = placeOf(actor, place);
  const activity = { userId: actor.id, locationId: place.locationId, entity: "variation", entityId: place.variationId };
  const row = sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'location', l.code`;

  if (levels === null) {
    const existing = sql`${FROM}, par_levels AS pl WHERE ${where.both} AND pl.location_id = l.id AND pl.variation_id = v.id`;
    return [
      logActivityWhere(
        db,
        {
          ...activity,
          action: "clear_par_level",
          summary: sql`${row}, 'before', json_object('par', pl.par, 'reorderPoint', pl.reorder_point, 'max', pl.max),
            'after', NULL)`,
        },
        existing,
      ),
      db.all<{ variationId: string }>(sql`DELETE FROM par_levels WHERE (location_id, variation_id) IN
        (SELECT pl.location_id, pl.variation_id ${existing}) RETURNING variation_id AS variationId`),
    ] as const;
  }

  const { par, reorderPoint, max } = levels;
  const unchanged = sql`EXISTS (SELECT 1 FROM par_levels AS pl WHERE pl.location_id = l.id AND pl.variation_id = v.id
    AND pl.par = ${par} AND pl.reorder_point = ${reorderPoint} AND pl.max IS ${max})`;
  const before = sql`(SELECT json_object('par', par, 'reorderPoint', reorder_point, 'max', max) FROM par_levels AS pl
    WHERE pl.location_id = l.id AND pl.variation_id = v.id)`;
  return [
    logActivityWhere(
      db,
      {
        ...activity,
        action: "set_par_level",
        summary: sql`${row}, 'before', json(${before}), 'after', json(${JSON.stringify({ par, reorderPoint, max })}))`,
      },
      sql`${FROM} WHERE ${where.both} AND NOT ${unchanged}`,
    ),
    db.all<{
      variationId: string;
    }>(sql`INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at)
      VALUES (
        (SELECT l.id FROM locations AS l WHERE ${where.location}),
        (SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE ${where.variation}),
        ${par}, ${reorderPoint}, ${max}, ${Date.now()})
      ON CONFLICT (location_id, variation_id) DO UPDATE SET par = excluded.par,
        reorder_point = excluded.reorder_point, max = excluded.max, updated_at = excluded.updated_at
      WHERE par IS NOT excluded.par OR reorder_point IS NOT excluded.reorder_point OR max IS NOT excluded.max
      RETURNING variation_id AS variationId`),
  ] as const;
}

/** The names of a par level row's variation and location, or no row when either is not there. */
export function parPlaceNames(db: Database, actor: { id: string }, place: ParPlace) {
  return db.all<{ location: string; variation: string }>(
    sql`SELECT l.name AS location, v.name AS variation ${FROM} WHERE ${placeOf(actor, place).both}`,
  );
}

/** Which part of a par level write's place was missing, when its batch failed for that. */
export function writeRefused(error: unknown): "location_unavailable" | "variation_not_found" | null {
  if (constraintFailed(error, /par_levels\.location_id/)) return "location_unavailable";
  if (constraintFailed(error, /par_levels\.variation_id/)) return "variation_not_found";
  return null;
}
