// POST /api/vials/{id}/empty {witness?: {email, password}} (Idempotency-Key): in use → empty, what
// is left booked as waste (a controlled product with units left needs the witness). Answers {vial}.
import { vialAction } from "~/vials/api.server";
import { emptyVial } from "~/vials/empty.server";

export const action = vialAction(emptyVial);
export { postOnly as loader } from "~/http/api.server";
