// "What arrived" on an order's page: the receipts against the order (receipts.purchase_order_id),
// completed ones with when, who received them, their lines with lots, expiry dates and packages and
// any over-receipt reason, and the ones still open (a link to go on receiving). Two reads for the
// order page's ONE batch (`arrivalsReads`), then `shapeArrivals` for the page. Reached only through
// the order: call it in the batch that reads the order within the actor's reach (the order page's
// read); the receipts must also be at the order's location. Served by receipts_purchase_order_idx.
import { sql } from "drizzle-orm";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { formatDate, type ShownInstant, showInstant } from "~/ui/dates";

interface ArrivalReceiptRow {
  id: string;
  status: "open" | "completed" | "cancelled";
  createdAt: number;
  completedAt: number | null;
  timezone: string;
  reference: string | null;
  overReceiptReason: string | null;
  openedBy: string | null;
  completedBy: string | null;
}

interface ArrivalLineRow {
  id: string;
  receiptId: string;
  variationId: string;
  product: string;
  variation: string;
  packages: number;
  unitsPerPackage: number;
  baseUnit: string;
  unitScale: UnitScale;
  lot: string | null;
  serial: string | null;
  expirationDate: string | null;
}

const ofOrder = (orderId: string) => sql`r.purchase_order_id = ${orderId}
  AND r.location_id = (SELECT location_id FROM purchase_orders WHERE id = ${orderId})`;

/** The order's receipts (completed and open, not cancelled) and their lines: two reads for the caller's batch. */
export function arrivalsReads(db: Database, orderId: string) {
  return [
    db.all<ArrivalReceiptRow>(sql`SELECT r.id, r.status, r.created_at AS createdAt, r.completed_at AS completedAt,
        loc.timezone, r.reference, r.over_receipt_reason AS overReceiptReason,
        (SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = r.opened_by) AS openedBy,
        (SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = r.completed_by) AS completedBy
      FROM receipts AS r JOIN locations AS loc ON loc.id = r.location_id
      WHERE ${ofOrder(orderId)} AND r.status <> 'cancelled'
      ORDER BY r.status = 'open' DESC, coalesce(r.completed_at, r.created_at), r.id`),
    db.all<ArrivalLineRow>(sql`SELECT l.id, l.receipt_id AS receiptId, l.variation_id AS variationId, p.name AS product,
        v.name AS variation, l.quantity AS packages, l.units_per_package AS unitsPerPackage, p.base_unit AS baseUnit,
        p.unit_scale AS unitScale, l.lot, l.serial, l.expiration_date AS expirationDate
      FROM receipts AS r JOIN receipt_lines AS l ON l.receipt_id = r.id
        JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${ofOrder(orderId)} AND r.status = 'completed'
      ORDER BY l.receipt_id, p.name, v.name, l.created_at, l.id`),
  ] as const;
}

/** One line of a completed receipt against the order, as the page shows it. */
export interface ArrivedLine {
  /** The receipt line's id. */
  id: string;
  variationId: string;
  /** "Product · Variation". */
  label: string;
  packages: number;
  /** The packages in the product's units: "2,000 pads". */
  units: string;
  lot: string | null;
  serial: string | null;
  /** As screens show dates ("Mar 31, 2027"), or null. */
  expires: string | null;
}

/** A completed receipt against the order. */
export interface Arrival {
  receiptId: string;
  /** The receiving page of the receipt (its lines and labels). */
  href: string;
  received: ShownInstant | null;
  receivedBy: string | null;
  reference: string | null;
  overReceiptReason: string | null;
  packages: number;
  lines: ArrivedLine[];
}

/** A receipt still open against the order: someone is receiving it now. */
export interface OpenArrival {
  receiptId: string;
  href: string;
  started: ShownInstant | null;
  openedBy: string | null;
  reference: string | null;
}

export interface Arrivals {
  /** Oldest first: the order's story. */
  completed: Arrival[];
  open: OpenArrival[];
}

const receiptHref = (receiptId: string) => `/receiving/${receiptId}/add-products`;

/** The two reads' rows as the "What arrived" section shows them. */
export function shapeArrivals(
  [receipts, lines]: readonly [readonly ArrivalReceiptRow[], readonly ArrivalLineRow[]],
  now: Date = new Date(),
): Arrivals {
  const byReceipt = new Map<string, ArrivedLine[]>();
  for (const l of lines) {
    const packages = Number(l.packages);
    const shown: ArrivedLine = {
      id: l.id,
      variationId: l.variationId,
      label: `${l.product} · ${l.variation}`,
      packages,
      units: formatQuantity(packages * Number(l.unitsPerPackage), l.unitScale, l.baseUnit),
      lot: l.lot,
      serial: l.serial,
      expires: l.expirationDate ? formatDate(l.expirationDate) : null,
    };
    byReceipt.set(l.receiptId, [...(byReceipt.get(l.receiptId) ?? []), shown]);
  }
  const completed: Arrival[] = [];
  const open: OpenArrival[] = [];
  for (const r of receipts) {
    if (r.status === "open") {
      open.push({
        receiptId: r.id,
        href: receiptHref(r.id),
        started: showInstant(r.createdAt, r.timezone, now),
        openedBy: r.openedBy,
        reference: r.reference,
      });
    } else if (r.status === "completed") {
      const arrived = byReceipt.get(r.id) ?? [];
      completed.push({
        receiptId: r.id,
        href: receiptHref(r.id),
        received: showInstant(r.completedAt, r.timezone, now),
        receivedBy: r.completedBy,
        reference: r.reference,
        overReceiptReason: r.overReceiptReason,
        packages: arrived.reduce((n, l) => n + l.packages, 0),
        lines: arrived,
      });
    }
  }
  return { completed, open };
}
