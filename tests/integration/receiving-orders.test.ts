// Receiving against a purchase order (issue 23): a receipt opened from a submitted or partially
// received order lists what it still expects and fills Add line with it; completing advances the
// order's lines and status in the same batch (two completions at once both count), more than
// expected needs a reason, and a closed, cancelled or unreachable order is refused.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { arrivalsReads, shapeArrivals } from "../../app/purchasing/arrivals.server";
import { addReceiptLine } from "../../app/receiving/add-line.server";
import { completeReceipt } from "../../app/receiving/complete.server";
import type { ReceiptLineInput } from "../../app/receiving/forms";
import { receiptDetail } from "../../app/receiving/list.server";
import { openReceiptFromOrder } from "../../app/receiving/open-from-order.server";
import { RECEIVING_REFUSALS } from "../../app/receiving/outcome";
import { readScan } from "../../app/receiving/scan.server";
import * as receivingScreen from "../../app/routes/_app.receiving._index";
import * as receiptScreen from "../../app/routes/_app.receiving.$receiptId.add-products";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { insertOrder, orderState, setOrderStatus } from "../support/orders";
import { variationFacts } from "../support/receive";
import {
  formRequest,
  loadContext,
  outcome,
  pageRequest,
  signedIn,
  TEST_ENV,
  withLocationChoice,
} from "../support/screens";

type Code = "DTN" | "WST" | "NTH";

let t: TestDatabase;
let loc: Record<Code, string>;
let vendorId: string;
const users = new Map<string, SessionUser>();
let BOTOX: { id: string; units: number; gtin: string };
let PADS: { id: string; units: number };
let XEOMIN: { id: string; units: number };

const variation = (product: string, name: string) => variationFacts(t.db, product, name);

function as(name: string, where: Code | typeof ORGANIZATION): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) users.set(name, (await signedIn(t.db, name)).user);
  BOTOX = await variation("Botox Cosmetic", "100 U vial");
  XEOMIN = await variation("Xeomin", "100 U vial");
  PADS = await variation("Alcohol prep pads", "Box of 200");
  const [vendor] = await t.db.select({ id: schema.vendors.id }).from(schema.vendors).limit(1);
  vendorId = vendor?.id ?? "";
});
afterAll(() => t.close());

const admin = () => as("admin", "DTN");

/** A submitted order at DTN (or `where`) of PADS and BOTOX by default. */
function order(
  lines: { variationId: string; packages: number; unitCostCents: number; received?: number }[] = [
    { variationId: "PADS", packages: 10, unitCostCents: 1234 },
    { variationId: "BOTOX", packages: 4, unitCostCents: 45_000 },
  ],
  status: "submitted" | "partially_received" | "received" | "closed" | "cancelled" | "draft" = "submitted",
  where: Code = "DTN",
) {
  const ids: Record<string, string> = { PADS: PADS.id, BOTOX: BOTOX.id, XEOMIN: XEOMIN.id };
  return insertOrder(t.db, {
    locationId: loc[where],
    vendorId,
    status,
    lines: lines.map((l) => ({ ...l, variationId: ids[l.variationId] ?? l.variationId })),
  });
}

async function openFrom(orderId: string, actor = admin()) {
  const opened = await openReceiptFromOrder(t.db, actor, { purchaseOrderId: orderId, reference: null, notes: null });
  if (!opened.ok) throw new Error(opened.message);
  return opened.receiptId;
}

const line = (variationId: string, quantity: number, extra: Partial<ReceiptLineInput> = {}): ReceiptLineInput => ({
  variationId,
  quantity,
  lot: "L-23",
  serial: null,
  expirationDate: "2030-06-30",
  unitCostCents: null,
  ...extra,
});

async function add(receiptId: string, input: ReceiptLineInput, actor = admin()) {
  const added = await addReceiptLine(t.db, actor, { receiptId, ...input });
  if (!added.ok) throw new Error(added.message);
  return added.lineId;
}

/** What a refusal must leave untouched: the order, every level, every movement and activity row. */
async function snapshot(orderId: string) {
  const [levels, movements, activity, receipts] = await t.db.batch([
    t.db.all(sql`SELECT location_id, variation_id, on_hand FROM stock_levels ORDER BY 1, 2`),
    t.db.all(sql`SELECT count(*) AS n FROM stock_movements`),
    t.db.all(sql`SELECT count(*) AS n FROM activity_log`),
    t.db.all(sql`SELECT id, status, version, over_receipt_reason FROM receipts ORDER BY id`),
  ]);
  return { order: await orderState(t.db, orderId), levels, movements, activity, receipts };
}

const onHand = async (variationId: string, where: Code = "DTN") => {
  const [row] = await t.db
    .select({ onHand: schema.stockLevels.onHand })
    .from(schema.stockLevels)
    .where(and(eq(schema.stockLevels.locationId, loc[where]), eq(schema.stockLevels.variationId, variationId)));
  return row?.onHand ?? 0;
};

describe("opening a receipt against an order", () => {
  it("takes the order's location and vendor and lists what it still expects, with the order's unit cost", async () => {
    const { id, number } = await order([
      { variationId: "PADS", packages: 10, unitCostCents: 1234, received: 3 },
      { variationId: "BOTOX", packages: 4, unitCostCents: 45_000 },
    ]);
    await setOrderStatus(t.db, id, "partially_received");
    expect(number).toMatch(/^PO-\d{4}-\d{4,}$/);
    const receiptId = await openFrom(id);
    const [receipt] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, receiptId));
    expect(receipt).toMatchObject({ locationId: loc.DTN, vendorId, purchaseOrderId: id, status: "open" });
    const opened = await t.lastActivity();
    expect(opened).toMatchObject({ action: "open_receipt", entityId: receiptId });
    expect(opened?.summary).toMatchObject({ purchaseOrderId: id, number });

    const detail = await receiptDetail(t.db, admin(), receiptId);
    expect(detail?.order).toMatchObject({ id, number, status: "partially_received" });
    const expected = Object.fromEntries(
      (detail?.expected ?? []).map((e) => [e.variationId, [Number(e.outstanding), Number(e.unitCostCents)]]),
    );
    expect(expected).toEqual({ [PADS.id]: [7, 1234], [BOTOX.id]: [4, 45_000] });

    // A GS1 scan of a line on the order fills the packages still expected and the order's cost,
    // beside the lot and expiry it carries; the receiver may still change the packages.
    const scan = `(01)${BOTOX.gtin.padStart(14, "0")}(17)300630(10)LOT-7`;
    const read = await readScan(t.db, admin(), { receiptId, scan });
    expect(read).toMatchObject({
      ok: true,
      reading: {
        kind: "found",
        prefill: {
          variationId: BOTOX.id,
          quantity: "4",
          unitCost: "450.00",
          lot: "LOT-7",
          expirationDate: "2030-06-30",
        },
      },
    });
    // Once 3 are on the receipt, the scan fills the 1 left; a line with no cost takes the order's.
    await add(receiptId, line(BOTOX.id, 3));
    const again = await readScan(t.db, admin(), { receiptId, scan });
    expect(again).toMatchObject({ ok: true, reading: { prefill: { quantity: "1" } } });
    const [onReceipt] = await t.db
      .select({ cost: schema.receiptLines.unitCostCents })
      .from(schema.receiptLines)
      .where(eq(schema.receiptLines.receiptId, receiptId));
    expect(onReceipt?.cost).toBe(45_000);
  });

  it("refuses a draft, received, closed or cancelled order, with the reason", async () => {
    for (const status of ["draft", "received", "closed", "cancelled"] as const) {
      const { id } = await order(undefined, status);
      const before = await snapshot(id);
      const refused = await openReceiptFromOrder(t.db, admin(), { purchaseOrderId: id, reference: null, notes: null });
      expect(refused).toMatchObject({ ok: false, refusal: "order_not_receivable" });
      if (!refused.ok)
        expect(refused.message).toMatch(
          status === "draft" ? /draft/ : new RegExp(status === "received" ? "arrived" : status),
        );
      expect(await snapshot(id)).toEqual(before);
    }
  });

  it("refuses another location's order, and a user who cannot read purchasing there", async () => {
    const westside = await order(undefined, "submitted", "WST");
    const before = await snapshot(westside.id);
    // The admin works at Downtown: Westside's order is not there (switching location reaches it: MANAGER there).
    for (const actor of [admin(), as("staff", "DTN")]) {
      expect(
        await openReceiptFromOrder(t.db, actor, { purchaseOrderId: westside.id, reference: null, notes: null }),
      ).toMatchObject({ ok: false, refusal: "order_not_found" });
    }
    const downtown = await order();
    // Staff write inventory at Downtown but cannot read its orders: they receive without one.
    expect(
      await openReceiptFromOrder(t.db, as("staff", "DTN"), {
        purchaseOrderId: downtown.id,
        reference: null,
        notes: null,
      }),
    ).toMatchObject({ ok: false, refusal: "order_not_found" });
    expect(
      await openReceiptFromOrder(t.db, admin(), { purchaseOrderId: "no-such-order", reference: null, notes: null }),
    ).toMatchObject({ ok: false, refusal: "order_not_found" });
    expect(await snapshot(westside.id)).toEqual(before);
    // At Westside, where the admin is a manager (WRITE_INVENTORY, READ_PURCHASING), it opens.
    expect(await openFrom(westside.id, as("admin", "WST"))).toBeTruthy();
    // Organization mode reaches every location's orders.
    expect(await openFrom(downtown.id, as("owner", ORGANIZATION))).toBeTruthy();
  });
});

describe("completing a receipt against an order", () => {
  it("advances the order line by line: partially received, then received, with activity rows and stock", async () => {
    const { id, number } = await order();
    const padsBefore = await onHand(PADS.id);
    const first = await openFrom(id);
    await add(first, line(PADS.id, 6, { lot: null, expirationDate: null }));
    expect(await completeReceipt(t.db, admin(), { receiptId: first })).toMatchObject({ ok: true });
    expect(await orderState(t.db, id)).toMatchObject({
      status: "partially_received",
      received: { [PADS.id]: 6, [BOTOX.id]: 0 },
    });
    expect(await onHand(PADS.id)).toBe(padsBefore + 6 * PADS.units);
    const [logged] = await t.db
      .select()
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.action, "receive_purchase_order"), eq(schema.activityLog.entityId, id)));
    expect(logged).toMatchObject({ entity: "purchase_order", locationId: loc.DTN });
    expect(logged?.summary).toMatchObject({
      number,
      receiptId: first,
      status: "partially_received",
      received: [{ variationId: PADS.id, packages: 6 }],
    });

    // The rest, in two lots of Botox: the order is received.
    const second = await openFrom(id);
    await add(second, line(PADS.id, 4, { lot: null, expirationDate: null }));
    await add(second, line(BOTOX.id, 1, { lot: "A1" }));
    await add(second, line(BOTOX.id, 3, { lot: "A2" }));
    expect(await completeReceipt(t.db, admin(), { receiptId: second })).toMatchObject({ ok: true, items: 4 });
    expect(await orderState(t.db, id)).toMatchObject({
      status: "received",
      received: { [PADS.id]: 10, [BOTOX.id]: 4 },
    });
    const rows = await t.db
      .select({ id: schema.activityLog.id })
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.action, "receive_purchase_order"), eq(schema.activityLog.entityId, id)));
    expect(rows).toHaveLength(2);
    // Nothing is left to receive: a new receipt is refused.
    expect(
      await openReceiptFromOrder(t.db, admin(), { purchaseOrderId: id, reference: null, notes: null }),
    ).toMatchObject({ ok: false, refusal: "order_not_receivable" });
  });

  it("counts both of two receipts completing at once against the same order", async () => {
    const { id } = await order([{ variationId: "PADS", packages: 10, unitCostCents: 100 }]);
    const a = await openFrom(id);
    const b = await openFrom(id);
    await add(a, line(PADS.id, 4, { lot: null, expirationDate: null }));
    await add(b, line(PADS.id, 6, { lot: null, expirationDate: null }));
    const before = await onHand(PADS.id);
    const outcomes = await Promise.all([
      completeReceipt(t.db, admin(), { receiptId: a }),
      completeReceipt(t.db, as("owner", "DTN"), { receiptId: b }),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(await orderState(t.db, id)).toMatchObject({ status: "received", received: { [PADS.id]: 10 } });
    expect(await onHand(PADS.id)).toBe(before + 10 * PADS.units);

    // Each brings all 5 the order expects: whichever completes second brings more than is left and,
    // with no reason, is refused; the order holds exactly what arrived.
    const small = await order([{ variationId: "PADS", packages: 5, unitCostCents: 100 }]);
    const c = await openFrom(small.id);
    const d = await openFrom(small.id);
    await add(c, line(PADS.id, 5, { lot: null, expirationDate: null }));
    await add(d, line(PADS.id, 5, { lot: null, expirationDate: null }));
    const raced = await Promise.all([
      completeReceipt(t.db, admin(), { receiptId: c }),
      completeReceipt(t.db, as("owner", "DTN"), { receiptId: d }),
    ]);
    expect(raced.filter((o) => o.ok)).toHaveLength(1);
    expect(raced.find((o) => !o.ok)).toMatchObject({ refusal: "over_receipt_reason" });
    expect(await orderState(t.db, small.id)).toMatchObject({ status: "received", received: { [PADS.id]: 5 } });
  });

  it("needs a reason when more arrives than the order expects, or a variation not on it", async () => {
    const { id } = await order([{ variationId: "PADS", packages: 10, unitCostCents: 100 }]);
    const receiptId = await openFrom(id);
    await add(receiptId, line(PADS.id, 12, { lot: null, expirationDate: null }));
    const before = await snapshot(id);
    for (const reason of [undefined, null, "   ", "x", "y".repeat(10_000)]) {
      expect(await completeReceipt(t.db, admin(), { receiptId, overReceiptReason: reason })).toEqual({
        ok: false,
        refusal: "over_receipt_reason",
        message: RECEIVING_REFUSALS.over_receipt_reason,
      });
    }
    expect(await snapshot(id)).toEqual(before);
    expect(
      await completeReceipt(t.db, admin(), { receiptId, overReceiptReason: "Vendor sent a full case" }),
    ).toMatchObject({ ok: true });
    expect(await orderState(t.db, id)).toMatchObject({ status: "received", received: { [PADS.id]: 12 } });
    const [receipt] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, receiptId));
    expect(receipt?.overReceiptReason).toBe("Vendor sent a full case");

    // A variation the order does not have: received (the stock is here) only with a reason; the
    // order's lines do not change and it is partially received once anything of it arrived.
    const other = await order([{ variationId: "PADS", packages: 10, unitCostCents: 100 }]);
    const substituted = await openFrom(other.id);
    await add(substituted, line(XEOMIN.id, 2));
    expect(await completeReceipt(t.db, admin(), { receiptId: substituted })).toMatchObject({
      ok: false,
      refusal: "over_receipt_reason",
    });
    expect(
      await completeReceipt(t.db, admin(), { receiptId: substituted, overReceiptReason: "Xeomin sent for Botox" }),
    ).toMatchObject({ ok: true, items: 2 });
    expect(await orderState(t.db, other.id)).toMatchObject({ status: "submitted", received: { [PADS.id]: 0 } });

    // A reason given when nothing is over is not kept.
    const exact = await order([{ variationId: "PADS", packages: 2, unitCostCents: 100 }]);
    const fine = await openFrom(exact.id);
    await add(fine, line(PADS.id, 2, { lot: null, expirationDate: null }));
    expect(await completeReceipt(t.db, admin(), { receiptId: fine, overReceiptReason: "just in case" })).toMatchObject({
      ok: true,
    });
    const [kept] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, fine));
    expect(kept?.overReceiptReason).toBeNull();
  });

  it("refuses to complete against an order closed or cancelled meanwhile, changing nothing", async () => {
    for (const status of ["closed", "cancelled"] as const) {
      const { id } = await order([{ variationId: "PADS", packages: 10, unitCostCents: 100 }]);
      const receiptId = await openFrom(id);
      await add(receiptId, line(PADS.id, 3, { lot: null, expirationDate: null }));
      await setOrderStatus(t.db, id, status);
      const before = await snapshot(id);
      expect(await completeReceipt(t.db, admin(), { receiptId, overReceiptReason: "anything" })).toEqual({
        ok: false,
        refusal: "order_closed",
        message: RECEIVING_REFUSALS.order_closed,
      });
      expect(await snapshot(id)).toEqual(before);
    }
  });
});

describe("what arrived, for the order's page", () => {
  it("lists each completed receipt with when, who, lots, expiry, packages and why more came, and the open ones", async () => {
    const { id } = await order([
      { variationId: "PADS", packages: 2, unitCostCents: 100 },
      { variationId: "BOTOX", packages: 3, unitCostCents: 45_000 },
    ]);
    const first = await openFrom(id);
    await add(first, line(BOTOX.id, 2, { lot: "B-1", expirationDate: "2031-01-31" }));
    await add(first, line(BOTOX.id, 1, { lot: "B-2", expirationDate: "2031-02-28" }));
    expect(await completeReceipt(t.db, admin(), { receiptId: first })).toMatchObject({ ok: true });
    const second = await openFrom(id);
    await add(second, line(PADS.id, 3, { lot: null, expirationDate: null }));
    expect(
      await completeReceipt(t.db, as("owner", "DTN"), { receiptId: second, overReceiptReason: "One box extra" }),
    ).toMatchObject({ ok: true });
    const other = await order([{ variationId: "PADS", packages: 2, unitCostCents: 100 }]);
    const open = await openFrom(other.id);
    await add(open, line(PADS.id, 1, { lot: null, expirationDate: null }));

    const arrivals = shapeArrivals(await t.db.batch([...arrivalsReads(t.db, id)]));
    expect(arrivals.open).toEqual([]);
    expect(arrivals.completed).toMatchObject([
      {
        receiptId: first,
        href: `/receiving/${first}/add-products`,
        receivedBy: "Adam Admin",
        overReceiptReason: null,
        packages: 3,
        lines: [
          { variationId: BOTOX.id, packages: 2, lot: "B-1", expires: "Jan 31, 2031" },
          { variationId: BOTOX.id, packages: 1, lot: "B-2", expires: "Feb 28, 2031" },
        ],
      },
      {
        receiptId: second,
        overReceiptReason: "One box extra",
        packages: 3,
        lines: [{ variationId: PADS.id, lot: null }],
      },
    ]);
    expect(arrivals.completed[0]?.received?.text).toBeTruthy();
    const pending = shapeArrivals(await t.db.batch([...arrivalsReads(t.db, other.id)]));
    expect(pending).toMatchObject({ completed: [], open: [{ receiptId: open, openedBy: "Adam Admin" }] });
  });
});

describe("the receiving screens with an order", () => {
  const context = () => loadContext(t.db, TEST_ENV);
  async function cookieFor(name: string, where: Code) {
    const { cookie } = await signedIn(t.db, name);
    return withLocationChoice(cookie, loc[where]);
  }
  const start = (cookie: string, form: Record<string, string>) =>
    outcome(() =>
      receivingScreen.action({ request: formRequest("/receiving", cookie, form), context: context(), params: {} }),
    );
  const page = (receiptId: string, cookie: string, query = "") =>
    outcome(() =>
      receiptScreen.loader({
        request: pageRequest(`/receiving/${receiptId}/add-products${query}`, cookie),
        context: context(),
        params: { receiptId },
      }),
    );
  const act = (receiptId: string, cookie: string, form: Record<string, string>) =>
    outcome(() =>
      receiptScreen.action({
        request: formRequest(`/receiving/${receiptId}/add-products`, cookie, form),
        context: context(),
        params: { receiptId },
      }),
    );

  it("offers the awaited orders, opens from one, fills a line, asks why when more arrived, and answers bad input with a 400", async () => {
    const { id, number } = await order([{ variationId: "PADS", packages: 3, unitCostCents: 250 }]);
    const cookie = await cookieFor("admin", "DTN");
    const list = await outcome(() =>
      receivingScreen.loader({ request: pageRequest("/receiving", cookie), context: context(), params: {} }),
    );
    expect((list.data as { orders: { id: string; label: string }[] }).orders).toContainEqual({
      id,
      label: expect.stringContaining(number),
    });
    // Staff cannot read orders: none offered.
    const staff = await cookieFor("staff", "DTN");
    const theirs = await outcome(() =>
      receivingScreen.loader({ request: pageRequest("/receiving", staff), context: context(), params: {} }),
    );
    expect((theirs.data as { orders: unknown[] }).orders).toEqual([]);

    // Bad input: an order id of 10,000 characters, a closed order.
    expect((await start(cookie, { purchaseOrderId: "x".repeat(10_000) })).status).toBe(400);
    const closed = await order(undefined, "closed");
    const refused = await start(cookie, { purchaseOrderId: closed.id });
    expect(refused).toMatchObject({ status: 409, data: { formError: expect.stringMatching(/closed/) } });
    expect((await start(staff, { purchaseOrderId: id })).status).toBe(409);

    const started = await start(cookie, { purchaseOrderId: id, reference: "PS-23", locationId: loc.WST, vendorId: "" });
    expect(started.status).toBe(302);
    const receiptId = started.location?.match(/^\/receiving\/([^/]+)\/add-products$/)?.[1] ?? "";
    const shown = await page(receiptId, cookie, `?fill=${PADS.id}`);
    expect(shown).toMatchObject({
      status: 200,
      data: {
        order: { id, number },
        expected: [{ variationId: PADS.id, ordered: 3, received: 0, toReceive: 3, unitCost: "$2.50" }],
        fill: { variationId: PADS.id, quantity: "3", unitCost: "2.50" },
        overReceipt: false,
      },
    });

    // Staff read the receipt (and may complete it) but not purchasing: the order is not shown to them.
    expect(await page(receiptId, staff, `?fill=${PADS.id}`)).toMatchObject({
      status: 200,
      data: { order: null, expected: [], fill: null },
    });

    const added = await act(receiptId, cookie, {
      intent: "add-line",
      variationId: PADS.id,
      quantity: "5",
      unitCost: "2.50",
    });
    expect(added.status).toBe(302);
    expect(await page(receiptId, cookie)).toMatchObject({ data: { overReceipt: true } });
    // Bad reasons: too short, 10,000 characters; then none at all (the verb's refusal, under its field).
    for (const overReceiptReason of ["x", "y".repeat(10_000)]) {
      expect(await act(receiptId, cookie, { intent: "complete", overReceiptReason })).toMatchObject({
        status: 400,
        data: { fieldErrors: { overReceiptReason: expect.any(String) } },
      });
    }
    expect(await act(receiptId, cookie, { intent: "complete" })).toMatchObject({
      status: 409,
      data: { fieldErrors: { overReceiptReason: RECEIVING_REFUSALS.over_receipt_reason } },
    });
    expect(await orderState(t.db, id)).toMatchObject({ status: "submitted", received: { [PADS.id]: 0 } });
    const completed = await act(receiptId, cookie, { intent: "complete", overReceiptReason: "Two extra boxes sent" });
    expect(completed.status).toBe(302);
    expect(await orderState(t.db, id)).toMatchObject({ status: "received", received: { [PADS.id]: 5 } });
  });
});
