// Submitting a draft with at least one line (WRITE_PURCHASING at its location): it is sent to the
// vendor, and from now on changes only by a recorded revision. Guarded on the draft as read (its
// version: a line added or changed in between submits nothing).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { SubmitInput } from "./forms";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, refuse } from "./outcome";
import { orderTotal, reached } from "./read.server";

type Submitted = { orderId: string; number: string; status: "submitted" };

export async function submitPurchaseOrder(
  db: Database,
  actor: ScopedActor,
  sent: SubmitInput,
): Promise<Outcome<Submitted>> {
  const read = SubmitInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { orderId, version, idempotencyKey } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `purchase_order_submit:${orderId}`, { version });
  const found = await orderToChange<Submitted>(db, actor, orderId, key);
  if ("answer" in found) return found.answer;
  const { order } = found;
  if (order.status !== "draft") return refuse("not_draft", "This order was already submitted.");
  if (order.lines.length === 0) return refuse("empty");
  if (version !== undefined && version !== order.version) return refuse("changed");
  const at = Date.now();
  const guard = sql`o.id = ${order.id} AND o.status = 'draft' AND o.version = ${order.version}
    AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)} AND ${keyUnused(key)}
    AND EXISTS (SELECT 1 FROM purchase_order_lines AS x WHERE x.order_id = o.id)`;
  const { updated } = await changeWithActivity(db, {
    from: sql`purchase_orders AS o`,
    guard,
    activity: {
      userId: actor.id,
      locationId: order.locationId,
      action: "submit_purchase_order",
      entity: "purchase_order",
      entityId: order.id,
      summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'lines', ${order.lines.length},
        'totalCents', ${orderTotal(order.lines)})`,
    },
    update: db.all<{ id: string }>(sql`UPDATE purchase_orders AS o SET status = 'submitted', submitted_by = ${actor.id},
        submitted_at = ${at}, updated_at = ${at}, version = version + 1
      WHERE ${guard} RETURNING id`),
    readBack: rememberKey(
      db,
      key,
      sql`json_object('ok', json('true'), 'orderId', o.id, 'number', o.number, 'status', 'submitted')`,
      sql`FROM purchase_orders AS o WHERE o.id = ${order.id} AND o.submitted_at = ${at} AND o.submitted_by = ${actor.id}`,
    ),
  });
  if (updated.length === 1) return { ok: true, orderId: order.id, number: order.number, status: "submitted" };
  const replay = replayOf<Outcome<Submitted>>(await recallKey(db, key), key);
  if (replay.replay) return replay.answer;
  return refuse("changed");
}
