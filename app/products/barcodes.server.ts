// Catalogue barcodes: codes that identify a variation when scanned. The spec's rules (section 5)
// are checked here and again by the table's CHECK; a code is unique across the whole catalogue,
// and a clash names what already uses it. Scanning looks codes up here (and GTINs as a fallback).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { logActivityWhere } from "~/activity/log.server";
import { checkBarcode } from "~/catalog/barcode";
import { gtinCandidates } from "~/catalog/gtin";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf, valueList } from "~/db/sql.server";
import { type Outcome, type ProductRefused, refuse } from "./outcome";

/** "Barcode BTX-100 is already used by Botox — 100 U vial." (one more read, on refusal only). */
async function barcodeTaken(db: Database, actor: ScopedActor, code: string): Promise<ProductRefused> {
  const [owner] = await db.all<{ product: string | null; variation: string | null }>(sql`SELECT p.name AS product,
      v.name AS variation FROM barcodes AS b
      LEFT JOIN product_variations AS v ON v.id = b.variation_id
      LEFT JOIN products AS p ON p.id = v.product_id AND p.organization_id = ${organizationOf(actor)}
    WHERE b.code = ${code}`);
  const message =
    owner?.product && owner.variation
      ? `Barcode ${code} is already used by ${owner.product} — ${owner.variation}.`
      : `Barcode ${code} is already used by an item label.`;
  return refuse("barcode_taken", message);
}

export async function addBarcode(
  db: Database,
  actor: ScopedActor,
  input: { productId: string; variationId: string; code: unknown },
): Promise<Outcome<{ code: string; variation: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const checked = checkBarcode(input.code);
  if (!checked.valid) return refuse("barcode_invalid", checked.errors.join(" "));
  const { code } = checked;
  const barcodeId = uuidv7();
  const variation = sql`v.id = ${input.variationId} AND v.product_id = ${input.productId}
    AND p.organization_id = ${organizationOf(actor)}`;
  try {
    const [inserted, , found] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO barcodes (id, code, variation_id, created_at)
        SELECT ${barcodeId}, ${code}, v.id, ${Date.now()}
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE ${variation}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "add_barcode",
          entity: "variation",
          entityId: input.variationId,
          summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'code', b.code)`,
        },
        sql`FROM barcodes AS b JOIN product_variations AS v ON v.id = b.variation_id
          JOIN products AS p ON p.id = v.product_id WHERE b.id = ${barcodeId}`,
      ),
      db.all<{ name: string }>(sql`SELECT v.name FROM product_variations AS v
        JOIN products AS p ON p.id = v.product_id WHERE ${variation}`),
    ]);
    if (inserted.length !== 1) return refuse("variation_not_found");
    return { ok: true, code, variation: found[0]?.name ?? "" };
  } catch (error) {
    if (constraintFailed(error, /barcodes\.code/)) return barcodeTaken(db, actor, code);
    throw error;
  }
}

export async function removeBarcode(
  db: Database,
  actor: ScopedActor,
  input: { productId: string; barcodeId: string },
): Promise<Outcome<{ code: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const owned = sql`b.id = ${input.barcodeId} AND v.product_id = ${input.productId}
    AND p.organization_id = ${organizationOf(actor)}`;
  const [, removed] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "remove_barcode",
        entity: "variation",
        entityId: sql`v.id`,
        summary: sql`json_object('productId', p.id, 'product', p.name, 'variation', v.name, 'code', b.code)`,
      },
      sql`FROM barcodes AS b JOIN product_variations AS v ON v.id = b.variation_id
        JOIN products AS p ON p.id = v.product_id WHERE ${owned}`,
    ),
    db.all<{ code: string }>(sql`DELETE FROM barcodes WHERE id = (SELECT b.id FROM barcodes AS b
        JOIN product_variations AS v ON v.id = b.variation_id JOIN products AS p ON p.id = v.product_id
        WHERE ${owned})
      RETURNING code`),
  ]);
  const row = removed[0];
  if (!row) return refuse("barcode_not_found");
  return { ok: true, code: row.code };
}

export interface ScannedVariation {
  /** What matched: a catalogue barcode, or the GTIN of a variation. */
  match: "barcode" | "gtin";
  code: string;
  variation: {
    id: string;
    name: string;
    sku: string | null;
    gtin: string | null;
    unitsPerPackage: number;
    costCents: number | null;
    active: boolean;
  };
  product: {
    id: string;
    name: string;
    sku: string | null;
    category: string;
    tracking: string;
    baseUnit: string;
    unitScale: number;
    active: boolean;
  };
}

type Row = {
  vId: string;
  vName: string;
  vSku: string | null;
  gtin: string | null;
  unitsPerPackage: number;
  vCost: number | null;
  vActive: number;
  pId: string;
  pName: string;
  pSku: string | null;
  category: string;
  tracking: string;
  baseUnit: string;
  unitScale: number;
  pActive: number;
};

const COLUMNS = sql`v.id AS vId, v.name AS vName, v.sku AS vSku, v.gtin AS gtin, v.units_per_package AS unitsPerPackage,
  v.cost_cents AS vCost, v.active AS vActive, p.id AS pId, p.name AS pName, p.sku AS pSku, p.category AS category,
  p.tracking AS tracking, p.base_unit AS baseUnit, p.unit_scale AS unitScale, p.active AS pActive`;

function scanned(match: ScannedVariation["match"], code: string, r: Row): ScannedVariation {
  return {
    match,
    code,
    variation: {
      id: r.vId,
      name: r.vName,
      sku: r.vSku,
      gtin: r.gtin,
      unitsPerPackage: Number(r.unitsPerPackage),
      costCents: r.vCost === null ? null : Number(r.vCost),
      active: Boolean(r.vActive),
    },
    product: {
      id: r.pId,
      name: r.pName,
      sku: r.pSku,
      category: r.category,
      tracking: r.tracking,
      baseUnit: r.baseUnit,
      unitScale: Number(r.unitScale),
      active: Boolean(r.pActive),
    },
  };
}

/** The catalogue's two reads for a valid `code`, for a batch: its barcode, else a variation with that GTIN. */
export function catalogueQueries(db: Database, actor: ScopedActor, code: string) {
  const organization = organizationOf(actor);
  const gtins = gtinCandidates(code);
  return [
    db.all<Row>(sql`SELECT ${COLUMNS} FROM barcodes AS b JOIN product_variations AS v ON v.id = b.variation_id
      JOIN products AS p ON p.id = v.product_id WHERE b.code = ${code} AND p.organization_id = ${organization}`),
    db.all<Row>(sql`SELECT ${COLUMNS} FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.gtin IN (${gtins.length ? valueList(gtins) : sql`NULL`}) AND p.organization_id = ${organization}
      LIMIT 1`),
  ] as const;
}

/** What `catalogueQueries` found: a catalogue barcode wins over a GTIN; null when neither. */
export function catalogueMatch(code: string, [byBarcode, byGtin]: readonly [Row[], Row[]]): ScannedVariation | null {
  if (byBarcode[0]) return scanned("barcode", code, byBarcode[0]);
  if (byGtin[0]) return scanned("gtin", code, byGtin[0]);
  return null;
}

/**
 * What a scanned or typed code identifies: `invalid` with the spec's messages, null when nothing
 * in the organization's catalogue carries it, else the variation and its product. One round trip.
 */
export async function findByCode(
  db: Database,
  actor: ScopedActor,
  input: unknown,
): Promise<{ invalid: string[] } | ScannedVariation | null> {
  const checked = checkBarcode(input);
  if (!checked.valid) return { invalid: checked.errors };
  return catalogueMatch(checked.code, await db.batch(catalogueQueries(db, actor, checked.code)));
}
