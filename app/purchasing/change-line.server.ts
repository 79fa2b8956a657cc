// Changing a line of a draft (WRITE_PURCHASING at its location): its packages, unit cost, the
// vendor's SKU and the expected date. The activity row records only what changed; a save that
// changes nothing writes nothing. Guarded on the draft's version when the form names the one it
// read, so two people editing the same draft cannot overwrite each other unseen.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { ChangeLineInput } from "./forms";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, refuse } from "./outcome";
import { reached } from "./read.server";

type Changed = { orderId: string; lineId: string; product: string; changed: boolean };

export async function changeOrderLine(
  db: Database,
  actor: ScopedActor,
  sent: ChangeLineInput,
): Promise<Outcome<Changed>> {
  const read = ChangeLineInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input = read.data;
  const found = await orderToChange<Changed>(db, actor, input.orderId, null);
  if ("answer" in found) return found.answer;
  const { order } = found;
  if (order.status !== "draft") return refuse("not_draft");
  const line = order.lines.find((l) => l.id === input.lineId);
  if (!line) return refuse("line_not_found");
  if (input.version !== undefined && input.version !== order.version) return refuse("changed");
  const product = `${line.product} · ${line.variation}`;
  const before = {
    packages: line.packagesOrdered,
    unitCostCents: line.unitCostCents,
    vendorSku: line.vendorSku,
    expectedOn: line.expectedOn,
  };
  const after = {
    packages: input.packages,
    unitCostCents: input.unitCostCents,
    vendorSku: input.vendorSku,
    expectedOn: input.expectedOn,
  };
  const changedKeys = (Object.keys(after) as (keyof typeof after)[]).filter((k) => before[k] !== after[k]);
  if (changedKeys.length === 0) return { ok: true, orderId: order.id, lineId: line.id, product, changed: false };
  const pick = (o: Record<string, unknown>) => Object.fromEntries(changedKeys.map((k) => [k, o[k]]));
  const at = Date.now();
  const guard = sql`l.id = ${line.id} AND l.order_id = ${order.id} AND o.status = 'draft'
    AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)}
    ${input.version !== undefined ? sql`AND o.version = ${input.version}` : sql``}`;
  const [, updated] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: order.locationId,
        action: "change_purchase_order_line",
        entity: "purchase_order",
        entityId: order.id,
        summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'product', ${product},
          'lineId', l.id, 'before', json(${JSON.stringify(pick(before))}), 'after', json(${JSON.stringify(pick(after))}))`,
      },
      sql`FROM purchase_order_lines AS l JOIN purchase_orders AS o ON o.id = l.order_id WHERE ${guard}`,
    ),
    db.all<{ id: string }>(sql`UPDATE purchase_order_lines SET packages_ordered = ${input.packages},
        unit_cost_cents = ${input.unitCostCents}, vendor_sku = ${input.vendorSku}, expected_on = ${input.expectedOn},
        updated_at = ${at}
      WHERE id IN (SELECT l.id FROM purchase_order_lines AS l JOIN purchase_orders AS o ON o.id = l.order_id
        WHERE ${guard})
      RETURNING id`),
  ]);
  if (updated.length !== 1) return refuse("changed");
  return { ok: true, orderId: order.id, lineId: line.id, product, changed: true };
}
