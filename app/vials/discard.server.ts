// Discarding a sealed or open vial for a reason a person picks (expired, contaminated, damaged,
// recalled, other with a note); what was left leaves the stock as DISCARD (./end.server).
import { type EndAddress, endVial } from "./end.server";
import { DiscardBody } from "./forms";
import { discardRefusal } from "./rules";
import { vialVerb } from "./verb.server";

export const discardVial = vialVerb<typeof DiscardBody, EndAddress, object>(
  DiscardBody,
  (db, actor, { reason, note, ...input }, options = {}) =>
    endVial(
      db,
      actor,
      input,
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
    ),
);
