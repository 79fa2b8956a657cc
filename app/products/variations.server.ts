// A product's variations (the stocked forms, e.g. "100 U vial"): add, edit under optimistic
// concurrency like the product, archive and restore. GTINs are unique across the catalogue and a
// name is unique within its product; both are unique indexes, and a clash names its owner. Units
// per package cannot change while the variation has stock or open receipt lines (a trigger
// refuses it, ADR 0013): history was counted with them.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { activeChange, changedFields, changeWithActivity } from "~/activity/change.server";
import { type ActivityAction, logActivityWhere } from "~/activity/log.server";
import { type Database, schema } from "~/db/client.server";
import { constraintFailed, organizationOf, raisedBy } from "~/db/sql.server";
import type { VariationEditInput, VariationInput } from "./forms";
import { type Outcome, type ProductRefused, refuse } from "./outcome";

const V = sql.identifier("product_variations");

/** The fields the edit form sets, as the activity summary names and orders them. */
const FIELDS = ["name", "sku", "gtin", "unitsPerPackage", "costCents"] as const;

function variationValues(input: VariationInput) {
  return {
    name: input.name,
    sku: input.sku,
    gtin: input.gtin,
    unitsPerPackage: input.unitsPerPackage,
    costCents: input.costCents,
  };
}

/** "GTIN 00012345600012 is already used by Botox — 100 U vial." (one more read, on refusal only). */
async function gtinTaken(db: Database, actor: ScopedActor, gtin: string | null): Promise<ProductRefused> {
  const [owner] = await db.all<{ product: string; variation: string }>(sql`SELECT p.name AS product,
      v.name AS variation FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE v.gtin = ${gtin} AND p.organization_id = ${organizationOf(actor)}`);
  return refuse(
    "gtin_taken",
    owner
      ? `GTIN ${gtin} is already used by ${owner.product} — ${owner.variation}.`
      : `GTIN ${gtin} is already used by another variation.`,
  );
}

/** A failed unique index, as the refusal the form shows; null for anything else. */
async function clash(
  db: Database,
  actor: ScopedActor,
  error: unknown,
  values: { name: string; gtin: string | null },
): Promise<ProductRefused | null> {
  if (constraintFailed(error, /product_variations\.gtin/)) return gtinTaken(db, actor, values.gtin);
  if (constraintFailed(error, /product_variations\.product_id, product_variations\.name/)) {
    return refuse(
      "variation_name_taken",
      `This product already has a variation named ${values.name}. Choose a different name.`,
    );
  }
  return null;
}

export async function createVariation(
  db: Database,
  actor: ScopedActor,
  input: VariationInput & { productId: string },
): Promise<Outcome<{ variationId: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const variationId = uuidv7();
  const values = variationValues(input);
  const product = sql`p.id = ${input.productId} AND p.organization_id = ${organizationOf(actor)}`;
  try {
    const [inserted, , found] = await db.batch([
      // The units were typed at the scale the page showed: only while the product still has it.
      db.all<{ id: string }>(sql`INSERT INTO product_variations (id, product_id, name, sku, gtin, units_per_package,
          cost_cents, active, version, created_at)
        SELECT ${variationId}, p.id, ${values.name}, ${values.sku}, ${values.gtin}, ${values.unitsPerPackage},
          ${values.costCents}, 1, 1, ${Date.now()}
        FROM products AS p WHERE ${product} AND p.unit_scale = ${input.unitScale}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "create_variation",
          entity: "variation",
          entityId: variationId,
          summary: sql`json_patch(json_object('productId', p.id, 'product', p.name), json(${JSON.stringify(values)}))`,
        },
        sql`FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE v.id = ${variationId}`,
      ),
      db.all<{ id: string }>(sql`SELECT p.id FROM products AS p WHERE ${product}`),
    ]);
    if (inserted.length === 1) return { ok: true, variationId };
    return found[0] ? refuse("scale_changed") : refuse("not_found");
  } catch (error) {
    const refusal = await clash(db, actor, error, values);
    if (refusal) return refusal;
    throw error;
  }
}

/** The variation `variationId` of product `productId` in the actor's organization. */
function variationOf(actor: ScopedActor, productId: string, variationId: string): SQL {
  return sql`${V}.id = ${variationId} AND ${V}.product_id = ${productId} AND EXISTS (SELECT 1 FROM products AS p
    WHERE p.id = ${V}.product_id AND p.organization_id = ${organizationOf(actor)})`;
}

export async function updateVariation(
  db: Database,
  actor: ScopedActor,
  input: VariationEditInput & { productId: string },
): Promise<Outcome<{ changed: boolean; name: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const values = variationValues(input);
  const found = variationOf(actor, input.productId, input.variationId);
  const { differs, before, after } = changedFields(schema.productVariations, FIELDS, values);
  const scaleOk = sql`EXISTS (SELECT 1 FROM products AS p WHERE p.id = ${V}.product_id
    AND p.unit_scale = ${input.unitScale})`;
  const guard = sql`${found} AND ${V}.version = ${input.version} AND ${scaleOk} AND ${differs}`;
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
        summary: sql`json_object('productId', ${V}.product_id,
          'product', (SELECT p.name FROM products AS p WHERE p.id = ${V}.product_id),
          'name', ${values.name}, 'before', ${before}, 'after', ${after})`,
      },
      update: db.all<{ id: string }>(sql`UPDATE product_variations SET name = ${values.name}, sku = ${values.sku},
          gtin = ${values.gtin}, units_per_package = ${values.unitsPerPackage}, cost_cents = ${values.costCents},
          version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING id`),
      readBack: db.all<{ version: number; differs: number; scaleOk: number }>(sql`SELECT ${V}.version AS version,
          ${differs} AS differs, ${scaleOk} AS scaleOk FROM product_variations WHERE ${found}`),
    });
    if (updated.length === 1) return { ok: true, changed: true, name: values.name };
    const row = current[0];
    if (!row) return refuse("variation_not_found");
    if (!row.differs) return { ok: true, changed: false, name: values.name };
    if (Number(row.version) !== input.version) return refuse("variation_stale");
    if (!row.scaleOk) return refuse("scale_changed");
    return { ok: true, changed: false, name: values.name };
  } catch (error) {
    // The package size is how its stock, items and open lines were counted (trigger of migration 0009).
    if (raisedBy(error, /units per package locked/)) {
      return refuse(
        "units_locked",
        `${values.name} has stock or open receipt lines, so its units per package cannot change. Archive it and add a new variation with the new package size.`,
      );
    }
    const refusal = await clash(db, actor, error, values);
    if (refusal) return refusal;
    throw error;
  }
}

async function setVariationActive(
  db: Database,
  actor: ScopedActor,
  input: { productId: string; variationId: string },
  active: boolean,
): Promise<Outcome<{ name: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const found = variationOf(actor, input.productId, input.variationId);
  const guard = sql`${found} AND ${V}.active = ${active ? 0 : 1}`;
  const action: ActivityAction = active ? "restore_variation" : "archive_variation";
  const { updated, current } = await changeWithActivity(db, {
    from: schema.productVariations,
    guard,
    activity: {
      userId: actor.id,
      locationId: activityLocation(actor),
      action,
      entity: "variation",
      entityId: input.variationId,
      summary: sql`json_object('productId', ${V}.product_id,
        'product', (SELECT p.name FROM products AS p WHERE p.id = ${V}.product_id), 'name', ${V}.name,
        ${activeChange(active)})`,
    },
    update: db.all<{ id: string }>(sql`UPDATE product_variations SET active = ${active ? 1 : 0}, version = version + 1,
      updated_at = ${Date.now()} WHERE ${guard} RETURNING id`),
    readBack: db.all<{ name: string }>(sql`SELECT ${V}.name AS name FROM product_variations WHERE ${found}`),
  });
  const variation = current[0];
  if (!variation) return refuse("variation_not_found");
  if (updated.length !== 1) {
    return active
      ? refuse("already_active", `${variation.name} is already active.`)
      : refuse("already_archived", `${variation.name} is already archived.`);
  }
  return { ok: true, name: variation.name };
}

export function archiveVariation(db: Database, actor: ScopedActor, input: { productId: string; variationId: string }) {
  return setVariationActive(db, actor, input, false);
}

export function restoreVariation(db: Database, actor: ScopedActor, input: { productId: string; variationId: string }) {
  return setVariationActive(db, actor, input, true);
}
