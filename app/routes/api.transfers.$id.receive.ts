// POST /api/transfers/{id}/receive {lines: [{lineId, status: "received"|"missing"|"damaged"|"short",
// quantity?, reason?}]} (Idempotency-Key): lines of a transfer on its way arrive at its destination
// (WRITE_INVENTORY there). Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { transferWrite } from "~/transfers/api.server";
import { ReceiveBody } from "~/transfers/forms";
import { receiveTransfer } from "~/transfers/receive.server";

export async function action(args: ActionFunctionArgs) {
  return transferWrite(args, "WRITE_INVENTORY", async (db, actor, transferId) => {
    const body = await readJsonBody(args.request, ReceiveBody);
    const idempotencyKey = idempotencyKeyOf(args.request);
    return receiveTransfer(db, actor, { ...body, transferId, idempotencyKey });
  });
}
export { postOnly as loader } from "~/http/api.server";
