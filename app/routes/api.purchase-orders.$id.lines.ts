// POST /api/purchase-orders/{id}/lines {lines: [{variationId, packages, unitCostCents?, vendorSku?,
// expectedOn?}]} (Idempotency-Key): lines added to a draft (WRITE_PURCHASING at its location).
// Answers the order.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { addOrderLines } from "~/purchasing/add-lines.server";
import { orderWritten } from "~/purchasing/api.server";
import { AddLinesBody } from "~/purchasing/forms";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_PURCHASING");
  const body = await readJsonBody(args.request, AddLinesBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const orderId = args.params.id ?? "";
  const outcome = await orOutage(addOrderLines(args.context.db, actor, { ...body, orderId, idempotencyKey }));
  return orderWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
