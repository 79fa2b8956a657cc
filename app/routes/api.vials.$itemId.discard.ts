// POST /api/vials/{id}/discard {reason, note?, witness?} (Idempotency-Key): sealed or in use →
// discarded, what is left booked as DISCARD ("other" needs a note). Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { discardVial } from "~/vials/discard.server";
import { DiscardBody } from "~/vials/forms";

export const action = vialAction(DiscardBody, (db, actor, { itemId, body, idempotencyKey }) =>
  discardVial(db, actor, { ...body, itemId, idempotencyKey }),
);
export { postOnly as loader } from "~/http/api.server";
