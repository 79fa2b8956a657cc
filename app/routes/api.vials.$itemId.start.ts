// POST /api/vials/{id}/start (no body; Idempotency-Key): sealed → in use. Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { StartForm } from "~/vials/forms";
import { startVial } from "~/vials/start.server";

export const action = vialAction(StartForm, (db, actor, { itemId, idempotencyKey }) =>
  startVial(db, actor, { itemId, idempotencyKey }),
);
export { postOnly as loader } from "~/http/api.server";
