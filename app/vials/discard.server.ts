// Discarding a sealed or open vial for a reason a person picks (expired, contaminated, damaged,
// recalled, other with a note); what was left leaves the stock as DISCARD (./end.server).
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import type { ChosenDiscardReason } from "../../db/schema/stock/constants";
import type { Changed, ChangeOptions } from "./change.server";
import { type EndInput, endVial } from "./end.server";
import { DiscardBody } from "./forms";
import { refuse } from "./outcome";
import { discardRefusal } from "./rules";

export async function discardVial(
  db: Database,
  actor: ScopedActor,
  input: EndInput & { reason: ChosenDiscardReason; note?: string | null },
  options: ChangeOptions = {},
): Promise<Changed<object>> {
  // The form's rules again (a known reason, a note for "other", its length): callers may skip the form.
  const parsed = DiscardBody.safeParse({ reason: input.reason, note: input.note, witness: input.witness });
  if (!parsed.success) return refuse("invalid", parsed.error.issues[0]?.message);
  const { reason, note, witness } = parsed.data;
  return endVial(
    db,
    actor,
    { itemId: input.itemId, witness, idempotencyKey: input.idempotencyKey, confirm: input.confirm },
    {
      verb: "discard",
      action: "discard_vial",
      state: "discarded",
      from: ["sealed", "in_use"],
      movement: "DISCARD",
      refusal: discardRefusal,
      reason,
      note,
    },
    options,
  );
}
