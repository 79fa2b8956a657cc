// Cancelling an order that will not be bought (WRITE_PURCHASING at its location): a draft, with
// an optional reason, or a submitted order of which nothing has arrived, with a reason (the
// vendor was told). Its lines stay as history; no receipt against it may still be open.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, rememberKey } from "~/http/idempotency.server";
import { CancelInput } from "./forms";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, type PurchasingRefused, refuse } from "./outcome";
import { hasOpenReceipt, noOpenReceipt, type PurchaseOrder, reached } from "./read.server";

type Cancelled = { orderId: string; number: string; status: "cancelled" };

/** Why the order as read cannot be cancelled with `reason`, in words; null when it can. */
function cancelProblem(order: PurchaseOrder, reason: string | null): PurchasingRefused | null {
  if (order.status !== "draft" && order.status !== "submitted") return refuse("not_cancellable");
  if (order.lines.some((l) => l.packagesReceived > 0)) return refuse("not_cancellable");
  if (order.status === "submitted" && !reason) return refuse("reason_needed");
  return null;
}

export async function cancelPurchaseOrder(
  db: Database,
  actor: ScopedActor,
  sent: CancelInput,
): Promise<Outcome<Cancelled>> {
  const read = CancelInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { orderId, reason, idempotencyKey } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `purchase_order_cancel:${orderId}`, { reason });
  const found = await orderToChange<Cancelled>(db, actor, orderId, key);
  if ("answer" in found) return found.answer;
  const { order } = found;
  const problem = cancelProblem(order, reason);
  if (problem) return problem;
  const at = Date.now();
  const guard = sql`o.id = ${order.id} AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)}
    AND (o.status = 'draft' OR (o.status = 'submitted' AND ${reason} IS NOT NULL))
    AND NOT EXISTS (SELECT 1 FROM purchase_order_lines AS x WHERE x.order_id = o.id AND x.packages_received > 0)
    AND ${noOpenReceipt} AND ${keyUnused(key)}`;
  const { updated } = await changeWithActivity(db, {
    from: sql`purchase_orders AS o`,
    guard,
    activity: {
      userId: actor.id,
      locationId: order.locationId,
      action: "cancel_purchase_order",
      entity: "purchase_order",
      entityId: order.id,
      summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'was', o.status, 'reason', ${reason})`,
    },
    update: db.all<{ id: string }>(sql`UPDATE purchase_orders AS o SET status = 'cancelled', cancelled_by = ${actor.id},
        cancelled_at = ${at}, cancel_reason = ${reason}, updated_at = ${at}, version = version + 1
      WHERE ${guard} RETURNING id`),
    readBack: rememberKey(
      db,
      key,
      sql`json_object('ok', json('true'), 'orderId', o.id, 'number', o.number, 'status', 'cancelled')`,
      sql`FROM purchase_orders AS o WHERE o.id = ${order.id} AND o.cancelled_at = ${at} AND o.cancelled_by = ${actor.id}`,
    ),
  });
  if (updated.length === 1) return { ok: true, orderId: order.id, number: order.number, status: "cancelled" };
  // Not written: the key's answer (a replay), else why, as the order now stands.
  const now = await orderToChange<Cancelled>(db, actor, orderId, key);
  if ("answer" in now) return now.answer;
  if (await hasOpenReceipt(db, orderId)) return refuse("receipt_open");
  return cancelProblem(now.order, reason) || refuse("changed");
}
