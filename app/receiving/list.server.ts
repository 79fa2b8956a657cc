// What the receiving screens read, one batch each: a page of the receipts in scope (open first,
// then newest) with the vendors a new receipt may name, and one receipt with its lines and the
// variations a line may add (and, against a purchase order, the order and what it still expects).

import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { ORGANIZATION } from "~/access/permissions";
import { idsReached } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { awaitedOrders, bringsMoreThanExpected, receiptOrderReads } from "~/stock/order-receiving.server";
import { numberedPage, pageOffset } from "~/ui/page-count";
import type { ReceiptStatus } from "../../db/schema/stock/constants";
import { RECEIPTS_PAGE_SIZE, type ReceiptStatusFilter } from "./constants";

export interface ReceiptRow {
  id: string;
  status: ReceiptStatus;
  createdAt: number;
  completedAt: number | null;
  reference: string | null;
  notes: string | null;
  vendor: string | null;
  locationId: string;
  location: string;
  locationCode: string;
  timezone: string;
  openedBy: string | null;
  completedBy: string | null;
  lines: number;
  packages: number;
  /** The purchase order it answers, by its number. */
  orderNumber: string | null;
}

const RECEIPT_COLUMNS = sql`r.id, r.status, r.created_at AS createdAt, r.completed_at AS completedAt, r.reference,
  r.notes, vendor.name AS vendor, r.location_id AS locationId, loc.name AS location, loc.code AS locationCode,
  loc.timezone,
  (SELECT opener.first_name || ' ' || opener.last_name FROM users AS opener WHERE opener.id = r.opened_by) AS openedBy,
  (SELECT closer.first_name || ' ' || closer.last_name FROM users AS closer WHERE closer.id = r.completed_by)
    AS completedBy,
  (SELECT count(*) FROM receipt_lines AS l WHERE l.receipt_id = r.id) AS lines,
  (SELECT coalesce(sum(l.quantity), 0) FROM receipt_lines AS l WHERE l.receipt_id = r.id) AS packages,
  (SELECT po.number FROM purchase_orders AS po WHERE po.id = r.purchase_order_id) AS orderNumber`;

/** What a receipt's columns read beside it: its location and vendor. */
const RECEIPT_JOINS = sql`JOIN locations AS loc ON loc.id = r.location_id
  LEFT JOIN vendors AS vendor ON vendor.id = r.vendor_id`;

const RECEIPT_FROM = sql`FROM receipts AS r ${RECEIPT_JOINS}`;

function withStatus(status: ReceiptStatusFilter): SQL {
  return status === "all" ? sql`` : sql`AND r.status = ${status}`;
}

/** The active vendors of the organization, by name: who a new receipt may name. */
function vendorChoices(db: Database, actor: ScopedActor) {
  return db.all<{ id: string; name: string }>(sql`SELECT id, name FROM vendors
    WHERE organization_id = ${organizationOf(actor)} AND active = 1 ORDER BY name, id`);
}

export async function listReceipts(
  db: Database,
  actor: ScopedActor,
  query: { status: ReceiptStatusFilter; page: number },
) {
  const where = sql`WHERE r.id IN ${idsReached("receipts", actor, "READ_INVENTORY")} ${withStatus(query.status)}`;
  const order = sql`ORDER BY r.status = 'open' DESC, r.created_at DESC, r.id DESC`;
  const [receipts, totals, vendors, orders] = await db.batch([
    // The page's receipts are chosen on the receipts alone, then only those 25 get their names and
    // line totals: computed before the sort, they were worked out for every receipt of the location.
    db.all<ReceiptRow>(sql`SELECT ${RECEIPT_COLUMNS}
      FROM (SELECT r.id FROM receipts AS r ${where} ${order}
        LIMIT ${RECEIPTS_PAGE_SIZE} OFFSET ${pageOffset(query.page, RECEIPTS_PAGE_SIZE)}) AS page
      CROSS JOIN receipts AS r ON r.id = page.id ${RECEIPT_JOINS}
      ${order}`),
    db.all<{ total: number }>(sql`SELECT count(*) AS total FROM receipts AS r ${where}`),
    vendorChoices(db, actor),
    awaitedOrders(db, actor),
  ]);
  return {
    receipts,
    /** Purchase orders awaiting delivery where the actor may receive them (Start receiving offers them). */
    orders,
    ...numberedPage(totals, query.page, RECEIPTS_PAGE_SIZE),
    vendors,
    organizationMode: actor.locationId === ORGANIZATION,
  };
}

export interface ReceiptLineRow {
  id: string;
  variationId: string;
  product: string;
  productId: string;
  variation: string;
  tracking: "serialized" | "bulk";
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  quantity: number;
  lot: string | null;
  serial: string | null;
  expirationDate: string | null;
  /** Why an expired or far-future lot was received anyway. */
  expiryReason: string | null;
  unitCostCents: number | null;
}

export interface VariationChoice {
  id: string;
  product: string;
  variation: string;
  tracking: "serialized" | "bulk";
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  costCents: number | null;
  gtin: string | null;
}

/** The active variations of active products of the organization: what a line may receive. */
function variationChoices(db: Database, actor: ScopedActor) {
  return db.all<VariationChoice>(sql`SELECT v.id, p.name AS product, v.name AS variation, p.tracking,
      p.base_unit AS baseUnit, p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage,
      v.cost_cents AS costCents, v.gtin
    FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE p.organization_id = ${organizationOf(actor)} AND p.active = 1 AND v.active = 1
    ORDER BY p.name, v.name, v.id`);
}

/** One receipt the actor reaches, with its lines, the items it made, and the line form's choices; null when not there. */
export async function receiptDetail(db: Database, actor: ScopedActor, receiptId: string) {
  const here = sql`r.id = ${receiptId} AND r.id IN ${idsReached("receipts", actor, "READ_INVENTORY")}`;
  const reached = idsReached("receipts", actor, "READ_INVENTORY");
  const [orderReads, expectedReads] = receiptOrderReads(db, receiptId, reached);
  const [receipts, lines, items, choices, orders, expected] = await db.batch([
    db.all<ReceiptRow & { version: number; overReceiptReason: string | null; over: number }>(sql`SELECT
        ${RECEIPT_COLUMNS}, r.version, r.over_receipt_reason AS overReceiptReason,
        ${bringsMoreThanExpected(receiptId)} AS over
      ${RECEIPT_FROM} WHERE ${here}`),
    db.all<ReceiptLineRow>(sql`SELECT l.id, l.variation_id AS variationId, p.name AS product, p.id AS productId,
        v.name AS variation, p.tracking, p.base_unit AS baseUnit, p.unit_scale AS unitScale,
        l.units_per_package AS unitsPerPackage, l.quantity, l.lot, l.serial, l.expiration_date AS expirationDate,
        l.expiry_reason AS expiryReason, l.unit_cost_cents AS unitCostCents
      FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id
        JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${here} ORDER BY l.created_at, l.id`),
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM items AS i JOIN receipt_lines AS l ON l.id = i.receipt_line_id
      JOIN receipts AS r ON r.id = l.receipt_id WHERE ${here}`),
    variationChoices(db, actor),
    orderReads,
    expectedReads,
  ]);
  const receipt = receipts[0];
  if (!receipt) return null;
  return { receipt, lines, items: Number(items[0]?.n ?? 0), choices, order: orders[0] ?? null, expected };
}

export type ReceiptDetail = NonNullable<Awaited<ReturnType<typeof receiptDetail>>>;
