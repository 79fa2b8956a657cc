// The large data set's purchase orders (issue 23), written after the stock history as the
// purchasing and receiving verbs would have left them: every status, over two years, at every
// location. The receipts already seeded are the deliveries: one completed receipt in five (and
// the newest and oldest at every location) is linked to an order it fulfilled
// (receipts.purchase_order_id), some together with the next delivery from the same vendor (an
// order received in two parts). The order's lines are what its receipts brought of each variation,
// ordered some days before (the vendor's lead time) and advanced by each, so packages_received is
// exactly what the linked receipts brought (check.ts holds that). Some orders expected more than
// came (partially received while recent, closed with a reason once old), a few got one more than
// ordered (the receipt says why). Orders without a delivery yet: drafts and submitted ones of the
// last days, and cancelled ones over the years, each of products whose default vendor is the order's.
//
// A completed receipt is frozen by a trigger (receipts_closed_no_update); linking the old receipts
// lifts it for these updates only and puts it back from its own stored SQL, as the writer does with
// indexes. Numbers are PO-{year}-{sequence} in order of creation, as the create verb numbers them.
import type { Catalog, Location } from "./catalog";
import type { Random } from "./random";
import type { Writer } from "./writer";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One completed receipt in this many is linked to an order (the newest at each location always). */
const LINK_EVERY = 5;
/** Of the other linked receipts, this share fulfil their order with the next delivery from its vendor. */
const SECOND_DELIVERY = 0.3;
/** Orders whose deliveries came within these days are still received or partially received; older ones closed. */
const OPEN_DAYS = 21;

const CLOSE_REASONS = ["Vendor could not supply the rest", "Backordered: reordered separately", "No longer needed"];
const CANCEL_REASONS = ["Ordered twice by mistake", "Vendor out of stock", "Bought through another vendor"];
const OVER_REASONS = ["Vendor sent an extra box", "Packing slip listed one more than ordered"];

export interface PurchasingCounts {
  orders: number;
  lines: number;
  byStatus: Record<string, number>;
  /** Receipts linked to the order they fulfilled. */
  linkedReceipts: number;
}

interface ReceiptRow {
  id: string;
  locationId: string;
  vendorId: string;
  createdAt: number;
  completedAt: number;
  completedBy: string | null;
}

interface ReceivedRow {
  receiptId: string;
  variationId: string;
  label: string;
  packages: number;
  unitsPerPackage: number;
  costCents: number | null;
  sku: string | null;
  lots: string;
}

interface VariationRow {
  id: string;
  label: string;
  unitsPerPackage: number;
  costCents: number | null;
  sku: string | null;
  vendorId: string | null;
}

interface PlannedLine {
  variationId: string;
  label: string;
  ordered: number;
  received: number;
  unitsPerPackage: number;
  costCents: number;
  sku: string | null;
}

interface PlannedOrder {
  id: string;
  location: Location;
  vendor: { id: string; name: string; leadDays: number };
  createdBy: string;
  createdAt: number;
  submittedAt: number | null;
  status: "draft" | "submitted" | "partially_received" | "received" | "closed" | "cancelled";
  lines: PlannedLine[];
  /** The receipts that delivered it, in the order they were completed (none for an order not delivered). */
  receipts: (ReceiptRow & { received: ReceivedRow[]; overReason: string | null })[];
  closedAt: number | null;
  closeReason: string | null;
  cancelledAt: number | null;
  cancelReason: string | null;
}

const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

export function writePurchasing(w: Writer, random: Random, catalog: Catalog, now: number): PurchasingCounts {
  const counts: PurchasingCounts = { orders: 0, lines: 0, byStatus: {}, linkedReceipts: 0 };
  const locations = new Map(catalog.locations.map((l) => [l.id, l]));
  const vendorRows = w.db
    .prepare("SELECT id, name, coalesce(lead_time_days, 5) AS leadDays FROM vendors ORDER BY id")
    .all() as { id: string; name: string; leadDays: number }[];
  const vendors = new Map(vendorRows.map((v) => [v.id, v]));

  // The completed receipts, oldest first, and what each brought of each variation.
  const receipts = w.db
    .prepare(`SELECT id, location_id AS locationId, vendor_id AS vendorId, created_at AS createdAt,
        completed_at AS completedAt, completed_by AS completedBy
      FROM receipts WHERE status = 'completed' AND vendor_id IS NOT NULL ORDER BY completed_at, id`)
    .all() as ReceiptRow[];
  const newest = new Map<string, string>();
  const oldest = new Map<string, string>();
  for (const r of receipts) {
    newest.set(r.locationId, r.id);
    if (!oldest.has(r.locationId)) oldest.set(r.locationId, r.id);
  }
  // The newest and oldest at each location always (every size of the set has open and closed orders).
  const linked = receipts.filter(
    (r) => newest.get(r.locationId) === r.id || oldest.get(r.locationId) === r.id || random.int(1, LINK_EVERY) === 1,
  );
  // Some orders came in two deliveries: a linked receipt and the next one at its location from its
  // vendor within a month (not otherwise linked, nor the newest or oldest there) fulfil one order.
  const special = (r: ReceiptRow) => newest.get(r.locationId) === r.id || oldest.get(r.locationId) === r.id;
  const chosen = new Set(linked.map((r) => r.id));
  const sameSource = new Map<string, ReceiptRow[]>();
  for (const r of receipts) {
    const key = `${r.locationId}|${r.vendorId}`;
    sameSource.set(key, [...(sameSource.get(key) ?? []), r]);
  }
  const followers = new Set<string>();
  const groups: ReceiptRow[][] = [];
  for (const r of linked) {
    if (followers.has(r.id)) continue;
    const source = sameSource.get(`${r.locationId}|${r.vendorId}`) ?? [];
    const next = source[source.indexOf(r) + 1];
    const paired =
      !special(r) &&
      next !== undefined &&
      !chosen.has(next.id) &&
      !special(next) &&
      next.completedAt - r.completedAt < 30 * DAY &&
      random.chance(SECOND_DELIVERY);
    if (paired) followers.add(next.id);
    groups.push(paired ? [r, next] : [r]);
  }
  // One pass over the receipt lines (their indexes are dropped while loading), kept for the linked.
  const linkedIds = new Set(groups.flat().map((r) => r.id));
  const received = new Map<string, ReceivedRow[]>();
  const lineRows = w.db
    .prepare(`SELECT l.receipt_id AS receiptId, l.variation_id AS variationId, p.name || ' · ' || v.name AS label,
        sum(l.quantity) AS packages, max(l.units_per_package) AS unitsPerPackage, max(l.unit_cost_cents) AS costCents,
        v.sku, json_group_array(json_object('lot', l.lot, 'packages', l.quantity, 'expirationDate', l.expiration_date))
          AS lots
      FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id AND r.status = 'completed'
        JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
      GROUP BY l.receipt_id, l.variation_id ORDER BY l.receipt_id, l.variation_id`)
    .all() as ReceivedRow[];
  for (const row of lineRows) {
    if (linkedIds.has(row.receiptId)) received.set(row.receiptId, [...(received.get(row.receiptId) ?? []), row]);
  }

  const plans: PlannedOrder[] = [];
  const someone = (location: Location) => random.pick(location.users);
  for (const group of groups) {
    const [r] = group;
    const last = group.at(-1);
    if (!r || !last) continue;
    const location = locations.get(r.locationId);
    const vendor = vendors.get(r.vendorId);
    // What the deliveries brought, each receipt's own, and of each variation in all.
    const delivered = group.map((x) => ({ ...x, received: received.get(x.id) ?? [] }));
    const rows = new Map<string, ReceivedRow>();
    for (const row of delivered.flatMap((x) => x.received)) {
      const seen = rows.get(row.variationId);
      rows.set(row.variationId, seen ? { ...seen, packages: Number(seen.packages) + Number(row.packages) } : row);
    }
    const totals = [...rows.values()].sort((a, b) => a.variationId.localeCompare(b.variationId));
    if (!location || !vendor || delivered.some((x) => x.received.length === 0)) continue;
    const createdAt = r.createdAt - vendor.leadDays * DAY - random.int(1, 48) * HOUR;
    // The newest at a location is not closed yet, however long ago it came.
    const recent = now - last.completedAt < OPEN_DAYS * DAY || newest.get(last.locationId) === last.id;
    // Newest at a location: half of them still wait for the rest (every size of the set has both).
    const partial =
      newest.get(last.locationId) === last.id ? catalog.locations.indexOf(location) % 2 === 0 : random.chance(0.15);
    // One more than ordered came (in a single delivery), and its receipt says why.
    const over = !partial && group.length === 1 && random.chance(0.03) && totals.some((x) => x.packages > 1);
    const overLine = totals.findIndex((y) => y.packages > 1);
    const lines: PlannedLine[] = totals.map((x, n) => ({
      variationId: x.variationId,
      label: x.label,
      ordered:
        partial && n === 0 ? x.packages + random.int(1, 3) : over && n === overLine ? x.packages - 1 : x.packages,
      received: x.packages,
      unitsPerPackage: x.unitsPerPackage,
      costCents: x.costCents ?? 0,
      sku: x.sku,
    }));
    const closing = !recent && last.completedAt + 5 * DAY < now;
    const closedAt = closing ? last.completedAt + random.int(1, 5) * DAY : null;
    const overReason = over ? random.pick(OVER_REASONS) : null;
    plans.push({
      id: random.uuid(createdAt),
      location,
      vendor,
      createdBy: someone(location),
      createdAt,
      submittedAt: createdAt + random.int(1, 3) * HOUR,
      status: closing ? "closed" : partial ? "partially_received" : "received",
      lines,
      receipts: delivered.map((x) => ({ ...x, overReason: x === delivered.at(-1) ? overReason : null })),
      closedAt,
      closeReason: closing && partial ? random.pick(CLOSE_REASONS) : null,
      cancelledAt: null,
      cancelReason: null,
    });
  }

  // Orders with no delivery yet: of products whose default vendor is the order's.
  const variations = w.db
    .prepare(`SELECT v.id, p.name || ' · ' || v.name AS label, v.units_per_package AS unitsPerPackage,
        v.cost_cents AS costCents, v.sku, p.default_vendor_id AS vendorId
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.active = 1 AND p.active = 1 ORDER BY v.id`)
    .all() as VariationRow[];
  const byVendor = new Map<string, VariationRow[]>();
  for (const v of variations) if (v.vendorId) byVendor.set(v.vendorId, [...(byVendor.get(v.vendorId) ?? []), v]);
  const supplying = vendorRows.filter((v) => byVendor.has(v.id));
  const historyStart = Math.min(now - 730 * DAY, ...plans.map((p) => p.createdAt));
  const cancelledEach = Math.max(1, Math.round((linked.length * 0.05) / catalog.locations.length));
  const waitingEach = Math.max(1, Math.round((linked.length * 0.02) / catalog.locations.length));
  const unlinked = (location: Location, status: "draft" | "submitted" | "cancelled", createdAt: number) => {
    const vendor = random.pick(supplying);
    const offered = byVendor.get(vendor.id) ?? [];
    const picked = new Map<string, VariationRow>();
    const wanted = Math.min(offered.length, random.int(1, 6));
    while (picked.size < wanted) {
      const v = random.pick(offered);
      picked.set(v.id, v);
    }
    const submittedAt = status === "draft" || (status === "cancelled" && random.chance(0.5)) ? null : createdAt + HOUR;
    const cancelledAt = status === "cancelled" ? createdAt + random.int(2, 48) * HOUR : null;
    plans.push({
      id: random.uuid(createdAt),
      location,
      vendor,
      createdBy: someone(location),
      createdAt,
      submittedAt,
      status,
      lines: [...picked.values()]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((v) => ({
          variationId: v.id,
          label: v.label,
          ordered: random.int(1, 20),
          received: 0,
          unitsPerPackage: v.unitsPerPackage,
          costCents: v.costCents ?? 0,
          sku: v.sku,
        })),
      receipts: [],
      closedAt: null,
      closeReason: null,
      cancelledAt,
      cancelReason: cancelledAt ? random.pick(CANCEL_REASONS) : null,
    });
  };
  if (supplying.length > 0) {
    for (const location of catalog.locations) {
      for (let n = 0; n < waitingEach; n++) {
        unlinked(location, "draft", now - random.int(1, 7 * 24) * HOUR);
        unlinked(location, "submitted", now - random.int(2 * 24, 10 * 24) * HOUR);
      }
      for (let n = 0; n < cancelledEach; n++) {
        unlinked(
          location,
          "cancelled",
          historyStart + random.int(0, Math.floor((now - historyStart) / HOUR) - 72) * HOUR,
        );
      }
    }
  }

  // Numbered per year in the order they were created, as the create verb numbers them.
  plans.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const insertOrder = w.insert(
    "purchase_orders",
    "id organization_id location_id vendor_id year sequence number status revision version note created_by created_at updated_at submitted_by submitted_at",
  );
  const insertLine = w.insert(
    "purchase_order_lines",
    "id order_id variation_id packages_ordered units_per_package unit_cost_cents packages_received vendor_sku expected_on created_at updated_at",
  );
  const finish = w.run(`UPDATE purchase_orders SET status = ?, version = version + 1, updated_at = ?, closed_by = ?,
      closed_at = ?, close_reason = ?, cancelled_by = ?, cancelled_at = ?, cancel_reason = ? WHERE id = ?`);
  const link = w.run("UPDATE receipts SET purchase_order_id = ?, over_receipt_reason = ? WHERE id = ?");
  const insertActivity = w.insert("activity_log", "id at user_id location_id action entity entity_id summary");
  const log = (at: number, user: string | null, order: PlannedOrder, action: string, summary: object) =>
    insertActivity(
      random.uuid(at),
      at,
      user,
      order.location.id,
      action,
      "purchase_order",
      order.id,
      JSON.stringify(summary),
    );
  const sequences = new Map<number, number>();

  // Completed receipts are frozen by a trigger: lifted for linking them, then put back as it was.
  w.commit();
  const frozen = w.db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'receipts_closed_no_update'")
    .get() as { sql: string } | undefined;
  if (frozen) w.db.exec("DROP TRIGGER receipts_closed_no_update");
  try {
    for (const order of plans) {
      const year = new Date(order.createdAt).getUTCFullYear();
      const sequence = (sequences.get(year) ?? 0) + 1;
      sequences.set(year, sequence);
      const number = `PO-${year}-${String(sequence).padStart(4, "0")}`;
      const vendor = order.vendor.name;
      const lastChange = order.cancelledAt ?? order.closedAt ?? order.receipts.at(-1)?.completedAt ?? order.submittedAt;
      insertOrder(
        order.id,
        catalog.organizationId,
        order.location.id,
        order.vendor.id,
        year,
        sequence,
        number,
        order.submittedAt ? "submitted" : "draft",
        0,
        1,
        null,
        order.createdBy,
        order.createdAt,
        lastChange ?? null,
        order.submittedAt ? order.createdBy : null,
        order.submittedAt,
      );
      const expectedOn = isoDay((order.submittedAt ?? order.createdAt) + order.vendor.leadDays * DAY);
      order.lines.forEach((line, n) => {
        const at = order.createdAt + n * MINUTE;
        insertLine(
          random.uuid(at),
          order.id,
          line.variationId,
          line.ordered,
          line.unitsPerPackage,
          line.costCents,
          line.received,
          line.sku,
          expectedOn,
          order.createdAt,
          order.receipts.at(-1)?.completedAt ?? null,
        );
        counts.lines++;
      });
      log(order.createdAt, order.createdBy, order, "create_purchase_order", {
        number,
        vendor,
        lines: order.lines.length,
      });
      if (order.submittedAt)
        log(order.submittedAt, order.createdBy, order, "submit_purchase_order", { number, vendor });
      // Each delivery advanced the order: its status after each, as the receiving verb set it.
      const arrived = new Map<string, number>();
      for (const receipt of order.receipts) {
        link(order.id, receipt.overReason, receipt.id);
        counts.linkedReceipts++;
        for (const x of receipt.received)
          arrived.set(x.variationId, (arrived.get(x.variationId) ?? 0) + Number(x.packages));
        const full = order.lines.every((l) => (arrived.get(l.variationId) ?? 0) >= l.ordered);
        log(receipt.completedAt, receipt.completedBy, order, "receive_purchase_order", {
          number,
          vendor,
          receiptId: receipt.id,
          status: full ? "received" : "partially_received",
          overReceiptReason: receipt.overReason,
          received: receipt.received.flatMap((x) =>
            (JSON.parse(x.lots) as { lot: string | null; packages: number; expirationDate: string | null }[]).map(
              (lot) => ({ variationId: x.variationId, product: x.label, ...lot }),
            ),
          ),
        });
      }
      if (order.status !== "draft" && order.status !== "submitted") {
        finish(
          order.status,
          lastChange,
          order.closedAt ? order.createdBy : null,
          order.closedAt,
          order.closeReason,
          order.cancelledAt ? order.createdBy : null,
          order.cancelledAt,
          order.cancelReason,
          order.id,
        );
      }
      if (order.closedAt) {
        log(order.closedAt, order.createdBy, order, "close_purchase_order", {
          number,
          vendor,
          ...(order.closeReason ? { reason: order.closeReason } : {}),
        });
      }
      if (order.cancelledAt) {
        log(order.cancelledAt, order.createdBy, order, "cancel_purchase_order", {
          number,
          vendor,
          reason: order.cancelReason,
        });
      }
      counts.orders++;
      counts.byStatus[order.status] = (counts.byStatus[order.status] ?? 0) + 1;
    }
    w.commit();
  } finally {
    if (frozen) w.db.exec(frozen.sql);
  }
  return counts;
}
