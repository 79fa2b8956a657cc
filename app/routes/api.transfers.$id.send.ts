// POST /api/transfers/{id}/send (Idempotency-Key): a draft leaves its sender (WRITE_TRANSFERS
// there): vials in transit, TRANSFER_OUT of everything on it. Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { idempotencyKeyOf, readJsonObject } from "~/http/api.server";
import { transferWrite } from "~/transfers/api.server";
import { sendTransfer } from "~/transfers/send.server";

export async function action(args: ActionFunctionArgs) {
  return transferWrite(args, "WRITE_TRANSFERS", async (db, actor, transferId) => {
    await readJsonObject(args.request);
    const idempotencyKey = idempotencyKeyOf(args.request);
    return sendTransfer(db, actor, { transferId, idempotencyKey });
  });
}
export { postOnly as loader } from "~/http/api.server";
