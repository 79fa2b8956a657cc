// POST /api/purchase-orders/{id}/close {reason?} (Idempotency-Key): a received order is closed; a
// submitted or partly received one with lines outstanding only with a reason (WRITE_PURCHASING at
// its location). Answers the order.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { orderWritten } from "~/purchasing/api.server";
import { closePurchaseOrder } from "~/purchasing/close.server";
import { ReasonBody } from "~/purchasing/forms";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_PURCHASING");
  const body = await readJsonBody(args.request, ReasonBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const orderId = args.params.id ?? "";
  const outcome = await orOutage(closePurchaseOrder(args.context.db, actor, { ...body, orderId, idempotencyKey }));
  return orderWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
