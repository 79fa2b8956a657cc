// Marking a lot of a variation recalled (WRITE_PRODUCTS, the catalogue permission): one row that
// quarantines every vial of the lot at every location of the organization at once (the vial
// verbs' guards read it through lotRecalled). The lot need not be in stock: a recall noticed
// before delivery quarantines the vials as they arrive. At most one recall of a lot is in force
// (the unique index lot_recalls_in_force_unique is the guard, also against a race).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { canWriteCatalog } from "~/products/actor";
import { lotOrSerialProblem } from "~/stock/gs1";
import { RecallForm, type RecallInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { type Recall, recallOf, recallRows } from "./recall.server";

/** Whether a batch failed because a recall of the lot was already in force (a true race). */
function isAlreadyRecalled(error: unknown): boolean {
  return constraintFailed(error, /lot_recalls\.variation_id, lot_recalls\.lot/);
}

export async function markRecall(
  db: Database,
  actor: ScopedActor,
  input: RecallInput & { idempotencyKey?: string | null },
  options: { now?: Date; retried?: boolean } = {},
): Promise<Outcome<{ recall: Recall }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const parsed = RecallForm.safeParse(input);
  if (!parsed.success) return refuse("invalid", parsed.error.issues[0]?.message);
  const { variationId, lot, note } = parsed.data;
  const organization = organizationOf(actor);
  // A lot is one GS1 allows (~/stock/gs1), unless it is on vials of the variation already, received
  // before that rule: such a lot can still be recalled.
  const lotProblem = lotOrSerialProblem("lot", lot);
  if (lotProblem) {
    const held = await db.all(sql`SELECT 1 FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id
      JOIN products AS p ON p.id = v.product_id
      WHERE i.variation_id = ${variationId} AND i.lot = ${lot} AND p.organization_id = ${organization} LIMIT 1`);
    if (held.length === 0) return refuse("invalid", lotProblem);
  }
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, "lot_recall", parsed.data);
  const recallId = uuidv7();
  const now = (options.now ?? new Date()).getTime();
  const variation = sql`v.id = ${variationId} AND p.organization_id = ${organization}`;
  const inForce = sql`EXISTS (SELECT 1 FROM lot_recalls AS f WHERE f.variation_id = ${variationId} AND f.lot = ${lot}
    AND f.lifted_at IS NULL)`;
  try {
    const [added, , , recalled, found, rows] = await db.batch([
      db.all<{
        id: string;
      }>(sql`INSERT INTO lot_recalls (id, organization_id, variation_id, lot, note, recalled_by, recalled_at)
        SELECT ${recallId}, p.organization_id, v.id, ${lot}, ${note}, ${actor.id}, ${now}
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE ${variation} AND ${keyUnused(key)} AND NOT ${inForce}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "lot_recall",
          entity: "lot_recall",
          entityId: recallId,
          summary: sql`json_object('variationId', v.id, 'product', p.name, 'variation', v.name, 'lot', r.lot,
            'note', r.note)`,
        },
        sql`FROM lot_recalls AS r JOIN product_variations AS v ON v.id = r.variation_id
          JOIN products AS p ON p.id = v.product_id WHERE r.id = ${recallId}`,
      ),
      rememberKey(db, key, sql`json_object('recallId', r.id)`, sql`FROM lot_recalls AS r WHERE r.id = ${recallId}`),
      recallKey(db, key),
      db.all<{ inForce: number }>(sql`SELECT ${inForce} AS inForce
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE ${variation}`),
      recallRows(db, sql`r.id = ${recallId}`, 1),
    ]);
    const row = rows[0];
    if (added.length === 1 && row) return { ok: true, recall: recallOf(row) };
    // Nothing was written: a repeat of a key answers the recall it made; otherwise say why.
    const replay = replayOf<{ recallId: string }>(recalled, key);
    if (replay.replay) {
      const [first] = await recallRows(db, sql`r.id = ${replay.answer.recallId}`, 1);
      if (first) return { ok: true, recall: recallOf(first) };
    }
    if (replay.replay === false && replay.misused) return refuse("key_misused");
    if (!found[0]) return refuse("variation_not_found");
    return refuse("already_recalled");
  } catch (error) {
    if (isAlreadyRecalled(error)) return refuse("already_recalled");
    if (isKeyTaken(error) && !options.retried) return markRecall(db, actor, input, { ...options, retried: true });
    throw error;
  }
}
