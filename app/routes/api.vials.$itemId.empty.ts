// POST /api/vials/{id}/empty {witness?: {email, password}} (Idempotency-Key): in use → empty, what
// is left booked as waste (a controlled product with units left needs the witness). Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { emptyVial } from "~/vials/empty.server";
import { EmptyBody } from "~/vials/forms";

export const action = vialAction(EmptyBody, (db, actor, { itemId, body, idempotencyKey }) =>
  emptyVial(db, actor, { itemId, witness: body.witness, idempotencyKey }),
);
export { postOnly as loader } from "~/http/api.server";
