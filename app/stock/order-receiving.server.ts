// What a purchase order still expects, and how a completed receipt advances it: the SQL receiving
// needs from purchasing's tables, kept here so that neither domain imports the other (receiving
// writes it, purchasing's order page reads the same tables). The statements are parts of the
// receiving verbs' batches: `advanceOrder` is the receipt's completion, in the SAME batch, guarded by
// the same "this completion closed the receipt" subquery, and it reads the order's lines as they
// are in that batch, so two receipts completing at once against one order both count.
//
// A line still expects max(ordered − received, 0) packages. A receipt brings more than the order
// expects when, for any variation, its packages exceed that (a variation not on the order expects
// 0): such a receipt is completed only with a reason (receipts.over_receipt_reason).
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { ON_ORDER_STATUSES, type PurchaseOrderStatus } from "../../db/schema/purchasing/constants";

/** The statuses a receipt may be opened against: what is on order. */
export const RECEIVABLE_STATUSES = ON_ORDER_STATUSES;
/** The statuses a receipt already open against an order may still complete against ('received': only over). */
export const COMPLETABLE_STATUSES = [...ON_ORDER_STATUSES, "received"] as const;

const listed = (statuses: readonly string[]) =>
  sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  );

/** Packages a line of `pol` still expects: ordered − received, never below 0. */
export const OUTSTANDING = sql`max(pol.packages_ordered - pol.packages_received, 0)`;

/** Orders where `actor` may receive: WRITE_INVENTORY and READ_PURCHASING at its location (as SQL on `po`). */
export function receivableHere(actor: ScopedActor): SQL {
  return sql`po.organization_id = ${organizationOf(actor)}
    AND ${locationsFor(actor, "WRITE_INVENTORY").where(sql`po.location_id`)}
    AND ${locationsFor(actor, "READ_PURCHASING").where(sql`po.location_id`)}`;
}

/**
 * Whether the receipt `receiptId` brings more of any variation than its order still expects (SQL,
 * false for a receipt without an order). Read before the order's lines are advanced.
 */
export function bringsMoreThanExpected(receiptId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM receipts AS over_r
    JOIN (SELECT l.variation_id, sum(l.quantity) AS packages FROM receipt_lines AS l
      WHERE l.receipt_id = ${receiptId} GROUP BY l.variation_id) AS got
    WHERE over_r.id = ${receiptId} AND over_r.purchase_order_id IS NOT NULL
      AND got.packages > coalesce((SELECT ${OUTSTANDING} FROM purchase_order_lines AS pol
        WHERE pol.order_id = over_r.purchase_order_id AND pol.variation_id = got.variation_id), 0))`;
}

/** Whether the receipt's order is still one it may complete against (same location, not closed or cancelled). */
export function orderStillReceivable(receiptId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM receipts AS ok_r JOIN purchase_orders AS po ON po.id = ok_r.purchase_order_id
    WHERE ok_r.id = ${receiptId} AND po.location_id = ok_r.location_id
      AND po.status IN (${listed(COMPLETABLE_STATUSES)}))`;
}

/**
 * The statements that advance the order of a receipt just completed, for the completion's batch:
 * each order line gains the packages the receipt brought of its variation; then the order is
 * 'received' when no line expects more, 'partially_received' once anything arrived; then its
 * receive_purchase_order activity row. `orderId` is a scalar subquery that is the order's id only
 * if THIS completion closed the receipt (NULL otherwise: then nothing here matches).
 */
export function advanceOrder(
  db: Database,
  actor: ScopedActor,
  receiptId: string,
  orderId: SQL,
  at: number,
  activityId: string,
) {
  return [
    db.run(sql`UPDATE purchase_order_lines SET updated_at = ${at},
        packages_received = packages_received + (SELECT sum(l.quantity) FROM receipt_lines AS l
          WHERE l.receipt_id = ${receiptId} AND l.variation_id = purchase_order_lines.variation_id)
      WHERE order_id = ${orderId}
        AND variation_id IN (SELECT l.variation_id FROM receipt_lines AS l WHERE l.receipt_id = ${receiptId})`),
    db.run(sql`UPDATE purchase_orders SET version = version + 1, updated_at = ${at},
        status = CASE
          WHEN NOT EXISTS (SELECT 1 FROM purchase_order_lines AS pol WHERE pol.order_id = purchase_orders.id
            AND pol.packages_received < pol.packages_ordered) THEN 'received'
          WHEN EXISTS (SELECT 1 FROM purchase_order_lines AS pol WHERE pol.order_id = purchase_orders.id
            AND pol.packages_received > 0) THEN 'partially_received'
          ELSE status END
      WHERE id = ${orderId} AND status IN (${listed(COMPLETABLE_STATUSES)})`),
    db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
      SELECT ${activityId}, ${at}, ${actor.id}, po.location_id, 'receive_purchase_order', 'purchase_order', po.id,
        json_object('number', po.number, 'vendor', (SELECT name FROM vendors WHERE id = po.vendor_id),
          'receiptId', r.id, 'status', po.status, 'overReceiptReason', r.over_receipt_reason,
          'received', (SELECT json_group_array(json_object('variationId', l.variation_id,
              'product', p.name || ' · ' || v.name, 'packages', l.quantity, 'lot', l.lot,
              'expirationDate', l.expiration_date))
            FROM receipt_lines AS l JOIN product_variations AS v ON v.id = l.variation_id
              JOIN products AS p ON p.id = v.product_id WHERE l.receipt_id = r.id))
      FROM purchase_orders AS po JOIN receipts AS r ON r.id = ${receiptId}
      WHERE po.id = ${orderId}`),
  ] as const;
}

/** The order a receipt answers, as its page shows it. */
export interface ReceiptOrder {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  vendor: string;
}

/** One line of that order: what it still expects, and how much of it is already on this receipt. */
export interface ExpectedLine {
  variationId: string;
  product: string;
  variation: string;
  tracking: "serialized" | "bulk";
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  vendorSku: string | null;
  packagesOrdered: number;
  packagesReceived: number;
  /** Packages still expected (ordered − received, never below 0). */
  outstanding: number;
  unitCostCents: number;
  /** Packages of this variation already on the receipt. */
  onReceipt: number;
}

/** The two reads of a receipt's order, for the receipt page's batch (empty for a receipt without one). */
export function receiptOrderReads(db: Database, receiptId: string, reached: SQL) {
  return [
    db.all<ReceiptOrder>(sql`SELECT po.id, po.number, po.status, vendor.name AS vendor
      FROM receipts AS r JOIN purchase_orders AS po ON po.id = r.purchase_order_id
        JOIN vendors AS vendor ON vendor.id = po.vendor_id
      WHERE r.id = ${receiptId} AND r.id IN ${reached}`),
    db.all<ExpectedLine>(sql`SELECT pol.variation_id AS variationId, p.name AS product, v.name AS variation,
        p.tracking, p.base_unit AS baseUnit, p.unit_scale AS unitScale, pol.units_per_package AS unitsPerPackage,
        pol.vendor_sku AS vendorSku, pol.packages_ordered AS packagesOrdered,
        pol.packages_received AS packagesReceived, ${OUTSTANDING} AS outstanding,
        pol.unit_cost_cents AS unitCostCents,
        (SELECT coalesce(sum(l.quantity), 0) FROM receipt_lines AS l WHERE l.receipt_id = r.id
          AND l.variation_id = pol.variation_id) AS onReceipt
      FROM receipts AS r JOIN purchase_order_lines AS pol ON pol.order_id = r.purchase_order_id
        JOIN product_variations AS v ON v.id = pol.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE r.id = ${receiptId} AND r.id IN ${reached}
      ORDER BY p.name, v.name, pol.id`),
  ] as const;
}

/** What the order of receipt `receiptId` expects of one variation, for a scan's prefill; null when none. */
export function expectedOfVariation(db: Database, receiptId: string, variationId: SQL | string) {
  return db.all<{ outstanding: number; onReceipt: number; unitCostCents: number }>(sql`SELECT
      ${OUTSTANDING} AS outstanding, pol.unit_cost_cents AS unitCostCents,
      (SELECT coalesce(sum(l.quantity), 0) FROM receipt_lines AS l WHERE l.receipt_id = r.id
        AND l.variation_id = pol.variation_id) AS onReceipt
    FROM receipts AS r JOIN purchase_order_lines AS pol ON pol.order_id = r.purchase_order_id
    WHERE r.id = ${receiptId} AND pol.variation_id = ${variationId}`);
}

/** The unit cost the order agreed for a variation of receipt `r` (SQL on `r` and `v`), NULL when not on it. */
export const ORDER_UNIT_COST = sql`(SELECT pol.unit_cost_cents FROM purchase_order_lines AS pol
  WHERE pol.order_id = r.purchase_order_id AND pol.variation_id = v.id)`;

/** An order awaiting delivery, as the Start receiving form offers it. */
export interface AwaitedOrder {
  id: string;
  number: string;
  vendor: string;
  locationId: string;
  locationCode: string;
}

/** At most this many awaited orders are offered (newest first); a larger backlog is reached from the order. */
export const AWAITED_ORDERS_MAX = 100;

/** The orders still on order where `actor` may receive them, newest first. */
export function awaitedOrders(db: Database, actor: ScopedActor) {
  return db.all<AwaitedOrder>(sql`SELECT po.id, po.number, vendor.name AS vendor, po.location_id AS locationId,
      loc.code AS locationCode
    FROM purchase_orders AS po JOIN vendors AS vendor ON vendor.id = po.vendor_id
      JOIN locations AS loc ON loc.id = po.location_id
    WHERE ${receivableHere(actor)} AND po.status IN (${listed(RECEIVABLE_STATUSES)})
    ORDER BY po.created_at DESC, po.id DESC LIMIT ${AWAITED_ORDERS_MAX}`);
}
