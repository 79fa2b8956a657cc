// The large data set's stock history, written as the verbs would have written it: receipts
// (opened, lines added, completed: sealed items with label codes and barcodes, RECEIVE movements),
// vials started, drawn from (a usage entry and its USE movement each), emptied (WASTE), discarded
// by a person (DISCARD) or by the waste job past their deadline (WASTE, beyond_use_deadline), lots
// recalled and lifted, and bulk stock adjusted (ADJUST). Every row's activity row has the action
// and summary shape its verb writes (app/receiving/complete, app/vials/*, app/stock/adjust,
// app/recalls). Levels are summed as movements are written and stored once at the end.
import { formatQuantity } from "../../../app/catalog/format";
import { deadlineWhenStarted } from "../../../app/vials/rules";
import { ADJUST_REASONS } from "../../../db/schema/stock/constants";
import type { Catalog, Location, Variation } from "./catalog";
import { labelCodeOf, type Random } from "./random";
import type { Sizes } from "./sizes";
import { LARGE_TARGETS } from "./targets";
import type { Insert, Writer } from "./writer";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Who draws at the cart (and, in the sales seed, who performs the services sold). */
export const PROVIDERS = [
  "Dr. Rivera",
  "Dr. Chen",
  "Dr. Okafor",
  "Dr. Patel",
  "Dr. Moreau",
  "Dr. Silva",
  "Dr. Tanaka",
  "Dr. Weber",
  "NP Adams",
  "NP Baker",
  "NP Cruz",
  "NP Diaz",
  "NP Evans",
  "NP Foster",
  "NP Garcia",
  "NP Hughes",
  "RN Ito",
  "RN Jensen",
  "RN Khan",
  "RN Lopez",
];
const PATIENTS = 200_000;
const DISCARD_NOTES = ["Dropped during prep", "Cap seal broken", "Cold chain break reported"];

type Fate = "sealed" | "in_transit" | "in_use" | "empty" | "waste" | "discard_open" | "discard_sealed";

interface ItemSpec {
  receiptId: string;
  receivedBy: string;
  location: Location;
  variation: Variation;
  lineId: string;
  lot: string;
  expirationDate: string;
  receivedAt: number;
  costCents: number;
}

interface Options {
  fate: Fate;
  draws: number;
  /** Everything of this vial happens before this instant (default: now). */
  before?: number;
  /** The reason of a discard (default: by fate). */
  reason?: string;
  /** A discard happens after this instant (a recalled lot: after its recall). */
  after?: number;
  /** An in-use vial was started at most this long before now (its deadline then lies well ahead). */
  startedWithin?: number;
}

export interface StockCounts {
  receipts: number;
  items: number;
  /** Vials that were ever started. */
  started: number;
  draws: number;
  movements: number;
  recalls: number;
}

/** End of an expiration day in UTC, as app/stock/expiry reads it. */
function endOfDay(date: string): number {
  return Date.parse(`${date}T23:59:59.999Z`);
}

function dateOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export function writeStock(w: Writer, random: Random, sizes: Sizes, catalog: Catalog, now: number, ownerId: string) {
  const start = now - sizes.historyDays * DAY;
  const levels = new Map<string, { locationId: string; variationId: string; onHand: number; updatedAt: number }>();
  const counts: StockCounts = { receipts: 0, items: 0, started: 0, draws: 0, movements: 0, recalls: 0 };

  const insertReceipt = w.insert("receipts", "id location_id vendor_id reference status version opened_by created_at");
  const completeReceipt = w.run(
    "UPDATE receipts SET status = 'completed', completed_at = ?, completed_by = ?, version = version + 1 WHERE id = ?",
  );
  const insertLine = w.insert(
    "receipt_lines",
    "id receipt_id variation_id quantity units_per_package lot expiration_date unit_cost_cents created_at",
  );
  const insertItem = w.insert(
    "items",
    "id location_id variation_id receipt_line_id label_code lot expiration_date state units_remaining started_at expires_at cost_cents discard_reason discard_note ended_at witness_user_id received_at created_at updated_at",
  );
  const insertBarcode = w.insert("barcodes", "id code item_id created_at");
  const insertMovement = w.insert(
    "stock_movements",
    "id occurred_at location_id variation_id item_id lot quantity type reason note reference_type reference_id user_id",
  );
  const insertUsage = w.insert(
    "usage_entries",
    "id item_id location_id variation_id lot units service_id provider patient_ref used_at user_id created_at",
  );
  const insertActivity: Insert = w.insert("activity_log", "id at user_id location_id action entity entity_id summary");
  const insertRecall = w.insert(
    "lot_recalls",
    "id organization_id variation_id lot note recalled_by recalled_at lifted_by lifted_at lift_note",
  );

  const log = (
    at: number,
    userId: string | null,
    locationId: string | null,
    action: string,
    entity: string,
    entityId: string,
    summary: object,
  ) => {
    insertActivity(random.uuid(at), at, userId, locationId, action, entity, entityId, JSON.stringify(summary));
  };

  const record = (
    at: number,
    location: Location,
    variation: Variation,
    quantity: number,
    type: string,
    more: {
      itemId?: string;
      lot?: string | null;
      reason?: string | null;
      note?: string | null;
      reference?: [string, string];
      userId: string | null;
      id?: string;
    },
  ) => {
    insertMovement(
      more.id ?? random.uuid(at),
      at,
      location.id,
      variation.id,
      more.itemId ?? null,
      more.lot ?? null,
      quantity,
      type,
      more.reason ?? null,
      more.note ?? null,
      more.reference?.[0] ?? null,
      more.reference?.[1] ?? null,
      more.userId,
    );
    counts.movements++;
    const key = `${location.id}|${variation.id}`;
    const level = levels.get(key);
    if (level) {
      level.onHand += quantity;
      level.updatedAt = Math.max(level.updatedAt, at);
    } else {
      levels.set(key, { locationId: location.id, variationId: variation.id, onHand: quantity, updatedAt: at });
    }
  };

  const someone = (location: Location) => random.pick(location.users);
  const other = (location: Location, not: string) => {
    const others = location.users.filter((u) => u !== not);
    return others.length ? random.pick(others) : not;
  };
  const unitsText = (v: Variation, units: number) => formatQuantity(units, v.kind.unitScale, v.kind.baseUnit);

  /** `units` split into `k` draws (each ≥ 1) and what is left, by the fate's shape of leftover. */
  function split(units: number, k: number, leftover: "none" | "some" | "most"): { draws: number[]; left: number } {
    const weights = Array.from({ length: k }, () => 0.5 + random.float());
    const sum = weights.reduce((a, b) => a + b, 0);
    const leftWeight =
      leftover === "none"
        ? 0
        : leftover === "some"
          ? sum * (0.05 + 0.3 * random.float())
          : sum * (0.6 + random.float());
    const total = sum + leftWeight;
    const draws = weights.map((x) => Math.max(1, Math.floor((units * x) / total)));
    let drawn = draws.reduce((a, b) => a + b, 0);
    const keep = leftover === "none" ? 0 : 1;
    // Rounding up to 1 may overshoot: take back from the largest draws.
    while (drawn > units - keep) {
      const largest = draws.indexOf(Math.max(...draws));
      draws[largest] = (draws[largest] as number) - 1;
      drawn--;
    }
    if (leftover === "none" && k > 0) {
      draws[k - 1] = (draws[k - 1] as number) + units - drawn;
      drawn = units;
    }
    return { draws, left: units - drawn };
  }

  /** Sorted instants in [from, to). */
  function instants(n: number, from: number, to: number): number[] {
    const out = Array.from({ length: n }, () => from + Math.floor(random.float() * (to - from)));
    return out.sort((a, b) => a - b);
  }

  /** One vial's life from its receipt to `fate`; answers the draws written (fates degrade when time does not allow). */
  function vial(spec: ItemSpec, options: Options, number: number): number {
    const { location, variation, lot, expirationDate, receivedAt } = spec;
    const id = random.uuid(receivedAt);
    const labelCode = labelCodeOf(number, random);
    const units = variation.unitsPerPackage;
    const limit = Math.min(options.before ?? now, now);
    const expEnd = endOfDay(expirationDate);
    let fate = options.fate;
    let k = Math.min(options.draws, units - 1);
    const earliest = receivedAt + DAY;
    const latestStart = Math.min(expEnd, limit) - 2 * HOUR;
    let startedAt = 0;
    if (fate === "in_use") {
      const bud = variation.beyondUseHours;
      const from = Math.max(
        earliest,
        bud ? limit - bud * HOUR + 30 * MINUTE : limit - 30 * DAY,
        limit - (options.startedWithin ?? Number.POSITIVE_INFINITY),
      );
      const to = limit - 10 * MINUTE;
      if (expEnd <= limit + HOUR || from >= to) fate = "sealed";
      else startedAt = from + Math.floor(random.float() * (to - from));
    } else if (fate === "empty" || fate === "waste" || fate === "discard_open") {
      if (latestStart <= earliest) fate = expEnd < limit - 3 * DAY ? "discard_sealed" : "sealed";
      else startedAt = earliest + Math.floor(random.float() * Math.min(latestStart - earliest, 45 * DAY));
    }
    const deadline = startedAt
      ? (deadlineWhenStarted(
          { expirationDate, beyondUseHours: variation.beyondUseHours },
          new Date(startedAt),
        )?.getTime() ?? 0)
      : 0;
    if (fate === "waste" && deadline + 2 * HOUR >= limit) fate = "empty";
    if (fate === "sealed" || fate === "in_transit" || fate === "discard_sealed") k = 0;

    const actor = someone(location);
    // The item row goes first (usage entries point at it) in its final state: the rest waits here.
    const later: (() => void)[] = [];
    const activity = (...args: Parameters<typeof log>) => later.push(() => log(...args));
    const move = (...args: Parameters<typeof record>) => later.push(() => record(...args));
    // The completion wrote the sealed item, its label barcode and its RECEIVE movement.
    const item = {
      state: fate === "in_transit" ? "in_transit" : "sealed",
      unitsRemaining: units,
      startedAt: null as number | null,
      expiresAt: null as number | null,
      discardReason: null as string | null,
      discardNote: null as string | null,
      endedAt: null as number | null,
      witness: null as string | null,
      updatedAt: null as number | null,
    };
    later.push(() => insertBarcode(random.uuid(receivedAt), labelCode, id, receivedAt));
    move(receivedAt, location, variation, units, "RECEIVE", {
      itemId: id,
      lot,
      reference: ["receipt", spec.receiptId],
      userId: spec.receivedBy,
    });

    const base = () => ({
      labelCode,
      product: variation.product,
      variation: variation.name,
      lot,
      state: item.state,
      unitsRemaining: item.unitsRemaining,
    });

    // Started: by its first draw (a start_vial row "by draw"), or by a start of its own.
    let useEnd = limit - MINUTE;
    if (startedAt) {
      const user = actor;
      if (fate !== "in_use") useEnd = Math.min(deadline, limit - MINUTE, startedAt + 30 * DAY);
      const byDraw = k > 0 && random.chance(0.9);
      if (!byDraw) {
        activity(startedAt, user, location.id, "start_vial", "item", id, { ...base(), startedAt, expiresAt: deadline });
      }
      item.state = "in_use";
      item.startedAt = startedAt;
      counts.started++;
      item.expiresAt = deadline;
      item.updatedAt = startedAt;
      const shape = fate === "in_use" ? "most" : fate === "empty" ? (random.chance(0.5) ? "none" : "some") : "some";
      const { draws } = split(units, k, shape);
      const times =
        k > 0 ? instants(k - 1, startedAt + 1, startedAt + Math.max(2, Math.floor((useEnd - startedAt) * 0.8))) : [];
      if (byDraw) times.unshift(startedAt);
      else times.unshift(startedAt + Math.floor(random.float() * Math.max(1, (times[0] ?? useEnd) - startedAt)));
      draws.forEach((drawn, n) => {
        const at = times[n] as number;
        const usageId = random.uuid(at);
        const service = random.chance(0.7) ? random.pick(catalog.services) : null;
        const provider = random.pick(PROVIDERS);
        const patientRef = `P-${String(random.int(1, PATIENTS)).padStart(6, "0")}`;
        const who = n === 0 ? user : someone(location);
        const text = unitsText(variation, drawn);
        const before = { ...base(), state: n === 0 && byDraw ? "sealed" : "in_use" };
        // json_patch drops the keys a draw leaves null (service, provider, patient): so do we.
        activity(at, who, location.id, "draw_units", "item", id, {
          ...before,
          usageId,
          units: drawn,
          unitsText: text,
          ...(service ? { service: service.name } : {}),
          provider,
          patientRef,
          usedAt: at,
        });
        if (n === 0 && byDraw) {
          activity(at, who, location.id, "start_vial", "item", id, {
            labelCode,
            product: variation.product,
            variation: variation.name,
            lot,
            by: "draw",
            startedAt: at,
            expiresAt: deadline,
          });
        }
        item.unitsRemaining -= drawn;
        item.updatedAt = at;
        move(at, location, variation, -drawn, "USE", { itemId: id, lot, reference: ["usage", usageId], userId: who });
        later.push(() =>
          insertUsage(
            usageId,
            id,
            location.id,
            variation.id,
            lot,
            drawn,
            service?.id ?? null,
            provider,
            patientRef,
            at,
            who,
            at,
          ),
        );
        counts.draws++;
      });
    }

    // Ended: emptied or discarded by a person, or discarded by the waste job past the deadline.
    if (fate === "empty" || fate === "waste" || fate === "discard_open" || fate === "discard_sealed") {
      const last = item.updatedAt ?? receivedAt;
      let at: number;
      let reason: string | null = null;
      let note: string | null = null;
      let user: string | null = someone(location);
      if (fate === "waste") {
        at = deadline + 5 * MINUTE + Math.floor(random.float() * HOUR);
        reason = "beyond_use_deadline";
        user = null;
      } else if (fate === "discard_sealed") {
        // Expired on the shelf, or damaged, or recalled (options.reason).
        const expired = expEnd < limit - DAY;
        reason = options.reason ?? (expired ? "expired" : random.pick(["damaged", "other"]));
        const from = options.after ?? (reason === "expired" ? expEnd + HOUR : receivedAt + HOUR);
        at = from + Math.floor(random.float() * Math.max(1, Math.min(limit - MINUTE, from + 20 * DAY) - from));
      } else {
        at = last + 1 + Math.floor(random.float() * Math.max(1, useEnd - last - 1));
        if (fate === "discard_open") reason = options.reason ?? random.pick(["contaminated", "damaged", "other"]);
      }
      if (reason === "other") note = random.pick(DISCARD_NOTES);
      const left = item.unitsRemaining;
      const witness = variation.kind.controlled && left > 0 && user ? other(location, user) : null;
      const action = fate === "empty" ? "empty_vial" : "discard_vial";
      activity(at, user, location.id, action, "item", id, {
        ...base(),
        wasted: left,
        ...(reason ? { reason } : {}),
        ...(note ? { note } : {}),
        ...(witness ? { witnessId: witness, witness: catalog.userNames.get(witness) } : {}),
      });
      if (left > 0) {
        const type = fate === "empty" || fate === "waste" ? "WASTE" : "DISCARD";
        move(at, location, variation, -left, type, { itemId: id, lot, reason, userId: user });
      }
      item.state = fate === "empty" ? "empty" : "discarded";
      item.unitsRemaining = 0;
      item.endedAt = at;
      item.discardReason = fate === "empty" ? null : reason;
      item.discardNote = fate === "empty" ? null : note;
      item.witness = witness;
      item.updatedAt = at;
    }

    insertItem(
      id,
      location.id,
      variation.id,
      spec.lineId,
      labelCode,
      lot,
      expirationDate,
      item.state,
      item.unitsRemaining,
      item.startedAt,
      item.expiresAt,
      spec.costCents,
      item.discardReason,
      item.discardNote,
      item.endedAt,
      item.witness,
      receivedAt,
      receivedAt,
      item.updatedAt,
    );
    counts.items++;
    for (const write of later) write();
    return k;
  }

  const bulkReceived: { location: Location; variation: Variation; at: number; units: number; lot: string | null }[] =
    [];
  const lotNames = { next: 0 };
  const newLot = () => `LT${(++lotNames.next).toString(36).toUpperCase().padStart(5, "0")}`;

  /** A recall of a lot marked at `at` by the owner (and lifted at `liftedAt`), with its activity rows. */
  function recall(variation: Variation, lot: string, at: number, liftedAt: number | null) {
    const id = random.uuid(at);
    const note = `Manufacturer notice for lot ${lot}`;
    const liftNote = liftedAt ? "Manufacturer withdrew the notice" : null;
    insertRecall(
      id,
      catalog.organizationId,
      variation.id,
      lot,
      note,
      ownerId,
      at,
      liftedAt ? ownerId : null,
      liftedAt,
      liftNote,
    );
    const summary = { variationId: variation.id, product: variation.product, variation: variation.name, lot };
    log(at, ownerId, null, "recall_lot", "lot_recall", id, { ...summary, note });
    if (liftedAt) log(liftedAt, ownerId, null, "lift_recall", "lot_recall", id, { ...summary, note: liftNote });
    counts.recalls++;
  }

  interface Line {
    variation: Variation;
    quantity: number;
    lot: string | null;
    expirationDate: string | null;
    /** The fate and draws of each item (serialized lines). */
    items?: Options[];
    /** Recall of this line's lot: in force from `at`, or lifted. */
    recall?: { at: number; liftedAt: number | null };
  }

  /** A receipt opened, given its lines, then completed at `receivedAt` (as the receiving verbs do). */
  function receipt(location: Location, receivedAt: number, lines: Line[], open = false) {
    const id = random.uuid(receivedAt - 45 * MINUTE);
    const openedAt = receivedAt - 45 * MINUTE;
    const user = someone(location);
    const vendor = random.pick(catalog.vendors);
    const reference = `INV-${String(counts.receipts + 1).padStart(7, "0")}`;
    insertReceipt(id, location.id, vendor.id, reference, "open", 1, user, openedAt);
    log(openedAt, user, location.id, "open_receipt", "receipt", id, {
      vendorId: vendor.id,
      vendor: vendor.name,
      reference,
      notes: null,
    });
    counts.receipts++;
    const lineIds = lines.map((line, n) => {
      const lineId = random.uuid(openedAt + (n + 1) * MINUTE);
      const v = line.variation;
      insertLine(
        lineId,
        id,
        v.id,
        line.quantity,
        v.unitsPerPackage,
        line.lot,
        line.expirationDate,
        v.costCents,
        openedAt + (n + 1) * MINUTE,
      );
      log(openedAt + (n + 1) * MINUTE, user, location.id, "add_receipt_line", "receipt", id, {
        lineId,
        variationId: v.id,
        product: v.product,
        variation: v.name,
        quantity: line.quantity,
        unitsPerPackage: v.unitsPerPackage,
        lot: line.lot,
        serial: null,
        expirationDate: line.expirationDate,
        expiryReason: null,
        unitCostCents: v.costCents,
      });
      return lineId;
    });
    if (open) return;
    completeReceipt(receivedAt, user, id);
    const serializedItems = lines.reduce(
      (n, l) => n + (l.variation.kind.tracking === "serialized" ? l.quantity : 0),
      0,
    );
    log(receivedAt, user, location.id, "receive_vials", "receipt", id, {
      completionId: random.uuid(receivedAt),
      lines: lines.length,
      items: serializedItems,
      received: lines.map((l) => ({
        variationId: l.variation.id,
        product: l.variation.product,
        variation: l.variation.name,
        tracking: l.variation.kind.tracking,
        packages: l.quantity,
        units: l.quantity * l.variation.unitsPerPackage,
        baseUnit: l.variation.kind.baseUnit,
        lot: l.lot,
        expirationDate: l.expirationDate,
      })),
      reference,
      vendor: vendor.name,
    });
    lines.forEach((line, n) => {
      const lineId = lineIds[n] as string;
      const v = line.variation;
      if (v.kind.tracking === "bulk") {
        const units = line.quantity * v.unitsPerPackage;
        record(receivedAt, location, v, units, "RECEIVE", { lot: line.lot, reference: ["receipt", id], userId: user });
        bulkReceived.push({ location, variation: v, at: receivedAt, units, lot: line.lot });
        return;
      }
      if (line.recall) recall(v, line.lot as string, line.recall.at, line.recall.liftedAt);
      const spec: ItemSpec = {
        receiptId: id,
        receivedBy: user,
        location,
        variation: v,
        lineId,
        lot: line.lot as string,
        expirationDate: line.expirationDate as string,
        receivedAt,
        costCents: v.costCents,
      };
      for (const options of line.items ?? []) vial(spec, options, counts.items);
    });
  }

  // The receipts of two years, oldest first, each at one location; items and draws on a budget.
  const receiptCount = Math.max(1, Math.round(sizes.items / 24));
  // The named targets below bring their own vials (5 draws each for the lot of 500 uses, a few
  // sealed, recalled and lifted ones at every location, one in use at L01) and draws.
  const targetItems = LARGE_TARGETS.usesOfLot / 5 + catalog.locations.length * 8 + 1;
  let itemsLeft = Math.max(1, sizes.items - targetItems);
  let drawsLeft = sizes.usageEntries - LARGE_TARGETS.usesOfLot - 2 - 2;
  const fateOf = (age: number, canLive: boolean): Fate => {
    if (random.chance(0.015)) return "in_transit";
    const days = age / DAY;
    if (random.chance(days < 90 ? 0.75 - (days / 90) * 0.65 : 0.03)) return "sealed";
    if (canLive && random.chance(days < 60 ? 0.3 : 0.03)) return "in_use";
    const r = random.float();
    return r < 0.72 ? "empty" : r < 0.84 ? "waste" : r < 0.92 ? "discard_open" : "discard_sealed";
  };
  for (let r = 0; r < receiptCount && itemsLeft > 0; r++) {
    const receivedAt = start + Math.floor(((r + random.float()) / receiptCount) * (sizes.historyDays * DAY - 2 * HOUR));
    const location = random.pick(catalog.locations);
    const want =
      r === receiptCount - 1
        ? itemsLeft
        : Math.min(itemsLeft, Math.max(1, Math.round((itemsLeft / (receiptCount - r)) * (0.5 + random.float()))));
    const lines: Line[] = [];
    let planned = 0;
    while (planned < want) {
      const quantity = Math.min(want - planned, random.int(1, 12));
      const variation = random.pick(catalog.serialized);
      const shortLived = random.chance(0.1);
      const expirationDate = dateOf(receivedAt + (shortLived ? random.int(20, 90) : random.int(120, 720)) * DAY);
      const age = now - receivedAt;
      const canLive = endOfDay(expirationDate) > now + 2 * HOUR;
      const lot = newLot();
      let lineRecall: Line["recall"];
      if (age < 60 * DAY && age > 3 * DAY && random.chance(0.004))
        lineRecall = { at: receivedAt + 2 * DAY, liftedAt: null };
      else if (age > 3 * DAY && random.chance(0.004))
        lineRecall = { at: receivedAt + HOUR, liftedAt: receivedAt + 20 * HOUR };
      const items: Options[] = [];
      for (let n = 0; n < quantity; n++) {
        if (lineRecall && !lineRecall.liftedAt) {
          // Quarantined on the shelf, or discarded because of the recall.
          items.push(
            random.chance(0.7)
              ? { fate: "sealed", draws: 0 }
              : { fate: "discard_sealed", draws: 0, reason: "recalled", after: (lineRecall?.at ?? 0) + HOUR },
          );
          itemsLeft--;
          continue;
        }
        const fate = fateOf(age, canLive);
        const started = fate === "in_use" || fate === "empty" || fate === "waste" || fate === "discard_open";
        // Draws per started vial, from what is left of the budget and the share of vials that did start.
        const share = counts.items > 100 ? counts.started / counts.items : 0.75;
        const mean = drawsLeft / Math.max(1, itemsLeft * share);
        const draws = started
          ? Math.max(fate === "in_use" ? 1 : 0, Math.round(mean * (0.3 + 1.4 * random.float())))
          : 0;
        items.push({ fate, draws });
        itemsLeft--;
      }
      planned += quantity;
      lines.push({ variation, quantity, lot, expirationDate, items, recall: lineRecall });
    }
    const bulkLines = random.int(0, 3);
    for (let n = 0; n < bulkLines && catalog.bulk.length; n++) {
      const variation = random.pick(catalog.bulk);
      lines.push({
        variation,
        quantity: random.int(2, 40),
        lot: random.chance(0.5) ? newLot() : null,
        expirationDate: null,
      });
    }
    const before = counts.draws;
    receipt(location, receivedAt, lines);
    drawsLeft -= counts.draws - before;
  }

  // The named targets (LARGE_TARGETS): at every location a receipt of the target variation.
  const target = catalog.target;
  const far = dateOf(now + 300 * DAY);
  const r500 = LARGE_TARGETS.usesOfLot / 5;
  catalog.locations.forEach((location, li) => {
    const receivedAt = now - 200 * DAY + li * HOUR;
    const share = Math.floor(r500 / catalog.locations.length) + (li < r500 % catalog.locations.length ? 1 : 0);
    const lines: Line[] = [
      {
        variation: target,
        quantity: share + 2,
        lot: LARGE_TARGETS.lotWith500Uses,
        expirationDate: far,
        // Five draws each, all before the recall (a day ago); two vials still sealed, so quarantined.
        items: [
          ...Array.from({ length: share }, (): Options => ({ fate: "empty", draws: 5, before: now - 3 * DAY })),
          { fate: "sealed", draws: 0 },
          { fate: "sealed", draws: 0 },
        ],
        recall: li === 0 ? { at: now - DAY, liftedAt: null } : undefined,
      },
      {
        variation: target,
        quantity: 4,
        lot: LARGE_TARGETS.recalledLot,
        expirationDate: far,
        items: [
          { fate: "sealed", draws: 0 },
          { fate: "sealed", draws: 0 },
          { fate: "sealed", draws: 0 },
          { fate: "discard_sealed", draws: 0, reason: "recalled", after: now - 10 * DAY + HOUR },
        ],
        recall: li === 0 ? { at: now - 10 * DAY, liftedAt: null } : undefined,
      },
      {
        variation: target,
        quantity: 2,
        lot: LARGE_TARGETS.liftedLot,
        expirationDate: far,
        items: [{ fate: "sealed", draws: 0 }, li === 0 ? { fate: "empty", draws: 2 } : { fate: "sealed", draws: 0 }],
        recall: li === 0 ? { at: receivedAt + HOUR, liftedAt: receivedAt + 20 * HOUR } : undefined,
      },
    ];
    if (location.code === LARGE_TARGETS.inUseLocation) {
      lines.push({
        variation: target,
        quantity: 1,
        lot: LARGE_TARGETS.inUseLot,
        expirationDate: far,
        items: [{ fate: "in_use", draws: 2, startedWithin: 3 * HOUR }],
      });
    }
    receipt(location, receivedAt, lines);
  });
  // A delivery being checked in at every location: an open receipt with its lines, nothing received.
  for (const location of catalog.locations) {
    const v = random.pick(catalog.serialized);
    receipt(
      location,
      now - HOUR,
      [{ variation: v, quantity: random.int(1, 6), lot: newLot(), expirationDate: dateOf(now + 365 * DAY) }],
      true,
    );
  }

  // Bulk stock used up by hand adjustments between deliveries, walked in time order per shelf so
  // each adjust_stock row names the balance right after it (the movements left in the budget).
  const shelves = new Map<string, typeof bulkReceived>();
  for (const received of bulkReceived) {
    const key = `${received.location.id}|${received.variation.id}`;
    const list = shelves.get(key);
    if (list) list.push(received);
    else shelves.set(key, [received]);
  }
  const adjustBudget = Math.max(0, sizes.stockMovements - counts.movements);
  const perDelivery = adjustBudget / Math.max(1, bulkReceived.length);
  for (const deliveries of shelves.values()) {
    deliveries.sort((a, b) => a.at - b.at);
    let balance = 0;
    deliveries.forEach((delivery, n) => {
      balance += delivery.units;
      const until = deliveries[n + 1]?.at ?? now - MINUTE;
      const count = until > delivery.at + MINUTE ? Math.round(perDelivery * (0.5 + random.float())) : 0;
      const { location, variation } = delivery;
      for (const at of instants(count, delivery.at + MINUTE, until)) {
        const reason = random.chance(0.1) ? "count_correction" : random.pick(ADJUST_REASONS);
        const quantity =
          reason === "count_correction" && random.chance(0.5)
            ? random.int(1, 5)
            : -Math.min(balance, Math.max(1, Math.round(balance * (0.02 + 0.1 * random.float()))));
        if (quantity === 0) continue;
        balance += quantity;
        const note = reason === "other" ? "Used for a demonstration" : null;
        const movementId = random.uuid(at);
        const user = someone(location);
        record(at, location, variation, quantity, "ADJUST", { id: movementId, reason, note, userId: user });
        log(at, user, location.id, "adjust_stock", "variation", variation.id, {
          movementId,
          location: location.name,
          product: variation.product,
          variation: variation.name,
          quantity,
          unitScale: variation.kind.unitScale,
          baseUnit: variation.kind.baseUnit,
          onHand: balance,
          reason,
          note,
        });
      }
    });
  }

  const insertLevel = w.insert("stock_levels", "location_id variation_id on_hand updated_at");
  for (const level of levels.values()) insertLevel(level.locationId, level.variationId, level.onHand, level.updatedAt);
  return counts;
}
