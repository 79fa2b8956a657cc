// What emptying and discarding share: a vial ends (empty or discarded, ended_at now) and what was
// left in it leaves the stock as one movement (WASTE when emptied, DISCARD when discarded; none
// when nothing was left). A controlled substance with units left needs a witness (./witness.server),
// recorded on the item and, by name, in the activity row. The guard is the vial exactly as read
// (state and units left): the movement books that number, so any change meanwhile is `changed`.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { Vial } from "~/stock/vials.server";
import type { MovementType } from "../../db/schema/stock/constants";
import {
  type Changed,
  type ChangeOptions,
  changeVial,
  isPrepared,
  prepareChange,
  type VialChange,
} from "./change.server";
import type { Witness } from "./forms";
import type { VialRefused } from "./outcome";
import { needsWitness } from "./rules";
import { confirmWitness, isWitness } from "./witness.server";

export interface Ending {
  verb: "empty" | "discard";
  action: "empty_vial" | "discard_vial";
  state: "empty" | "discarded";
  /** The states it may end from. */
  from: readonly ("sealed" | "in_use")[];
  movement: MovementType;
  /** Why this vial cannot end this way, as it stands. */
  refusal: (vial: Vial) => VialRefused | null;
  reason?: string | null;
  note?: string | null;
}

/**
 * The change that ends `vial` as read: the guard is its state and units left exactly (the movement
 * books that number), and `also` may narrow it further (the waste job: still past its deadline).
 */
export function endChange(
  vial: { state: string; unitsRemaining: number },
  ending: Pick<Ending, "action" | "state" | "from" | "movement" | "reason" | "note">,
  now: Date,
  witness: { id: string; name: string } | null,
  also: SQL = sql`1`,
): VialChange {
  const left = vial.unitsRemaining;
  const at = now.getTime();
  return {
    action: ending.action,
    guard: sql`i.state = ${vial.state} AND i.state IN ${ending.from} AND i.units_remaining = ${left} AND ${also}`,
    set: sql`state = ${ending.state}, units_remaining = 0, ended_at = ${at}, witness_user_id = ${witness?.id ?? null},
      discard_reason = ${ending.reason ?? null}, discard_note = ${ending.note ?? null}`,
    summary: sql`json_object('wasted', ${left}, 'reason', ${ending.reason ?? null}, 'note', ${ending.note ?? null},
      'witnessId', ${witness?.id ?? null}, 'witness', ${witness?.name ?? null})`,
    ...(left > 0 ? { movement: { type: ending.movement, quantity: -left, reason: ending.reason ?? null } } : {}),
  };
}

export async function endVial(
  db: Database,
  actor: ScopedActor,
  input: { itemId: string; witness?: Witness | null; idempotencyKey?: string | null },
  ending: Ending,
  options: ChangeOptions = {},
): Promise<Changed<object>> {
  // The key is bound to the whole request: a discard's reason and note too.
  const request = { ...input, reason: ending.reason ?? null, note: ending.note ?? null };
  const prepared = await prepareChange(db, actor, ending.verb, request, ending.refusal, options);
  if (!isPrepared(prepared)) return prepared;
  const { vial, now, refused } = prepared;
  let witness: { id: string; name: string } | null = null;
  if (!refused && needsWitness(vial)) {
    const confirmed = await confirmWitness(db, actor, vial, input.witness);
    if (!isWitness(confirmed)) return confirmed;
    witness = confirmed;
  }
  return changeVial(db, actor, { ...prepared, answer: {} }, endChange(vial, ending, now, witness), ending.refusal);
}
