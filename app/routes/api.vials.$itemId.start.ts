// POST /api/vials/{id}/start (no body; Idempotency-Key): sealed → in use. Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { startVial } from "~/vials/start.server";

export const action = vialAction(startVial);
export { postOnly as loader } from "~/http/api.server";
