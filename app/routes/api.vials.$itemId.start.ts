// POST /api/vials/{id}/start {startedAt?} (Idempotency-Key): sealed → in use, its Use-By Deadline
// counted from startedAt (when it was started at the cart; now when not given). Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { startVial } from "~/vials/start.server";

export const action = vialAction(startVial);
export { postOnly as loader } from "~/http/api.server";
