// The large data set's transfers (issue 22), written after the stock history as the transfer verbs
// would have written them (ADR 0031): a transfer created at its sender with its lines, sent
// (TRANSFER_OUT at the sender; a vial in_transit with 0 units left), then received at the
// destination (TRANSFER_IN; what was missing or damaged leaves there at once as a DISCARD, its
// discrepancy open until resolved with a note), or recalled to its sender (TRANSFER_IN back, its
// vials sealed there again). Besides: requests, drafts being filled, and cancelled drafts.
//
// The vials stock.ts left `in_transit` (its fate of 1.5% of the vials) are the ones sent: grouped
// by sender in the order they were received, each group a transfer sent days after its newest
// vial came in; those sent in the last three days are still on the road, the older ones arrived or
// were recalled. A few sealed vials are sent in the last day at the first locations so every size
// of the set has transfers in transit, and bulk quantities go from a level that has not moved since
// to one that has not either, so every adjust_stock row still names the balance after it.
import type { Catalog, Location, Variation } from "./catalog";
import type { SeedLedger } from "./ledger";
import type { Random } from "./random";
import type { Writer } from "./writer";

/** The activity rows' entity for a transfer (what the transfer verbs file their rows under). */
export const ENTITY = "transfer";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface TransferCounts {
  transfers: number;
  lines: number;
  byStatus: Record<string, number>;
  discrepancies: number;
}

interface VialRow {
  id: string;
  locationId: string;
  variationId: string;
  lot: string;
  labelCode: string;
  units: number;
  receivedAt: number;
}

type LineFate = "pending" | "received" | "missing" | "damaged" | "short" | "returned";

interface PlannedLine {
  variation: Variation;
  vial?: VialRow;
  quantity: number;
  lot: string | null;
  fate: LineFate;
  /** Base units that arrived (short bulk). */
  received?: number;
}

const MISSING_REASONS = ["Not in the shipment", "Not found on arrival"];
const DAMAGED_REASONS = ["Vial cracked in transit", "Box crushed in transit"];
const SHORT_REASONS = ["Box arrived torn open", "Fewer than the packing slip"];
const RESOLUTIONS = ["Claimed from the courier", "Confirmed lost: written off", "Sender confirmed the count"];
const CANCEL_REASONS = ["Not needed after all", "Sent with the next delivery instead"];

export function writeTransfers(
  w: Writer,
  random: Random,
  catalog: Catalog,
  now: number,
  ledger: SeedLedger,
): TransferCounts {
  const counts: TransferCounts = { transfers: 0, lines: 0, byStatus: {}, discrepancies: 0 };
  const variations = new Map<string, Variation>(
    [...catalog.serialized, ...catalog.bulk, catalog.target].map((v) => [v.id, v]),
  );
  const locations = new Map(catalog.locations.map((l) => [l.id, l]));
  const insertTransfer = w.insert(
    "transfers",
    "id from_location_id to_location_id status note created_by created_at requested_by requested_at sent_by sent_at received_at cancelled_by cancelled_at cancel_reason recalled_at updated_at",
  );
  const insertLine = w.insert(
    "transfer_lines",
    "id transfer_id variation_id item_id lot quantity status quantity_received reason received_by received_at resolved_by resolved_at resolution_note created_at",
  );
  const updateItem = w.run(
    `UPDATE items SET location_id = ?, state = ?, units_remaining = ?, discard_reason = ?, ended_at = ?, updated_at = ?
      WHERE id = ?`,
  );
  const someone = (location: Location) => random.pick(location.users);
  const otherThan = (location: Location) => {
    const others = catalog.locations.filter((l) => l.id !== location.id);
    return random.pick(others);
  };
  const lineSummary = (line: PlannedLine) =>
    line.vial
      ? { item: line.vial.labelCode, product: line.variation.product, variation: line.variation.name }
      : { product: line.variation.product, variation: line.variation.name, quantity: line.quantity };

  /**
   * One transfer from `from` to `to`: created (and asked for, for a request), its lines added, then
   * as far as its status goes. Instants: created, then sent, then received or recalled.
   */
  function transfer(
    from: Location,
    to: Location,
    lines: PlannedLine[],
    plan: {
      status: "requested" | "draft" | "in_transit" | "received" | "cancelled";
      createdAt: number;
      sentAt?: number;
      arrivedAt?: number;
      recalledAt?: number;
      cancelledAt?: number;
      requested?: boolean;
    },
  ) {
    const id = random.uuid(plan.createdAt);
    const route = { from: from.code, to: to.code };
    const requester = plan.requested ? someone(to) : null;
    const creator = requester ?? someone(from);
    const sender = someone(from);
    const receiver = someone(to);
    const sent = plan.sentAt !== undefined;
    const vials = lines.filter((l) => l.vial).length;
    const bulk = lines.length - vials;
    let updatedAt = plan.createdAt;
    if (plan.requested) {
      ledger.log(plan.createdAt, requester, to.id, "request_transfer", ENTITY, id, {
        ...route,
        vials,
        lines: bulk,
      });
    } else {
      ledger.log(plan.createdAt, creator, from.id, "create_transfer", ENTITY, id, route);
    }
    const lineIds = lines.map((line, n) => {
      const lineId = random.uuid(plan.createdAt + n + 1);
      const at = plan.createdAt + (n + 1) * MINUTE;
      ledger.log(at, creator, plan.requested ? to.id : from.id, "add_transfer_line", ENTITY, id, {
        ...route,
        lineId,
        ...lineSummary(line),
      });
      return lineId;
    });
    if (sent) {
      const at = plan.sentAt as number;
      updatedAt = at;
      for (const line of lines) {
        ledger.move(at, from.id, line.variation.id, -line.quantity, "TRANSFER_OUT", {
          itemId: line.vial?.id,
          lot: line.lot,
          reference: ["transfer", id],
          userId: sender,
        });
      }
      ledger.log(at, sender, from.id, "send_transfer", ENTITY, id, { ...route, vials, lines: bulk });
    }
    // Each line's end, and the vial's; the rows written after the transfer's (their foreign key).
    const lineRows: (() => void)[] = [];
    lines.forEach((line, n) => {
      const lineId = lineIds[n] as string;
      let status: LineFate = sent ? line.fate : "pending";
      let quantityReceived: number | null = null;
      let reason: string | null = null;
      let receivedAt: number | null = null;
      let resolvedBy: string | null = null;
      let resolvedAt: number | null = null;
      let resolutionNote: string | null = null;
      const vial = line.vial;
      if (sent && plan.recalledAt !== undefined) {
        status = "returned";
        ledger.move(plan.recalledAt, from.id, line.variation.id, line.quantity, "TRANSFER_IN", {
          itemId: vial?.id,
          lot: line.lot,
          reference: ["transfer", id],
          userId: sender,
        });
        if (vial) updateItem(from.id, "sealed", vial.units, null, null, plan.recalledAt, vial.id);
      } else if (sent && plan.arrivedAt !== undefined) {
        const at = plan.arrivedAt;
        receivedAt = at;
        const arrived = status === "received" ? line.quantity : status === "short" ? (line.received ?? 0) : 0;
        quantityReceived = arrived;
        ledger.move(at, to.id, line.variation.id, line.quantity, "TRANSFER_IN", {
          itemId: vial?.id,
          lot: line.lot,
          reference: ["transfer", id],
          userId: receiver,
        });
        if (status !== "received") {
          counts.discrepancies++;
          reason = random.pick(
            status === "damaged" ? DAMAGED_REASONS : status === "short" ? SHORT_REASONS : MISSING_REASONS,
          );
          ledger.move(at, to.id, line.variation.id, arrived - line.quantity, "DISCARD", {
            itemId: vial?.id,
            lot: line.lot,
            reason: status === "damaged" ? "damaged" : "lost_in_transit",
            note: reason,
            reference: ["transfer", id],
            userId: receiver,
          });
          const resolveAt = at + HOUR + Math.floor(random.float() * 2 * DAY);
          if (resolveAt < now - HOUR && random.chance(0.75)) {
            resolvedBy = someone(random.chance(0.5) ? from : to);
            resolvedAt = resolveAt;
            resolutionNote = random.pick(RESOLUTIONS);
            ledger.log(resolveAt, resolvedBy, to.id, "resolve_discrepancy", ENTITY, id, {
              ...route,
              lineId,
              ...lineSummary(line),
              note: resolutionNote,
            });
          }
        }
        if (vial) {
          if (status === "received") updateItem(to.id, "sealed", vial.units, null, null, at, vial.id);
          else updateItem(to.id, "discarded", 0, status === "damaged" ? "damaged" : "lost_in_transit", at, at, vial.id);
        }
      } else if (sent && vial) {
        // On the road: 0 units on the vial, the line carries them.
        updateItem(from.id, "in_transit", 0, null, null, plan.sentAt as number, vial.id);
      }
      const args = [
        lineId,
        id,
        line.variation.id,
        vial?.id ?? null,
        line.lot,
        line.quantity,
        status,
        quantityReceived,
        reason,
        receivedAt === null ? null : receiver,
        receivedAt,
        resolvedBy,
        resolvedAt,
        resolutionNote,
        plan.createdAt + (n + 1) * MINUTE,
      ] as const;
      lineRows.push(() => insertLine(...args));
      counts.lines++;
    });
    if (plan.arrivedAt !== undefined) {
      updatedAt = plan.arrivedAt;
      const arrivedVials = lines.filter((l) => l.vial && l.fate === "received").length;
      ledger.log(plan.arrivedAt, receiver, to.id, "receive_transfer", ENTITY, id, {
        ...route,
        vials: arrivedVials,
        lines: bulk,
      });
      ledger.log(plan.arrivedAt, receiver, to.id, "transfer_complete", ENTITY, id, {
        ...route,
        vials,
        lines: bulk,
      });
    }
    if (plan.recalledAt !== undefined) {
      updatedAt = plan.recalledAt;
      ledger.log(plan.recalledAt, sender, from.id, "recall_transfer", ENTITY, id, { ...route, vials, lines: bulk });
    }
    const cancelledAt = plan.cancelledAt ?? plan.recalledAt ?? null;
    const cancelReason =
      plan.recalledAt !== undefined
        ? "Recalled: sent to the wrong location"
        : cancelledAt
          ? random.pick(CANCEL_REASONS)
          : null;
    if (plan.cancelledAt !== undefined) {
      updatedAt = plan.cancelledAt;
      ledger.log(plan.cancelledAt, sender, from.id, "cancel_transfer", ENTITY, id, {
        ...route,
        reason: cancelReason,
      });
    }
    insertTransfer(
      id,
      from.id,
      to.id,
      plan.status,
      plan.requested ? "For the clinic days next week" : null,
      creator,
      plan.createdAt,
      requester,
      plan.requested ? plan.createdAt : null,
      sent ? sender : null,
      plan.sentAt ?? null,
      plan.arrivedAt ?? null,
      cancelledAt === null ? null : sender,
      cancelledAt,
      cancelReason,
      plan.recalledAt ?? null,
      updatedAt,
    );
    for (const write of lineRows) write();
    counts.transfers++;
    counts.byStatus[plan.status] = (counts.byStatus[plan.status] ?? 0) + 1;
  }

  // 1. The vials stock.ts left in transit, each group a transfer from their location.
  const inTransit = w.db
    .prepare(
      `SELECT id, location_id AS locationId, variation_id AS variationId, lot, label_code AS labelCode,
        units_remaining AS units, received_at AS receivedAt FROM items WHERE state = 'in_transit' ORDER BY received_at, id`,
    )
    .all() as VialRow[];
  const byLocation = new Map<string, VialRow[]>();
  for (const vial of inTransit) {
    const list = byLocation.get(vial.locationId);
    if (list) list.push(vial);
    else byLocation.set(vial.locationId, [vial]);
  }
  for (const [locationId, vials] of byLocation) {
    const from = locations.get(locationId);
    if (!from) continue;
    for (let at = 0; at < vials.length; ) {
      const group = vials.slice(at, at + random.int(3, 8));
      at += group.length;
      const newest = Math.max(...group.map((v) => v.receivedAt));
      let sentAt = newest + 2 * HOUR + Math.floor(random.float() * 7 * DAY);
      if (sentAt > now - 2 * HOUR) sentAt = Math.max(newest + HOUR, now - 2 * HOUR - Math.floor(random.float() * DAY));
      const createdAt = sentAt - 10 * MINUTE - Math.floor(random.float() * 2 * HOUR) - group.length * MINUTE;
      const to = otherThan(from);
      const onRoad = now - sentAt < 3 * DAY;
      const recalled = !onRoad && random.chance(0.03);
      const discrepancy = !onRoad && !recalled && random.chance(0.1) ? random.int(0, group.length - 1) : -1;
      const lines: PlannedLine[] = group.map((vial, n) => ({
        variation: variations.get(vial.variationId) as Variation,
        vial,
        quantity: vial.units,
        lot: vial.lot,
        fate: onRoad ? "pending" : n === discrepancy ? (random.chance(0.6) ? "missing" : "damaged") : "received",
      }));
      if (onRoad) {
        transfer(from, to, lines, { status: "in_transit", createdAt, sentAt });
      } else if (recalled) {
        const recalledAt = sentAt + 2 * HOUR + Math.floor(random.float() * 18 * HOUR);
        transfer(from, to, lines, { status: "cancelled", createdAt, sentAt, recalledAt });
      } else {
        const arrivedAt = Math.min(now - HOUR, sentAt + 4 * HOUR + Math.floor(random.float() * 26 * HOUR));
        transfer(from, to, lines, { status: "received", createdAt, sentAt, arrivedAt });
      }
    }
  }

  // 2. Sealed vials not touched since they came in (usable, of no recalled lot), for the transfers
  // of the last days: sent yesterday (still on the road), drafts, cancelled drafts, requests.
  const today = new Date(now).toISOString().slice(0, 10);
  const sealed = w.db
    .prepare(
      `SELECT i.id, i.location_id AS locationId, i.variation_id AS variationId, i.lot, i.label_code AS labelCode,
        i.units_remaining AS units, i.received_at AS receivedAt
      FROM items AS i WHERE i.state = 'sealed' AND i.updated_at IS NULL AND i.expiration_date >= ?
        AND i.received_at < ?
        AND NOT EXISTS (SELECT 1 FROM lot_recalls AS r WHERE r.variation_id = i.variation_id AND r.lot = i.lot
          AND r.lifted_at IS NULL)
      ORDER BY i.id`,
    )
    .all(today, now - 3 * DAY) as VialRow[];
  const shelf = new Map<string, VialRow[]>();
  for (const vial of sealed) {
    const list = shelf.get(vial.locationId);
    if (list) list.push(vial);
    else shelf.set(vial.locationId, [vial]);
  }
  const take = (location: Location, n: number): PlannedLine[] =>
    (shelf.get(location.id) ?? []).splice(0, n).map((vial) => ({
      variation: variations.get(vial.variationId) as Variation,
      vial,
      quantity: vial.units,
      lot: vial.lot,
      fate: "pending",
    }));
  catalog.locations.forEach((from, n) => {
    const next = catalog.locations[(n + 1) % catalog.locations.length] as Location;
    if (n < 3) {
      const lines = take(from, 3);
      const sentAt = now - DAY + n * HOUR;
      if (lines.length) transfer(from, next, lines, { status: "in_transit", createdAt: sentAt - HOUR, sentAt });
    }
    // A draft being filled, and one given up.
    const draft = take(from, random.int(2, 5));
    if (draft.length)
      transfer(from, otherThan(from), draft, { status: "draft", createdAt: now - 3 * HOUR - n * MINUTE });
    const dropped = take(from, random.int(1, 3));
    const droppedAt = now - random.int(5, 40) * DAY;
    if (dropped.length) {
      transfer(from, otherThan(from), dropped, {
        status: "cancelled",
        createdAt: droppedAt,
        cancelledAt: droppedAt + random.int(1, 20) * HOUR,
      });
    }
    // A request from the next location for what this one stocks: a count of packages, no vial yet.
    const asked = catalog.serialized.length ? random.pick(catalog.serialized) : null;
    if (asked && n % 2 === 0) {
      const quantity = random.int(2, 6) * asked.unitsPerPackage;
      transfer(from, next, [{ variation: asked, quantity, lot: null, fate: "pending" }], {
        status: "requested",
        createdAt: now - random.int(2, 30) * HOUR,
        requested: true,
      });
    }
  });

  // 3. Bulk quantities between two levels neither of which has moved in the last four days.
  const levels = w.db
    .prepare(
      `SELECT s.location_id AS locationId, s.variation_id AS variationId, s.on_hand AS onHand, s.updated_at AS updatedAt
      FROM stock_levels AS s ORDER BY s.location_id, s.variation_id`,
    )
    .all() as { locationId: string; variationId: string; onHand: number; updatedAt: number }[];
  const still = now - 4 * DAY;
  const levelAt = new Map(levels.map((q) => [`${q.locationId}|${q.variationId}`, q]));
  const quiet = levels.filter((q) => q.updatedAt < still);
  const bulkIds = new Set(catalog.bulk.map((v) => v.id));
  const candidates = quiet.filter(
    (q) => bulkIds.has(q.variationId) && q.onHand >= 2 * (variations.get(q.variationId)?.unitsPerPackage ?? 1),
  );
  const perLocation = new Map<string, number>();
  for (const q of candidates) {
    if ((perLocation.get(q.locationId) ?? 0) >= 3) continue;
    const from = locations.get(q.locationId);
    const variation = variations.get(q.variationId);
    if (!from || !variation) continue;
    // A destination whose level of it has not moved since (or has none).
    const to = catalog.locations.find((l) => {
      const there = levelAt.get(`${l.id}|${variation.id}`);
      return l.id !== from.id && (!there || there.updatedAt < still) && !perLocation.has(`${l.id}|${variation.id}`);
    });
    if (!to) continue;
    perLocation.set(q.locationId, (perLocation.get(q.locationId) ?? 0) + 1);
    perLocation.set(`${to.id}|${variation.id}`, 1);
    const quantity = variation.unitsPerPackage;
    const sentAt = now - Math.floor((0.5 + random.float() * 3) * DAY);
    const createdAt = sentAt - HOUR;
    const onRoad = now - sentAt < DAY;
    const short = !onRoad && random.chance(0.3);
    const line: PlannedLine = {
      variation,
      quantity,
      lot: null,
      fate: onRoad ? "pending" : short ? "short" : "received",
      received: short ? quantity - random.int(1, Math.max(1, Math.floor(quantity / 4))) : quantity,
    };
    if (onRoad) transfer(from, to, [line], { status: "in_transit", createdAt, sentAt });
    else transfer(from, to, [line], { status: "received", createdAt, sentAt, arrivedAt: sentAt + 6 * HOUR });
  }
  return counts;
}
