// Closing an order (WRITE_PURCHASING at its location): a received one is done with; a submitted
// or partly received one with lines outstanding is closed only with a reason ("Closing an order
// with lines outstanding asks for a reason"): what did not come is no longer on order. No receipt
// against it may still be open (its completion would advance a closed order).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, rememberKey } from "~/http/idempotency.server";
import { CloseInput } from "./forms";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, type PurchasingRefused, refuse } from "./outcome";
import { hasOpenReceipt, noOpenReceipt, outstanding, type PurchaseOrder, reached } from "./read.server";

type Closed = { orderId: string; number: string; status: "closed"; outstandingPackages: number };

/** Why the order as read cannot be closed with `reason`, in words; null when it can. */
function closeProblem(order: PurchaseOrder, reason: string | null): PurchasingRefused | null {
  if (order.status === "received") return null;
  if (order.status !== "submitted" && order.status !== "partially_received") return refuse("not_closable");
  if (!reason) return refuse("close_reason_needed");
  return null;
}

export async function closePurchaseOrder(db: Database, actor: ScopedActor, sent: CloseInput): Promise<Outcome<Closed>> {
  const read = CloseInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { orderId, reason, idempotencyKey } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `purchase_order_close:${orderId}`, { reason });
  const found = await orderToChange<Closed>(db, actor, orderId, key);
  if ("answer" in found) return found.answer;
  const { order } = found;
  const problem = closeProblem(order, reason);
  if (problem) return problem;
  const left = order.lines.reduce((n, l) => n + outstanding(l), 0);
  const at = Date.now();
  const guard = sql`o.id = ${order.id} AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)}
    AND (o.status = 'received' OR (o.status IN ('submitted', 'partially_received') AND ${reason} IS NOT NULL))
    AND ${noOpenReceipt} AND ${keyUnused(key)}`;
  const { updated } = await changeWithActivity(db, {
    from: sql`purchase_orders AS o`,
    guard,
    activity: {
      userId: actor.id,
      locationId: order.locationId,
      action: "close_purchase_order",
      entity: "purchase_order",
      entityId: order.id,
      summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'was', o.status, 'reason', ${reason},
        'outstandingPackages', (SELECT coalesce(sum(max(x.packages_ordered - x.packages_received, 0)), 0)
          FROM purchase_order_lines AS x WHERE x.order_id = o.id))`,
    },
    update: db.all<{ id: string }>(sql`UPDATE purchase_orders AS o SET status = 'closed', closed_by = ${actor.id},
        closed_at = ${at}, close_reason = ${reason}, updated_at = ${at}, version = version + 1
      WHERE ${guard} RETURNING id`),
    readBack: rememberKey(
      db,
      key,
      sql`json_object('ok', json('true'), 'orderId', o.id, 'number', o.number, 'status', 'closed',
        'outstandingPackages', ${left})`,
      sql`FROM purchase_orders AS o WHERE o.id = ${order.id} AND o.closed_at = ${at} AND o.closed_by = ${actor.id}`,
    ),
  });
  if (updated.length === 1) {
    return { ok: true, orderId: order.id, number: order.number, status: "closed", outstandingPackages: left };
  }
  // Not written: the key's answer (a replay), else why, as the order now stands.
  const now = await orderToChange<Closed>(db, actor, orderId, key);
  if ("answer" in now) return now.answer;
  if (await hasOpenReceipt(db, orderId)) return refuse("receipt_open");
  return closeProblem(now.order, reason) || refuse("changed");
}
