// What the purchasing verbs and screens read: an order with its lines and revisions, if the reader
// reaches its location (READ_PURCHASING there, from where they stand: ADR 0014), a keyset page of
// the orders of the locations in scope, the vendors and locations a new order may name, and the
// catalogue search of the add-items page. Also the reach the verbs' SQL guards use.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import { locationsFor, reachesAt } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { cappedCountSql, type KeyValue, keysetList, type SortKey } from "~/db/keyset.server";
import { anyContains, organizationOf, valueList } from "~/db/sql.server";
import { type Arrivals, arrivalsReads, shapeArrivals } from "./arrivals.server";
import { ADD_ITEMS_LIMIT, type PurchaseOrderStatus } from "./constants";

/** SQL: the location column is one where the actor holds `permission` from where they stand. */
export function reached(actor: ScopedActor, permission: Permission, column: SQL): SQL {
  return locationsFor(actor, permission).where(column);
}

/** SQL: the activity row `id` was written in this batch (the guarded change happened). */
export function happened(activityId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
}

/** SQL: the order aliased `o` has no receipt against it still open (receiving advances it on completion). */
export const noOpenReceipt = sql`NOT EXISTS (SELECT 1 FROM receipts AS r WHERE r.purchase_order_id = o.id
  AND r.status = 'open')`;

/** Whether a receipt against the order is still open (said instead of "changed"). */
export async function hasOpenReceipt(db: Database, orderId: string): Promise<boolean> {
  const rows = await db.all(
    sql`SELECT 1 FROM receipts WHERE purchase_order_id = ${orderId} AND status = 'open' LIMIT 1`,
  );
  return rows.length > 0;
}

export interface OrderLine {
  id: string;
  variationId: string;
  productId: string;
  product: string;
  variation: string;
  sku: string | null;
  vendorSku: string | null;
  packagesOrdered: number;
  packagesReceived: number;
  unitsPerPackage: number;
  unitCostCents: number;
  expectedOn: string | null;
  baseUnit: string;
  unitScale: number;
}

export interface OrderRevision {
  revision: number;
  reason: string;
  changes: string;
  revisedBy: string | null;
  createdAt: number;
}

export interface PurchaseOrder {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  revision: number;
  version: number;
  locationId: string;
  locationName: string;
  locationCode: string;
  locationAddress: string | null;
  timezone: string;
  vendorId: string;
  vendorName: string;
  vendorAccount: string | null;
  vendorContact: string | null;
  vendorEmail: string | null;
  vendorPhone: string | null;
  leadTimeDays: number | null;
  note: string | null;
  createdBy: string | null;
  createdAt: number;
  submittedBy: string | null;
  submittedAt: number | null;
  closedBy: string | null;
  closedAt: number | null;
  closeReason: string | null;
  cancelledBy: string | null;
  cancelledAt: number | null;
  cancelReason: string | null;
  lines: OrderLine[];
  revisions: OrderRevision[];
}

const person = (column: string) =>
  sql.raw(`(SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = ${column})`);

/** One line's total in cents. */
export const lineTotal = (l: Pick<OrderLine, "packagesOrdered" | "unitCostCents">) =>
  l.packagesOrdered * l.unitCostCents;
/** The order's total in cents. */
export const orderTotal = (lines: readonly Pick<OrderLine, "packagesOrdered" | "unitCostCents">[]) =>
  lines.reduce((sum, l) => sum + lineTotal(l), 0);
/** Packages still to arrive on a line (never below 0). */
export const outstanding = (l: Pick<OrderLine, "packagesOrdered" | "packagesReceived">) =>
  Math.max(0, l.packagesOrdered - l.packagesReceived);

/** The lines of order `orderId`, in the order they were added. */
export function linesQuery(db: Database, orderId: string) {
  return db.all<OrderLine>(sql`SELECT l.id, l.variation_id AS variationId, p.id AS productId, p.name AS product,
      v.name AS variation, v.sku, l.vendor_sku AS vendorSku, l.packages_ordered AS packagesOrdered,
      l.packages_received AS packagesReceived, l.units_per_package AS unitsPerPackage,
      l.unit_cost_cents AS unitCostCents, l.expected_on AS expectedOn, p.base_unit AS baseUnit,
      p.unit_scale AS unitScale
    FROM purchase_order_lines AS l JOIN product_variations AS v ON v.id = l.variation_id
    JOIN products AS p ON p.id = v.product_id
    WHERE l.order_id = ${orderId} ORDER BY l.created_at, l.id`);
}

/**
 * One order with its lines and revisions, if the actor holds `permission` at its location from
 * where they stand (READ_PURCHASING to look, WRITE_PURCHASING to change it); else null.
 */
export async function readOrder(
  db: Database,
  actor: ScopedActor,
  orderId: string,
  permission: Permission = "READ_PURCHASING",
): Promise<PurchaseOrder | null> {
  return orderOf(await db.batch(orderQueries(db, actor, orderId, permission)));
}

/**
 * The order page's reads in one round trip: the order where the reader reaches it, and what
 * arrived against it (read only for an order found: its statements seek it by id alone).
 */
export async function readOrderPage(
  db: Database,
  actor: ScopedActor,
  orderId: string,
): Promise<{ order: PurchaseOrder; arrivals: Arrivals } | null> {
  const queries = orderQueries(db, actor, orderId, "READ_PURCHASING");
  const rows = await db.batch([...queries, ...arrivalsReads(db, orderId)]);
  const order = orderOf(rows.slice(0, queries.length));
  if (!order) return null;
  return {
    order,
    arrivals: shapeArrivals(rows.slice(queries.length) as unknown as Parameters<typeof shapeArrivals>[0]),
  };
}

/** The order `orderId` if `actor` reaches it with `permission`: its head, lines and revisions, for a batch. */
export function orderQueries(db: Database, actor: ScopedActor, orderId: string, permission: Permission) {
  return [
    db.all<Omit<PurchaseOrder, "lines" | "revisions">>(sql`SELECT o.id, o.number, o.status, o.revision, o.version,
        o.location_id AS locationId, l.name AS locationName, l.code AS locationCode, l.address AS locationAddress,
        l.timezone, o.vendor_id AS vendorId, v.name AS vendorName, v.account_number AS vendorAccount,
        v.contact_name AS vendorContact, v.email AS vendorEmail, v.phone AS vendorPhone,
        v.lead_time_days AS leadTimeDays, o.note, ${person("o.created_by")} AS createdBy, o.created_at AS createdAt,
        ${person("o.submitted_by")} AS submittedBy, o.submitted_at AS submittedAt,
        ${person("o.closed_by")} AS closedBy, o.closed_at AS closedAt, o.close_reason AS closeReason,
        ${person("o.cancelled_by")} AS cancelledBy, o.cancelled_at AS cancelledAt, o.cancel_reason AS cancelReason
      FROM purchase_orders AS o JOIN locations AS l ON l.id = o.location_id JOIN vendors AS v ON v.id = o.vendor_id
      WHERE o.id = ${orderId} AND o.organization_id = ${organizationOf(actor)}
        AND ${reached(actor, permission, sql`o.location_id`)}`),
    linesQuery(db, orderId),
    db.all<OrderRevision>(sql`SELECT r.revision, r.reason, r.changes, ${person("r.revised_by")} AS revisedBy,
        r.created_at AS createdAt
      FROM purchase_order_revisions AS r WHERE r.order_id = ${orderId} ORDER BY r.revision DESC`),
  ] as const;
}

export function orderOf(rows: readonly unknown[]): PurchaseOrder | null {
  const [heads, lines, revisions] = rows as [
    Omit<PurchaseOrder, "lines" | "revisions">[],
    Awaited<ReturnType<typeof linesQuery>>,
    OrderRevision[],
  ];
  const head = heads[0];
  if (!head) return null;
  const n = (v: unknown) => Number(v);
  return {
    ...head,
    revision: n(head.revision),
    version: n(head.version),
    createdAt: n(head.createdAt),
    lines: lines.map((l) => ({
      ...l,
      packagesOrdered: n(l.packagesOrdered),
      packagesReceived: n(l.packagesReceived),
      unitsPerPackage: n(l.unitsPerPackage),
      unitCostCents: n(l.unitCostCents),
      unitScale: n(l.unitScale),
    })),
    revisions: revisions.map((r) => ({ ...r, revision: n(r.revision), createdAt: n(r.createdAt) })),
  };
}

/**
 * SQL: `column` of order `orderId` where the actor reaches it with `permission` (NULL where not),
 * for a statement that finds the order itself in the same batch as the order's own reads.
 */
export function ofOrder(
  actor: ScopedActor,
  orderId: string,
  permission: Permission,
  column: "location_id" | "vendor_id",
) {
  return sql`(SELECT o.${sql.raw(column)} FROM purchase_orders AS o WHERE o.id = ${orderId}
    AND o.organization_id = ${organizationOf(actor)} AND ${reached(actor, permission, sql`o.location_id`)})`;
}

/** What the reader may do on an order: write it (WRITE_PURCHASING at its location, from where they stand). */
export function mayWrite(actor: ScopedActor, order: Pick<PurchaseOrder, "locationId">): boolean {
  return reachesAt(actor, "WRITE_PURCHASING", order.locationId);
}

/** An order as its list shows it: its head, its lines counted and its total. */
export interface OrderListRow {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  locationId: string;
  locationName: string;
  locationCode: string;
  timezone: string;
  vendorId: string;
  vendorName: string;
  createdBy: string | null;
  createdAt: number;
  submittedAt: number | null;
  lines: number;
  totalCents: number;
  outstandingPackages: number;
}

const LIST_KEYS: readonly SortKey[] = [
  { sql: sql`o.created_at`, type: "integer", desc: true },
  { sql: sql`o.id`, type: "text", desc: true },
];

export const orderList = keysetList<OrderListRow>(LIST_KEYS, (r) => [r.createdAt, r.id] as KeyValue[]);

export interface OrderListQuery {
  /** The locations whose orders are listed. */
  locationIds: readonly string[];
  status: PurchaseOrderStatus | null;
  vendorId?: string | null;
  after?: string;
  before?: string;
  pageSize: number;
}

/** A keyset page of the orders of `locationIds` (newest first); null for a cursor this list did not make. */
export async function listOrders(db: Database, query: OrderListQuery) {
  const list = orderListQueries(db, query);
  return list ? list.pageOf(await db.batch(list.statements)) : null;
}

/**
 * The list's two statements (its page and its capped count) for a caller's batch, and how to read
 * their rows; null when the cursor is not one this list made.
 */
export function orderListQueries(db: Database, query: OrderListQuery) {
  const keyset = orderList.keyset(query);
  if (!keyset) return null;
  const ids = query.locationIds.length ? query.locationIds : ["-"];
  const where = sql`o.location_id IN (${valueList(ids)})
    ${query.status ? sql`AND o.status = ${query.status}` : sql``}
    ${query.vendorId ? sql`AND o.vendor_id = ${query.vendorId}` : sql``}`;
  const order = orderList.orderBy(keyset);
  // The page's orders are picked first and only they are given their lines' figures (a
  // location's 266 orders on the large set: 50 K steps to 8 K).
  const statements = [
    db.all<OrderListRow>(sql`${orderList.pageFirst(keyset, sql`o.id`, sql`FROM purchase_orders AS o WHERE ${where}`)}
      SELECT o.id, o.number, o.status, o.location_id AS locationId, l.name AS locationName,
        l.code AS locationCode, l.timezone, o.vendor_id AS vendorId, v.name AS vendorName,
        ${person("o.created_by")} AS createdBy, o.created_at AS createdAt, o.submitted_at AS submittedAt,
        (SELECT count(*) FROM purchase_order_lines AS x WHERE x.order_id = o.id) AS lines,
        (SELECT coalesce(sum(x.packages_ordered * x.unit_cost_cents), 0) FROM purchase_order_lines AS x
          WHERE x.order_id = o.id) AS totalCents,
        (SELECT coalesce(sum(max(x.packages_ordered - x.packages_received, 0)), 0) FROM purchase_order_lines AS x
          WHERE x.order_id = o.id) AS outstandingPackages
      FROM page CROSS JOIN purchase_orders AS o ON o.id = page.id JOIN locations AS l ON l.id = o.location_id
        JOIN vendors AS v ON v.id = o.vendor_id
      ORDER BY ${order}`),
    db.all<{ total: number }>(cappedCountSql(sql`FROM purchase_orders AS o WHERE ${where}`)),
  ] as const;
  const pageOf = (results: readonly unknown[]) => {
    const [rows, counted] = results as [OrderListRow[], { total: number }[]];
    return orderList.page(rows, counted[0]?.total, keyset, (r) => ({
      ...r,
      createdAt: Number(r.createdAt),
      lines: Number(r.lines),
      totalCents: Number(r.totalCents),
      outstandingPackages: Number(r.outstandingPackages),
    }));
  };
  return { statements, pageOf };
}

/** The active vendors of the actor's organization, by name: whom a new order may go to. */
export function activeVendors(db: Database, actor: ScopedActor) {
  return db.all<{ id: string; name: string; leadTimeDays: number | null }>(sql`SELECT id, name,
      lead_time_days AS leadTimeDays
    FROM vendors WHERE organization_id = ${organizationOf(actor)} AND active = 1 ORDER BY name, id`);
}

/** The active locations of the actor's organization, by name. */
export function activeLocations(db: Database, actor: ScopedActor) {
  return db.all<{ id: string; name: string; code: string }>(sql`SELECT id, name, code FROM locations
    WHERE organization_id = ${organizationOf(actor)} AND active = 1 ORDER BY name, id`);
}

export interface CatalogueChoice {
  variationId: string;
  product: string;
  variation: string;
  sku: string | null;
  gtin: string | null;
  unitsPerPackage: number;
  costCents: number | null;
  baseUnit: string;
  unitScale: number;
  vendorName: string | null;
  ofVendor: number;
  onOrder: number;
}

/**
 * Active variations of the organization matching `q` (product or variation name, SKU, GTIN), the
 * vendor's own first (its products' default vendor), or only the vendor's (`onlyVendor`); with
 * whether the variation is on this order already. An empty `q` lists the vendor's products.
 */
export function catalogueChoices(
  db: Database,
  actor: ScopedActor,
  { orderId, vendorId, q, onlyVendor }: { orderId: string; vendorId: string | SQL; q: string; onlyVendor: boolean },
) {
  const search = q ? anyContains(q, [sql`p.name`, sql`v.name`, sql`v.sku`, sql`p.sku`, sql`v.gtin`]) : sql`1`;
  const vendorOnly = onlyVendor || !q ? sql`AND p.default_vendor_id = ${vendorId}` : sql``;
  // The vendor's products are found by their vendor (a few dozen), not among every active product of
  // the organization (the planner's pick when the vendor is a subquery: 4,900 on the large set).
  const products = onlyVendor || !q ? sql`products AS p INDEXED BY products_vendor_idx` : sql`products AS p`;
  return db.all<CatalogueChoice>(sql`SELECT v.id AS variationId, p.name AS product, v.name AS variation, v.sku,
      v.gtin, v.units_per_package AS unitsPerPackage, coalesce(v.cost_cents, p.cost_cents) AS costCents,
      p.base_unit AS baseUnit, p.unit_scale AS unitScale, d.name AS vendorName, (p.default_vendor_id IS ${vendorId}) AS ofVendor,
      EXISTS (SELECT 1 FROM purchase_order_lines AS x WHERE x.order_id = ${orderId} AND x.variation_id = v.id)
        AS onOrder
    FROM product_variations AS v JOIN ${products} ON p.id = v.product_id
    LEFT JOIN vendors AS d ON d.id = p.default_vendor_id
    WHERE p.organization_id = ${organizationOf(actor)} AND p.active = 1 AND v.active = 1 AND ${search} ${vendorOnly}
    ORDER BY ofVendor DESC, p.name, v.name, v.id LIMIT ${ADD_ITEMS_LIMIT}`);
}
