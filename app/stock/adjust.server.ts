// A manual correction of a bulk product's on-hand stock at one location (domain.md "Stock"; spec
// section 6 gives WRITE_INVENTORY, so staff too): one ADJUST movement with its reason code (and a
// note, which "other" needs), its level and an adjust_stock activity row naming the reason and who,
// in one batch, or nothing at all. The change is typed in the product's unit ("-2.5" mL) and turned
// into base units with the product's scale inside the batch, exactly. A serialized product is never
// corrected by a bare number: each vial is discarded on its own page.
//
// Guards in SQL: the variation must be the organization's and bulk, the quantity whole at its scale,
// the key unused; a guard that fails leaves a NULL that the movement's NOT NULL columns refuse, and
// stock_levels' CHECK refuses going below zero. Either rolls the whole batch back; a second read
// (refusals only) then says which.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import { quantityStep } from "~/catalog/amounts";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import {
  type IdempotencyKey,
  idempotencyKeyFor,
  isKeyTaken,
  keyUnused,
  recallKey,
  rememberKey,
  replayOf,
} from "~/http/idempotency.server";
import { type Outcome as AnyOutcome, refusalsOf } from "~/outcome";
import type { AdjustReason } from "../../db/schema/stock/constants";
import { AdjustBody, parseSignedQuantity, type SignedQuantity } from "./adjust-form";
import { isNotEnoughStock, isOutsideGuard, locationIn, recordMovements } from "./ledger.server";

export const { messages: STOCK_REFUSALS, refuse } = refusalsOf({
  not_found: "That product variation or location does not exist in your organization.",
  invalid: "Check the quantity, the reason and the note.",
  not_enough_stock: "Not enough stock: this would leave less than zero on hand.",
  serialized:
    "This product is tracked vial by vial: its stock is corrected by discarding each vial on its own page, not by a number.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});
export type StockRefusal = keyof typeof STOCK_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, StockRefusal>;

export interface AdjustInput {
  locationId: string;
  variationId: string;
  /** Signed, in the product's unit: "5", "-2.5", "+3 mL", or a JSON number. */
  quantity: string | number;
  reason: AdjustReason | string;
  /** Needed for "other"; at most 500 characters. */
  note?: string | null;
  idempotencyKey?: string | null;
}

/** A level as an adjustment names it: where, what, in which unit, and what is on hand. */
export interface AdjustLevel {
  locationId: string;
  location: string;
  variationId: string;
  product: string;
  variation: string;
  unitScale: UnitScale;
  baseUnit: string;
  /** In base units (1/unitScale of baseUnit). */
  onHand: number;
}

/** What an adjustment answers (and a repeat of its key answers again): the level after it. */
export interface Adjusted extends AdjustLevel {
  movementId: string;
  /** Signed, in base units, as stock_movements keeps it. */
  quantity: number;
  reason: AdjustReason;
  note: string | null;
}

/** The typed change in base units at `p`'s scale, or NULL if it is not whole there or names another unit. */
function scaledSql(q: SignedQuantity): SQL {
  return sql`(CASE WHEN (${q.mantissa} * p.unit_scale) % ${q.divisor} = 0
      AND (${q.unit} IS NULL OR lower(${q.unit}) = lower(p.base_unit))
    THEN ${q.sign} * (${q.mantissa} * p.unit_scale) / ${q.divisor} END)`;
}

export async function adjustStock(
  db: Database,
  actor: ScopedActor,
  input: AdjustInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<Adjusted>> {
  // The location in scope (any of the organization's in organization mode), with WRITE_INVENTORY there.
  if (!reachesAt(actor, "WRITE_INVENTORY", input.locationId)) return refuse("forbidden");
  const parsed = AdjustBody.safeParse(input);
  if (!parsed.success) return refuse("invalid", parsed.error.issues[0]?.message);
  const { locationId, variationId, reason, note } = parsed.data;
  const signed = parseSignedQuantity(parsed.data.quantity);
  if (!signed.ok) return refuse("invalid", signed.message);
  const typed = signed.quantity;

  const key = await idempotencyKeyFor(
    actor.id,
    input.idempotencyKey,
    `stock_adjust:${locationId}:${variationId}`,
    parsed.data,
  );
  const movementId = uuidv7();
  const scaled = scaledSql(typed);
  const adjustable = sql`FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE v.id = ${variationId} AND p.organization_id = ${organizationOf(actor)} AND p.tracking = 'bulk'
      AND ${keyUnused(key)}`;
  const answer = sql`json_object('ok', json('true'), 'movementId', m.id, 'locationId', m.location_id,
      'location', l.name, 'variationId', m.variation_id, 'product', p.name, 'variation', v.name,
      'quantity', m.quantity, 'onHand', s.on_hand, 'unitScale', p.unit_scale, 'baseUnit', p.base_unit,
      'reason', m.reason, 'note', m.note)`;
  const written = sql`FROM stock_movements AS m
    JOIN stock_levels AS s ON s.location_id = m.location_id AND s.variation_id = m.variation_id
    JOIN product_variations AS v ON v.id = m.variation_id JOIN products AS p ON p.id = v.product_id
    JOIN locations AS l ON l.id = m.location_id
    WHERE m.id = ${movementId}`;
  try {
    const [, , , , , done] = await db.batch([
      ...recordMovements(db, [
        {
          id: movementId,
          locationId: locationIn(actor, locationId),
          variationId: sql`(SELECT v.id ${adjustable} AND ${scaled} IS NOT NULL)`,
          quantity: sql`(SELECT ${scaled} ${adjustable})`,
          type: "ADJUST",
          reason,
          note,
          userId: actor.id,
        },
      ]),
      // After the movement: logged exactly when it was written.
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId,
          action: "adjust_stock",
          entity: "variation",
          entityId: variationId,
          summary: sql`json_object('movementId', m.id, 'location', l.name, 'product', p.name, 'variation', v.name,
            'quantity', m.quantity, 'unitScale', p.unit_scale, 'baseUnit', p.base_unit, 'onHand', s.on_hand,
            'reason', m.reason, 'note', m.note)`,
        },
        written,
      ),
      rememberKey(db, key, answer, written),
      db.all<{ answer: string }>(sql`SELECT ${answer} AS answer ${written}`),
    ]);
    const row = done[0];
    if (row) return JSON.parse(row.answer) as { ok: true } & Adjusted;
    throw new Error("The adjustment was written but could not be read back.");
  } catch (error) {
    if (isOutsideGuard(error)) return whyNot(db, actor, { locationId, variationId, typed, key });
    if (isNotEnoughStock(error)) return notEnough(db, { locationId, variationId, typed });
    // Someone else's request with the same key got in first: once more, to answer as it did.
    if (isKeyTaken(error) && !options.retried) return adjustStock(db, actor, input, { retried: true });
    throw error;
  }
}

interface Refusing {
  locationId: string;
  variationId: string;
  typed: SignedQuantity;
}

/** The variation's product as a refusal names it (organization checked), read after a refused batch. */
function productRow(db: Database, variationId: string, organization: string | SQL) {
  return db.all<{ product: string; tracking: string; unitScale: UnitScale; baseUnit: string }>(
    sql`SELECT p.name AS product, p.tracking, p.unit_scale AS unitScale, p.base_unit AS baseUnit
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.id = ${variationId} AND p.organization_id = ${organization}`,
  );
}

/** Why a guard failed: a repeat of the key, an unknown id, a serialized product, or a quantity it cannot hold. */
async function whyNot(
  db: Database,
  actor: ScopedActor,
  { locationId, variationId, typed, key }: Refusing & { key: IdempotencyKey | null },
): Promise<Outcome<Adjusted>> {
  const organization = organizationOf(actor);
  const [recalled, products, locations] = await db.batch([
    recallKey(db, key),
    productRow(db, variationId, organization),
    db.all<{ id: string }>(
      sql`SELECT id FROM locations WHERE id = ${locationId} AND organization_id = ${organization}`,
    ),
  ]);
  const replay = replayOf<Outcome<Adjusted>>(recalled, key);
  if (replay.replay) return replay.answer;
  if (replay.misused) return refuse("key_misused");
  const product = products[0];
  if (!product || !locations[0]) return refuse("not_found");
  if (product.tracking !== "bulk") {
    return refuse(
      "serialized",
      `${product.product} is tracked vial by vial, so its stock is not corrected by a number: open each vial on Inventory (/inventory/{itemId}, or scan its label) and discard it there with a reason.`,
    );
  }
  const { unitScale, baseUnit } = product;
  if (typed.unit !== null && typed.unit.toLowerCase() !== baseUnit.toLowerCase()) {
    return refuse("invalid", `${product.product} is counted in ${baseUnit}: enter the change in ${baseUnit}.`);
  }
  const places = String(unitScale).length - 1;
  const advice =
    unitScale === 1 ? "enter a whole number" : `use at most ${places} decimal place${places === 1 ? "" : "s"}`;
  return refuse("invalid", `${product.product} is counted in ${quantityStep(unitScale, baseUnit)}: ${advice}.`);
}

/** What a removal below zero is told: how much it asked for and how much is there. */
async function notEnough(db: Database, { locationId, variationId, typed }: Refusing): Promise<Outcome<Adjusted>> {
  const [rows] = await db.batch([
    db.all<{ unitScale: UnitScale; baseUnit: string; onHand: number | null }>(
      sql`SELECT p.unit_scale AS unitScale, p.base_unit AS baseUnit,
          (SELECT on_hand FROM stock_levels WHERE location_id = ${locationId} AND variation_id = v.id) AS onHand
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE v.id = ${variationId}`,
    ),
  ]);
  const row = rows[0];
  const asked = (typed.mantissa * (row?.unitScale ?? 1)) / typed.divisor;
  const unit = row?.baseUnit ?? "";
  const removing = formatQuantity(asked, row?.unitScale ?? 1, unit);
  const there = formatQuantity(row?.onHand ?? 0, row?.unitScale ?? 1, unit);
  return refuse(
    "not_enough_stock",
    `Not enough stock: removing ${removing} would leave less than zero on hand here, where ${there} is on hand. Count what is on the shelf and adjust by the difference.`,
  );
}

/** The level an adjustment form is opened for: a location × variation the actor may adjust. */
export interface AdjustTarget {
  locationId: string;
  variationId: string;
}

/** The level as the form shows it: with the package size the par levels count. */
export interface AdjustFormLevel extends AdjustLevel {
  /** Base units a package holds. */
  unitsPerPackage: number;
}

/**
 * What the adjustment form shows about its level (names, unit, package, on hand), as a statement for the
 * screen's one batch: nothing unless the actor may adjust there and the product is bulk.
 */
export function adjustTargetQuery(db: Database, actor: ScopedActor, target: AdjustTarget | null) {
  const reached = target !== null && reachesAt(actor, "WRITE_INVENTORY", target.locationId);
  return db.all<AdjustFormLevel>(sql`SELECT l.id AS locationId, l.name AS location, v.id AS variationId, p.name AS product, v.name AS variation,
      p.base_unit AS baseUnit, p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage,
      coalesce((SELECT on_hand FROM stock_levels WHERE location_id = l.id AND variation_id = v.id), 0) AS onHand
    FROM locations AS l, product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE ${reached ? 1 : 0} AND l.id = ${target?.locationId ?? null} AND v.id = ${target?.variationId ?? null}
      AND l.organization_id = ${organizationOf(actor)} AND p.organization_id = l.organization_id
      AND p.tracking = 'bulk'`);
}
