// POST /api/transfers/{id}/cancel {reason?} (Idempotency-Key): a request or a draft is given up
// (WRITE_TRANSFERS at either location). Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { transferWrite } from "~/transfers/api.server";
import { cancelTransfer } from "~/transfers/cancel.server";
import { CancelBody } from "~/transfers/forms";

export async function action(args: ActionFunctionArgs) {
  return transferWrite(args, "WRITE_TRANSFERS", async (db, actor, transferId) => {
    const body = await readJsonBody(args.request, CancelBody);
    const idempotencyKey = idempotencyKeyOf(args.request);
    return cancelTransfer(db, actor, { ...body, transferId, idempotencyKey });
  });
}
export { postOnly as loader } from "~/http/api.server";
