// Teaching the catalogue a manufacturer's GTIN met at receiving: an unknown GTIN scanned off a
// package is attached to a variation that has none yet (WRITE_PRODUCTS where the actor stands, as
// every catalogue change). The variation's version moves, so an edit form opened before is stale.
// A GTIN already on a variation, in any of its zero-padded forms, is refused.
import { sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { changeWithActivity } from "~/activity/change.server";
import { gtinCandidates, gtinProblem } from "~/catalog/gtin";
import { type Database, schema } from "~/db/client.server";
import { constraintFailed, organizationOf, valueList } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

export async function attachGtin(
  db: Database,
  actor: ScopedActor,
  input: { variationId: string; gtin: string },
): Promise<Outcome<{ label: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const gtin = input.gtin.replace(/\s+/g, "");
  const problem = gtinProblem(gtin);
  if (problem) return refuse("gtin_invalid", problem);

  const organization = organizationOf(actor);
  const found = sql`product_variations.id = ${input.variationId} AND product_variations.active = 1
    AND EXISTS (SELECT 1 FROM products AS p WHERE p.id = product_variations.product_id
      AND p.organization_id = ${organization} AND p.active = 1)`;
  const owner = sql`(SELECT p.name || ' — ' || v.name FROM product_variations AS v
    JOIN products AS p ON p.id = v.product_id
    WHERE v.gtin IN (${valueList(gtinCandidates(gtin))}) AND p.organization_id = ${organization} LIMIT 1)`;
  const guard = sql`${found} AND product_variations.gtin IS NULL AND ${owner} IS NULL`;
  const label = sql`(SELECT p.name FROM products AS p WHERE p.id = product_variations.product_id)
    || ' · ' || product_variations.name`;
  try {
    const { updated, current } = await changeWithActivity(db, {
      from: schema.productVariations,
      guard,
      activity: {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "update_variation",
        entity: "variation",
        entityId: input.variationId,
        summary: sql`json_object('productId', product_variations.product_id,
          'product', (SELECT p.name FROM products AS p WHERE p.id = product_variations.product_id),
          'name', product_variations.name, 'before', json_object('gtin', NULL), 'after', json_object('gtin', ${gtin}))`,
      },
      update: db.all<{ label: string }>(sql`UPDATE product_variations SET gtin = ${gtin}, version = version + 1,
        updated_at = ${Date.now()} WHERE ${guard} RETURNING ${label} AS label`),
      readBack: db.all<{ label: string; gtin: string | null; owner: string | null }>(sql`SELECT ${label} AS label,
        product_variations.gtin AS gtin, ${owner} AS owner FROM product_variations WHERE ${found}`),
    });
    const done = updated[0];
    if (done) return { ok: true, label: done.label };
    const row = current[0];
    if (!row) return refuse("variation_unavailable");
    if (row.gtin === gtin) return { ok: true, label: row.label };
    if (row.gtin !== null) {
      return refuse("variation_has_gtin", `${row.label} already has GTIN ${row.gtin}. Choose a variation without one.`);
    }
    return refuse("gtin_taken", `GTIN ${gtin} is already used by ${row.owner}.`);
  } catch (error) {
    // Another organization's catalogue may hold the very same GTIN (the index is global).
    if (constraintFailed(error, /product_variations\.gtin/))
      return refuse("gtin_taken", `GTIN ${gtin} is already used by another variation.`);
    throw error;
  }
}
