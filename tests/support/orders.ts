// Purchase orders for receiving tests, written with plain SQL (the purchasing verbs are another
// domain's): an order of one vendor at one location, numbered as the verbs number them, its lines
// added while it is submitted, then brought to the status the test needs (the triggers allow lines
// only on an order that is not received, closed or cancelled).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "../../app/db/client.server";
import type { PurchaseOrderStatus } from "../../db/schema/purchasing/constants";

export interface OrderLineToInsert {
  variationId: string;
  packages: number;
  /** Packages already received (as earlier receipts would have left it); 0 by default. */
  received?: number;
  unitCostCents: number;
}

export interface OrderToInsert {
  locationId: string;
  vendorId: string;
  status: PurchaseOrderStatus;
  lines: readonly OrderLineToInsert[];
  createdBy?: string | null;
}

/** Inserts the order and its lines; its id and number. */
export async function insertOrder(db: Database, order: OrderToInsert): Promise<{ id: string; number: string }> {
  const id = uuidv7();
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();
  const [head] = await db.all<{ number: string }>(sql`INSERT INTO purchase_orders (id, organization_id, location_id,
      vendor_id, year, sequence, number, status, created_by, created_at, submitted_by, submitted_at)
    SELECT ${id}, loc.organization_id, loc.id, ${order.vendorId}, ${year}, seq.n,
      printf('PO-%d-%04d', ${year}, seq.n), 'submitted', ${order.createdBy ?? null}, ${now},
      ${order.createdBy ?? null}, ${now}
    FROM locations AS loc, (SELECT coalesce(max(po.sequence), 0) + 1 AS n FROM purchase_orders AS po
      JOIN locations AS l ON l.organization_id = po.organization_id
      WHERE l.id = ${order.locationId} AND po.year = ${year}) AS seq
    WHERE loc.id = ${order.locationId}
    RETURNING number`);
  if (!head) throw new Error(`no location ${order.locationId}`);
  for (const line of order.lines) {
    await db.run(sql`INSERT INTO purchase_order_lines (id, order_id, variation_id, packages_ordered, units_per_package,
        unit_cost_cents, packages_received, created_at)
      SELECT ${uuidv7()}, ${id}, v.id, ${line.packages}, v.units_per_package, ${line.unitCostCents},
        ${line.received ?? 0}, ${now}
      FROM product_variations AS v WHERE v.id = ${line.variationId}`);
  }
  if (order.status !== "submitted") await setOrderStatus(db, id, order.status);
  return { id, number: head.number };
}

/** Moves an order to `status` as the purchasing verbs would leave it (closing and cancelling stamp when). */
export async function setOrderStatus(db: Database, orderId: string, status: PurchaseOrderStatus) {
  const now = Date.now();
  await db.run(sql`UPDATE purchase_orders SET status = ${status}, version = version + 1,
      submitted_at = CASE WHEN ${status} = 'draft' THEN NULL ELSE submitted_at END,
      closed_at = CASE WHEN ${status} = 'closed' THEN ${now} END,
      close_reason = CASE WHEN ${status} = 'closed' THEN 'test' END,
      cancelled_at = CASE WHEN ${status} = 'cancelled' THEN ${now} END
    WHERE id = ${orderId}`);
}

/** The order's status and each line's received packages by variation. */
export async function orderState(db: Database, orderId: string) {
  const [heads, lines] = await db.batch([
    db.all<{ status: string; version: number }>(sql`SELECT status, version FROM purchase_orders WHERE id = ${orderId}`),
    db.all<{ variationId: string; received: number }>(sql`SELECT variation_id AS variationId,
        packages_received AS received FROM purchase_order_lines WHERE order_id = ${orderId}`),
  ]);
  return {
    status: heads[0]?.status,
    version: Number(heads[0]?.version),
    received: Object.fromEntries(lines.map((l) => [l.variationId, Number(l.received)])),
  };
}
