// Taking a line off a draft (WRITE_PURCHASING at its location): a wrong product, one not needed
// after all. A submitted order loses a line only by a revision, before any of it arrived.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { RemoveLineInput } from "./forms";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, refuse } from "./outcome";
import { reached } from "./read.server";

export async function removeOrderLine(
  db: Database,
  actor: ScopedActor,
  sent: RemoveLineInput,
): Promise<Outcome<{ orderId: string; product: string }>> {
  const read = RemoveLineInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input = read.data;
  const found = await orderToChange<{ orderId: string; product: string }>(db, actor, input.orderId, null);
  if ("answer" in found) return found.answer;
  const { order } = found;
  if (order.status !== "draft") return refuse("not_draft");
  const line = order.lines.find((l) => l.id === input.lineId);
  if (!line) return refuse("line_not_found");
  if (input.version !== undefined && input.version !== order.version) return refuse("changed");
  const product = `${line.product} · ${line.variation}`;
  const guard = sql`l.id = ${line.id} AND l.order_id = ${order.id} AND o.status = 'draft'
    AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)}
    ${input.version !== undefined ? sql`AND o.version = ${input.version}` : sql``}`;
  const [, removed] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: order.locationId,
        action: "remove_purchase_order_line",
        entity: "purchase_order",
        entityId: order.id,
        summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'product', ${product},
          'lineId', l.id, 'packages', l.packages_ordered)`,
      },
      sql`FROM purchase_order_lines AS l JOIN purchase_orders AS o ON o.id = l.order_id WHERE ${guard}`,
    ),
    db.all<{ id: string }>(sql`DELETE FROM purchase_order_lines WHERE id IN (SELECT l.id FROM purchase_order_lines AS l
        JOIN purchase_orders AS o ON o.id = l.order_id WHERE ${guard})
      RETURNING id`),
  ]);
  if (removed.length !== 1) return refuse("changed");
  return { ok: true, orderId: order.id, product };
}
