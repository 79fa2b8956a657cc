// Marking a lot of a variation recalled (WRITE_PRODUCTS, the catalogue permission): one row that
// quarantines every vial of the lot at every location of the organization at once (the vial
// verbs' guards read it through lotRecalled). The lot need not be in stock: a recall noticed
// before delivery quarantines the vials as they arrive. At most one recall of a lot is in force
// (the unique index lot_recalls_in_force_unique is the guard, also against a race). The answer
// names what the recall holds (its unused vials by location); a lot that holds none (often one
// typed in another case, "c7988a1" for C7988A1) is refused until confirmed, naming the lots of
// the variation that differ from it only in case or spacing.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { lotOrSerialProblem } from "~/stock/gs1";
import { RecallForm, type RecallInput } from "./forms";
import {
  type Held,
  heldOf,
  heldRows,
  holdsAVial,
  type NearLot,
  nearLotRows,
  nearLotsOf,
  nearLotsText,
} from "./held.server";
import { type Outcome, type RecallRefused, refuse } from "./outcome";
import { type Recall, recallOf, recallRows } from "./recall.server";

/** Whether a batch failed because a recall of the lot was already in force (a true race). */
function isAlreadyRecalled(error: unknown): boolean {
  return constraintFailed(error, /lot_recalls\.variation_id, lot_recalls\.lot/);
}

/** A recall marked: the recall and the vials it quarantines now, by location. */
export interface Marked {
  recall: Recall;
  quarantined: Held;
}

/** A mark refused because the lot holds no unused vial: the lots that differ only in case or spacing. */
export type NoVialMatches = RecallRefused & { refusal: "confirm_no_match"; nearLots: NearLot[] };

/** The refusal of a lot that holds no vial, naming its near lots (the API adds how to confirm). */
export function noVialMatches(lot: string, nearLots: NearLot[]): NoVialMatches {
  const near = nearLots.length
    ? ` Lots of this variation that differ only in case or spacing: ${nearLotsText(nearLots)}.`
    : "";
  const message = `No unused vial of lot ${lot} is in stock at any location: the recall would quarantine none now, only vials of it received later.${near} Check the lot as printed on the vials, or confirm the recall.`;
  return { ...refuse("confirm_no_match", message), refusal: "confirm_no_match", nearLots };
}

export async function markRecall(
  db: Database,
  actor: ScopedActor,
  input: RecallInput & { idempotencyKey?: string | null },
  options: { now?: Date; retried?: boolean } = {},
): Promise<Outcome<Marked> | NoVialMatches> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const parsed = RecallForm.safeParse(input);
  if (!parsed.success) return refuse("invalid", parsed.error.issues[0]?.message);
  const { variationId, lot, note, confirmNoMatch = false } = parsed.data;
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
  // The guard of a lot that holds no vial: written only once confirmed.
  const holds = confirmNoMatch ? sql`1` : holdsAVial(organization, variationId, lot);
  try {
    const [added, , , recalled, found, rows, held, near] = await db.batch([
      db.all<{
        id: string;
      }>(sql`INSERT INTO lot_recalls (id, organization_id, variation_id, lot, note, recalled_by, recalled_at)
        SELECT ${recallId}, p.organization_id, v.id, ${lot}, ${note}, ${actor.id}, ${now}
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE ${variation} AND ${keyUnused(key)} AND NOT ${inForce} AND ${holds}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "recall_lot",
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
      heldRows(db, organization, variationId, lot),
      nearLotRows(db, organization, variationId, lot),
    ]);
    const row = rows[0];
    const quarantined = heldOf(held);
    if (added.length === 1 && row) return { ok: true, recall: recallOf(row), quarantined };
    // Nothing was written: a repeat of a key answers the recall it made; otherwise say why.
    const replay = replayOf<{ recallId: string }>(recalled, key);
    if (replay.replay) {
      const [first] = await recallRows(db, sql`r.id = ${replay.answer.recallId}`, 1);
      if (first) return { ok: true, recall: recallOf(first), quarantined };
    }
    if (replay.replay === false && replay.misused) return refuse("key_misused");
    const asked = found[0];
    if (!asked) return refuse("variation_not_found");
    if (!asked.inForce && quarantined.vials === 0 && !confirmNoMatch) return noVialMatches(lot, nearLotsOf(near));
    return refuse("already_recalled");
  } catch (error) {
    if (isAlreadyRecalled(error)) return refuse("already_recalled");
    if (isKeyTaken(error) && !options.retried) return markRecall(db, actor, input, { ...options, retried: true });
    throw error;
  }
}
