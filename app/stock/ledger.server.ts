// The stock ledger (architecture.md "Stock is a ledger"): every change of on-hand stock is a
// movement appended to stock_movements, and stock_levels, the cached balance per location ×
// variation, moves with it in the SAME batch. `recordMovements` builds those statements for a
// command's one batch; the CHECK (on_hand >= 0) on stock_levels is the guard against going below
// zero, and its failure rolls the whole batch back (movements, levels, activity row).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { MovementReferenceType, MovementType } from "../../db/schema/stock/constants";

export interface Movement {
  /** A location id, or a guarded scalar subquery (`locationIn`) that is NULL outside the guard. */
  locationId: string | SQL;
  /** A variation id, or a guarded scalar subquery (`variationIn`) that is NULL outside the guard. */
  variationId: string | SQL;
  /** Signed, in base units, never zero; or a guarded SQL expression (NULL outside the guard). */
  quantity: number | SQL;
  type: MovementType;
  reason?: string | null;
  /** What the person added to the reason (an adjustment's or a discard's "other"). */
  note?: string | null;
  itemId?: string | null;
  lot?: string | null;
  reference?: { type: MovementReferenceType; id: string } | null;
  userId: string | null;
  /** Defaults to now; one command's movements usually share one instant. */
  occurredAt?: Date;
  /** Defaults to a new UUIDv7. */
  id?: string;
}

/**
 * The statements that append `movements` and move `stock_levels` by the same quantities (a level
 * is inserted when missing), in order, for the caller's one batch. A level that would go below
 * zero fails the batch through stock_levels' CHECK: see `isNotEnoughStock`. A guarded id that is
 * NULL fails it through stock_movements' NOT NULL columns: see `isOutsideGuard`.
 */
export function recordMovements(
  db: Database,
  movements: readonly [Movement, ...Movement[]],
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const statements: BatchItem<"sqlite">[] = [];
  for (const m of movements) {
    const occurredAt = m.occurredAt ?? new Date();
    const { locationId, variationId } = m;
    statements.push(
      db.insert(schema.stockMovements).values({
        id: m.id ?? uuidv7(),
        occurredAt,
        locationId,
        variationId,
        itemId: m.itemId ?? null,
        lot: m.lot ?? null,
        quantity: m.quantity,
        type: m.type,
        reason: m.reason ?? null,
        note: m.note ?? null,
        referenceType: m.reference?.type ?? null,
        referenceId: m.reference?.id ?? null,
        userId: m.userId,
      }),
      // CHECK constraints see an upsert's candidate row before its conflict, so a plain upsert
      // would refuse any removal; instead: move the level if it exists, insert it if it does not.
      db
        .update(schema.stockLevels)
        .set({ onHand: sql`${schema.stockLevels.onHand} + ${m.quantity}`, updatedAt: occurredAt })
        .where(
          sql`${schema.stockLevels.locationId} = ${locationId} AND ${schema.stockLevels.variationId} = ${variationId}`,
        ),
      db.run(sql`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
        SELECT ${locationId}, ${variationId}, ${m.quantity}, ${occurredAt.getTime()}
        WHERE NOT EXISTS (SELECT 1 FROM stock_levels AS existing
          WHERE existing.location_id = ${locationId} AND existing.variation_id = ${variationId})`),
    );
  }
  return statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
}

/** A movement of many written at once (`recordMovementSet`): plain values, worked out before the batch. */
export interface SetMovement {
  id: string;
  occurredAt: number;
  locationId: string;
  variationId: string;
  /** Signed base units; a zero is not written (nothing moved). */
  quantity: number;
  type: MovementType;
  reference: { type: MovementReferenceType; id: string };
}

/**
 * The statements that append many movements and move their pairs' stock_levels by the sum of each
 * pair's quantities, set-based (three statements whatever the count: an import books hundreds of
 * lines a batch), for the caller's one batch. As with recordMovements, a level that would go below
 * zero fails the batch through stock_levels' CHECK; the caller's own guard must hold what it read.
 */
export function recordMovementSet(db: Database, movements: readonly SetMovement[], at: Date): BatchItem<"sqlite">[] {
  const moving = movements.filter((m) => m.quantity !== 0);
  if (moving.length === 0) return [];
  const rows = JSON.stringify(
    moving.map((m) => [
      m.id,
      m.occurredAt,
      m.locationId,
      m.variationId,
      m.quantity,
      m.type,
      m.reference.type,
      m.reference.id,
    ]),
  );
  const deltas = new Map<string, [string, string, number]>();
  for (const m of moving) {
    const key = `${m.locationId} ${m.variationId}`;
    const delta = deltas.get(key) ?? [m.locationId, m.variationId, 0];
    delta[2] += m.quantity;
    deltas.set(key, delta);
  }
  const moved = JSON.stringify([...deltas.values()].filter(([, , quantity]) => quantity !== 0));
  return [
    db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type, reference_type,
        reference_id, user_id)
      SELECT json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]'), json_extract(e.value, '$[2]'),
        json_extract(e.value, '$[3]'), json_extract(e.value, '$[4]'), json_extract(e.value, '$[5]'),
        json_extract(e.value, '$[6]'), json_extract(e.value, '$[7]'), NULL
      FROM json_each(${rows}) AS e`),
    // Each pair's level by the sum of its movements; inserted when missing.
    db.run(sql`UPDATE stock_levels SET on_hand = on_hand + json_extract(d.value, '$[2]'), updated_at = ${at.getTime()}
      FROM json_each(${moved}) AS d
      WHERE stock_levels.location_id = json_extract(d.value, '$[0]')
        AND stock_levels.variation_id = json_extract(d.value, '$[1]')`),
    db.run(sql`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
      SELECT json_extract(d.value, '$[0]'), json_extract(d.value, '$[1]'), json_extract(d.value, '$[2]'), ${at.getTime()}
      FROM json_each(${moved}) AS d
      WHERE NOT EXISTS (SELECT 1 FROM stock_levels AS existing WHERE existing.location_id = json_extract(d.value, '$[0]')
        AND existing.variation_id = json_extract(d.value, '$[1]'))`),
  ];
}

/** The location `locationId` if it belongs to the actor's organization, else NULL (scalar subquery). */
export function locationIn(actor: { id: string }, locationId: string): SQL {
  return sql`(SELECT guarded.id FROM locations AS guarded
    WHERE guarded.id = ${locationId} AND guarded.organization_id = ${organizationOf(actor)})`;
}

/** Whether a batch failed because a stock level would have gone below zero. */
export function isNotEnoughStock(error: unknown): boolean {
  return constraintFailed(error, /stock_levels_not_negative/);
}

/** Whether a batch failed because a guarded location, variation or quantity was NULL (outside the guard). */
export function isOutsideGuard(error: unknown): boolean {
  return constraintFailed(error, /stock_(movements|levels)\.(location_id|variation_id|quantity)/);
}
