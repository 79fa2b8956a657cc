// POST /api/purchase-orders/{id}/cancel {reason?} (Idempotency-Key): a draft, or a submitted order
// of which nothing arrived (then with a reason), is cancelled (WRITE_PURCHASING at its location).
// Answers the order.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { orderWritten } from "~/purchasing/api.server";
import { cancelPurchaseOrder } from "~/purchasing/cancel.server";
import { ReasonBody } from "~/purchasing/forms";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_PURCHASING");
  const body = await readJsonBody(args.request, ReasonBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const orderId = args.params.id ?? "";
  const outcome = await orOutage(cancelPurchaseOrder(args.context.db, actor, { ...body, orderId, idempotencyKey }));
  return orderWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
