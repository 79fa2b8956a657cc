// POST /api/transfers/{id}/receive {lines: [{lineId, status: "received"|"missing"|"damaged"|"short",
// quantity?, reason?}]} (Idempotency-Key): lines of a transfer on its way arrive at its destination
// (WRITE_INVENTORY there). Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { transferWritten } from "~/transfers/api.server";
import { ReceiveBody } from "~/transfers/forms";
import { receiveTransfer } from "~/transfers/receive.server";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_INVENTORY");
  const body = await readJsonBody(args.request, ReceiveBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const transferId = args.params.id ?? "";
  const outcome = await orOutage(receiveTransfer(args.context.db, actor, { ...body, transferId, idempotencyKey }));
  return transferWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
