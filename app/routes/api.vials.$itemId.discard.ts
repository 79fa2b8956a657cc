// POST /api/vials/{id}/discard {reason, note?, witness?} (Idempotency-Key): sealed or in use →
// discarded, what is left booked as DISCARD ("other" needs a note). Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { discardVial } from "~/vials/discard.server";

export const action = vialAction(discardVial);
export { postOnly as loader } from "~/http/api.server";
