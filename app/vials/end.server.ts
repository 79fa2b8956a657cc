// What emptying and discarding share: a vial ends (empty or discarded, ended_at now) and what was
// left in it leaves the stock as one movement (WASTE when emptied, DISCARD when discarded; none
// when nothing was left). A controlled substance with units left needs a witness (./witness.server),
// recorded on the item and, by name, in the activity row. The guard is the vial exactly as read
// (state and units left): the movement books that number, so any change meanwhile is `changed`.
// A person's form asks first (`confirm`): with units left, it ends the vial only when the units
// confirmed are the units left, else it answers the question (`askOf`) naming them and their value
// at cost; the JSON API, for programs, asks nothing.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { formatMoney } from "~/catalog/format";
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
import { DISCARD_REASON_NAMES } from "./history";
import { refuse, type VialRefused } from "./outcome";
import { needsWitness, unitsText } from "./rules";
import type { VialAddress } from "./verb.server";
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

/** What a person confirms before units are wasted: the question, and the units left it names (base units). */
export interface WasteQuestion {
  question: string;
  wasting: number;
}

/** A form's confirmation: the units left it was shown and confirmed, or null before it asked. */
export interface WasteConfirmation {
  wasting: number | null;
}

/** What an ending is told beside its schema's fields: the confirmation, for a person's form. */
export interface EndAddress extends VialAddress {
  /** Present for a person's form: ask first when units are left. The JSON API leaves it out. */
  confirm?: WasteConfirmation;
}

export interface EndInput extends EndAddress {
  witness?: Witness | null;
}

/** The question a refusal carries (the confirmation asked, or a confirmation whose witness failed), if any. */
export function askOf(outcome: object): WasteQuestion | null {
  return "ask" in outcome ? (outcome.ask as WasteQuestion) : null;
}

/** Asks again with `refused`'s message (`confirm_waste` asks with the question itself). */
async function asking(db: Database, vial: Vial, ending: Ending, refused?: VialRefused): Promise<VialRefused> {
  const ask = await wasteQuestion(db, vial, ending);
  return Object.assign(refused ?? refuse("confirm_waste", ask.question), { ask });
}

/**
 * "Empty this vial? 73 U of Botox Cosmetic, $219.00 at cost, will be booked as waste." The value
 * is the vial's cost (as received, else its variation's) for the share of the package left in it.
 */
export async function wasteQuestion(db: Database, vial: Vial, ending: Pick<Ending, "verb" | "reason">) {
  const [row] = await db.all<{ cost: number | null }>(sql`SELECT coalesce(i.cost_cents, v.cost_cents) AS cost
    FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id WHERE i.id = ${vial.id}`);
  const cost = row?.cost ?? null;
  const left = vial.unitsRemaining;
  const value =
    cost === null || vial.unitsPerPackage <= 0
      ? ""
      : `, ${formatMoney(Math.round((cost * left) / vial.unitsPerPackage))} at cost,`;
  const lost = `${unitsText(vial, left)} of ${vial.productName}${value}`;
  const reason = ending.reason ? DISCARD_REASON_NAMES[ending.reason as keyof typeof DISCARD_REASON_NAMES] : null;
  const question =
    ending.verb === "empty"
      ? `Empty this vial? ${lost} will be booked as waste.`
      : `Discard this vial${reason ? ` (${reason})` : ""}? ${lost} will be lost.`;
  return { question, wasting: left };
}

export async function endVial(
  db: Database,
  actor: ScopedActor,
  input: EndInput,
  ending: Ending,
  options: ChangeOptions = {},
): Promise<Changed<object>> {
  // The key is bound to the whole request: a discard's reason and note too.
  const request = { ...input, reason: ending.reason ?? null, note: ending.note ?? null };
  const prepared = await prepareChange(db, actor, ending.verb, request, ending.refusal, options);
  if (!isPrepared(prepared)) return prepared;
  const { vial, now, refused } = prepared;
  // A form ends a vial with units left only once the person confirmed exactly those units.
  const asked = !refused && input.confirm && vial.unitsRemaining > 0;
  if (asked && input.confirm?.wasting !== vial.unitsRemaining) return asking(db, vial, ending);
  let witness: { id: string; name: string } | null = null;
  if (!refused && needsWitness(vial)) {
    const confirmed = await confirmWitness(db, actor, vial, input.witness);
    // The witness is asked on the confirmation: a refused one keeps the question on screen.
    if (!isWitness(confirmed)) return asked ? asking(db, vial, ending, confirmed) : confirmed;
    witness = confirmed;
  }
  return changeVial(db, actor, { ...prepared, answer: {} }, endChange(vial, ending, now, witness), ending.refusal);
}
