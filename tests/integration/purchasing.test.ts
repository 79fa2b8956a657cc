// Purchase orders against a real database (issue 23 sections 1, 2 and 7): create (numbered in SQL,
// two at once), draft edits, submit, a recorded revision, cancel and close with their reasons,
// each one batch with its activity row; bad input and another location's, another organization's
// or a closed order refused with nothing written; managers read but do not write, staff neither;
// the JSON API over the same verbs with its idempotency keys; the CSV of the lines.
import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { addOrderLines } from "../../app/purchasing/add-lines.server";
import { cancelPurchaseOrder } from "../../app/purchasing/cancel.server";
import { changeOrderLine } from "../../app/purchasing/change-line.server";
import { closePurchaseOrder } from "../../app/purchasing/close.server";
import { createPurchaseOrder } from "../../app/purchasing/create.server";
import { addDays } from "../../app/purchasing/lines.server";
import { listOrders, readOrder } from "../../app/purchasing/read.server";
import { removeOrderLine } from "../../app/purchasing/remove-line.server";
import { revisePurchaseOrder } from "../../app/purchasing/revise.server";
import { submitPurchaseOrder } from "../../app/purchasing/submit.server";
import * as indexRoute from "../../app/routes/_app.purchase-orders._index";
import * as pageRoute from "../../app/routes/_app.purchase-orders.$id._index";
import * as addItemsRoute from "../../app/routes/_app.purchase-orders.$id.add-items";
import * as listRoute from "../../app/routes/api.purchase-orders";
import * as oneRoute from "../../app/routes/api.purchase-orders.$id";
import * as cancelRoute from "../../app/routes/api.purchase-orders.$id.cancel";
import * as closeRoute from "../../app/routes/api.purchase-orders.$id.close";
import * as linesRoute from "../../app/routes/api.purchase-orders.$id.lines";
import * as reviseRoute from "../../app/routes/api.purchase-orders.$id.revise";
import * as submitRoute from "../../app/routes/api.purchase-orders.$id.submit";
import * as csvRoute from "../../app/routes/purchase-orders.$id.lines[.csv]";
import { calendarDayIn } from "../../app/ui/dates";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { variationNamed } from "../support/receive";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

type Where = "DTN" | "WST" | "NTH" | typeof ORGANIZATION;

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();
let BOTOX: string;
let PADS: string;
let GAUZE: string;
let ALLERGAN: string; // lead time 3 days
let SCHEIN: string;
let FOREIGN_VENDOR: string;

function as(name: string, where: Where = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

/** Everything a purchasing verb writes, as one signature: a refusal leaves all of it as it was. */
async function written() {
  const [activity, orders, lines, revisions, keys] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.all<{
      sig: string;
    }>(sql`SELECT group_concat(id || status || revision || version || coalesce(note, ''), ',') AS sig
      FROM (SELECT * FROM purchase_orders ORDER BY id)`),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || packages_ordered || unit_cost_cents || packages_received
        || coalesce(vendor_sku, '') || coalesce(expected_on, ''), ',') AS sig
      FROM (SELECT * FROM purchase_order_lines ORDER BY id)`),
    t.db.select({ n: count() }).from(schema.purchaseOrderRevisions),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
  ]);
  return {
    activity: activity[0]?.n,
    orders: orders[0]?.sig,
    lines: lines[0]?.sig,
    revisions: revisions[0]?.n,
    keys: keys[0]?.n,
  };
}

async function draft(
  lines: { variationId: string; packages: number; unitCostCents?: number }[] = [],
  by = as("admin"),
) {
  const made = await createPurchaseOrder(t.db, by, { locationId: loc.DTN, vendorId: ALLERGAN, lines });
  if (!made.ok) throw new Error(made.message);
  return made;
}

async function order(id: string) {
  const read = await readOrder(t.db, as("owner", ORGANIZATION), id);
  if (!read) throw new Error("no order");
  return read;
}

async function submitted(lines = [{ variationId: BOTOX, packages: 4, unitCostCents: 60000 }]) {
  const made = await draft(lines);
  const done = await submitPurchaseOrder(t.db, as("admin"), { orderId: made.orderId });
  if (!done.ok) throw new Error(done.message);
  return made.orderId;
}

/** What a receipt completed against the order would do to a line (receiving's verb is h3's part). */
async function arrived(orderId: string, variationId: string, packages: number) {
  await t.db.run(sql`UPDATE purchase_order_lines SET packages_received = packages_received + ${packages}
    WHERE order_id = ${orderId} AND variation_id = ${variationId}`);
  await t.db.run(sql`UPDATE purchase_orders SET status = CASE WHEN NOT EXISTS (SELECT 1 FROM purchase_order_lines AS l
      WHERE l.order_id = purchase_orders.id AND l.packages_received < l.packages_ordered) THEN 'received'
      ELSE 'partially_received' END WHERE id = ${orderId}`);
}

const BASE = "http://clinic.test";
async function api(
  who: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  { key, where = "DTN" }: { key?: string; where?: Where } = {},
) {
  const cookie = await withLocationChoice(cookies.get(who) ?? "", where === ORGANIZATION ? ORGANIZATION : loc[where]);
  const headers: Record<string, string> = { Cookie: cookie };
  if (method === "POST") headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  const request = new Request(`${BASE}${path}`, {
    method,
    headers,
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  const parts = path.split("?")[0]?.split("/") ?? [];
  const id = parts[3];
  const verb = parts[4];
  const routes = {
    lines: linesRoute,
    submit: submitRoute,
    revise: reviseRoute,
    cancel: cancelRoute,
    close: closeRoute,
  };
  const route = !id ? listRoute : verb ? routes[verb as keyof typeof routes] : oneRoute;
  const args = { request, context: loadContext(t.db), params: id ? { id } : {} };
  let response: Response;
  try {
    const handler = (method === "GET" ? route.loader : route.action) as (a: typeof args) => Promise<Response>;
    response = await handler(args);
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the answers are JSON the assertions read field by field
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) {
    const s = await signedIn(t.db, name);
    users.set(name, s.user);
    cookies.set(name, s.cookie);
  }
  BOTOX = await variationNamed(t.db, "Botox Cosmetic", "100 U vial");
  PADS = await variationNamed(t.db, "Alcohol prep pads", "Box of 200");
  GAUZE = await variationNamed(t.db, "Gauze 2x2", "Pack of 200");
  const vendors = await t.db.all<{ id: string; name: string }>(sql`SELECT id, name FROM vendors`);
  ALLERGAN = vendors.find((v) => v.name === "Allergan Aesthetics")?.id ?? "";
  SCHEIN = vendors.find((v) => v.name === "Henry Schein")?.id ?? "";
  // Another organization with a vendor of its own: never one this organization may order from.
  await t.db.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('other-org', 'Other Clinics', 0)`);
  await t.db.run(sql`INSERT INTO vendors (id, organization_id, name, active, version, created_at)
    VALUES ('other-vendor', 'other-org', 'Elsewhere Supply', 1, 1, 0)`);
  FOREIGN_VENDOR = "other-vendor";
});

afterAll(async () => {
  await t.close();
});

describe("the demo seed", () => {
  it("has a draft and a submitted order at Downtown, with their lines and activity rows", async () => {
    const seeded = await t.db.all<{ status: string; vendor: string; lines: number; sequence: number }>(sql`SELECT
        o.status, v.name AS vendor, o.sequence,
        (SELECT count(*) FROM purchase_order_lines AS l WHERE l.order_id = o.id) AS lines
      FROM purchase_orders AS o JOIN vendors AS v ON v.id = o.vendor_id
      WHERE o.location_id = ${loc.DTN} AND o.created_by = (SELECT id FROM users WHERE email = 'admin@demo.clinic')
        AND o.sequence <= 2 ORDER BY o.sequence`);
    expect(seeded.map((o) => [o.status, o.vendor, Number(o.lines)])).toEqual([
      ["submitted", "Allergan Aesthetics", 3],
      ["draft", "Henry Schein", 2],
    ]);
    const logged = await t.db.all<{ action: string }>(
      sql`SELECT action FROM activity_log WHERE entity = 'purchase_order' ORDER BY at, id LIMIT 3`,
    );
    expect(logged.map((a) => a.action).sort()).toEqual(
      ["create_purchase_order", "create_purchase_order", "submit_purchase_order"].sort(),
    );
  });
});

describe("create", () => {
  it("numbers orders PO-{year}-{sequence} per organization, takes defaults for its lines, and logs it", async () => {
    const before = await t.activityCount();
    const made = await draft([{ variationId: BOTOX, packages: 2 }]);
    const year = calendarDayIn(new Date(), "America/New_York").slice(0, 4);
    expect(made.number).toMatch(new RegExp(`^PO-${year}-\\d{4}$`));
    const o = await order(made.orderId);
    expect(o.status).toBe("draft");
    expect(o.lines).toHaveLength(1);
    const [line] = o.lines;
    const [cost] = await t.db.all<{ c: number; sku: string }>(
      sql`SELECT coalesce(v.cost_cents, p.cost_cents, 0) AS c, coalesce(v.sku, p.sku) AS sku
        FROM product_variations AS v JOIN products AS p ON p.id = v.product_id WHERE v.id = ${BOTOX}`,
    );
    expect(line?.unitCostCents).toBe(Number(cost?.c));
    expect(line?.vendorSku).toBe(cost?.sku ?? null);
    // Allergan's lead time is 3 days, counted from today at Downtown.
    expect(line?.expectedOn).toBe(addDays(calendarDayIn(new Date(), "America/New_York"), 3));
    // One activity row: the order made, with its lines counted.
    expect(await t.activityCount()).toBe(before + 1);
    expect(await t.lastActivity()).toMatchObject({
      action: "create_purchase_order",
      entity: "purchase_order",
      entityId: made.orderId,
      locationId: loc.DTN,
      summary: { number: made.number, vendor: "Allergan Aesthetics", lines: 1 },
    });
    const next = await draft();
    const seq = (n: string) => Number(n.split("-")[2]);
    expect(seq(next.number)).toBe(seq(made.number) + 1);
  });

  it("gives two creates at once two numbers, never the same one", async () => {
    const [a, b] = await Promise.all([draft(), draft()]);
    expect(a.number).not.toBe(b.number);
    const rows = await t.db.all<{ n: number; d: number }>(
      sql`SELECT count(*) AS n, count(DISTINCT number) AS d FROM purchase_orders WHERE organization_id = ${organizationId}`,
    );
    expect(Number(rows[0]?.n)).toBe(Number(rows[0]?.d));
  });

  it("refuses another organization's vendor, a bad line and another location, writing nothing", async () => {
    const before = await written();
    const foreign = await createPurchaseOrder(t.db, as("admin"), { locationId: loc.DTN, vendorId: FOREIGN_VENDOR });
    expect(foreign).toMatchObject({ ok: false, refusal: "vendor_unavailable" });
    for (const bad of [
      { variationId: BOTOX, packages: 1e9 },
      { variationId: BOTOX, packages: 1.5 },
      { variationId: BOTOX, packages: 0 },
      { variationId: BOTOX, packages: 1, unitCostCents: -1 },
      { variationId: BOTOX, packages: 1, unitCostCents: 10.5 },
      { variationId: BOTOX, packages: 1, unitCostCents: 100_000_001 },
    ]) {
      const made = await createPurchaseOrder(t.db, as("admin"), {
        locationId: loc.DTN,
        vendorId: ALLERGAN,
        lines: [bad],
      });
      expect(made).toMatchObject({ ok: false, refusal: "invalid" });
    }
    const long = await createPurchaseOrder(t.db, as("admin"), {
      locationId: loc.DTN,
      vendorId: ALLERGAN,
      note: "x".repeat(10_000),
    });
    expect(long).toMatchObject({ ok: false, refusal: "invalid", message: "Keep the note under 500 characters." });
    const twice = await createPurchaseOrder(t.db, as("admin"), {
      locationId: loc.DTN,
      vendorId: ALLERGAN,
      lines: [
        { variationId: BOTOX, packages: 1 },
        { variationId: BOTOX, packages: 2 },
      ],
    });
    expect(twice).toMatchObject({ ok: false, refusal: "duplicate_line" });
    // Admin at Downtown is a manager at Westside: no order there, even naming it.
    const elsewhere = await createPurchaseOrder(t.db, as("admin"), { locationId: loc.WST, vendorId: ALLERGAN });
    expect(elsewhere).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await written()).toEqual(before);
  });

  it("lets a manager read orders but not create one, and staff neither", async () => {
    const made = await createPurchaseOrder(t.db, as("manager", "WST"), { locationId: loc.WST, vendorId: ALLERGAN });
    expect(made).toMatchObject({ ok: false, refusal: "forbidden" });
    const atWest = await createPurchaseOrder(t.db, as("owner", ORGANIZATION), {
      locationId: loc.WST,
      vendorId: SCHEIN,
    });
    if (!atWest.ok) throw new Error(atWest.message);
    expect(await readOrder(t.db, as("manager", "WST"), atWest.orderId)).not.toBeNull();
    expect(await readOrder(t.db, as("staff"), (await draft()).orderId)).toBeNull();
    // The manager reads it but changes nothing on it.
    const add = await addOrderLines(t.db, as("manager", "WST"), {
      orderId: atWest.orderId,
      lines: [{ variationId: PADS, packages: 1 }],
    });
    expect(add).toMatchObject({ ok: false, refusal: "forbidden" });
  });
});

describe("a draft", () => {
  it("is edited freely: lines added, changed and removed, each logged", async () => {
    const { orderId } = await draft();
    const added = await addOrderLines(t.db, as("admin"), {
      orderId,
      lines: [
        { variationId: BOTOX, packages: 3 },
        { variationId: PADS, packages: 5, unitCostCents: 1299, vendorSku: "HS-1122" },
      ],
    });
    expect(added).toMatchObject({ ok: true, added: 2 });
    const again = await addOrderLines(t.db, as("admin"), { orderId, lines: [{ variationId: BOTOX, packages: 1 }] });
    expect(again).toMatchObject({ ok: false, refusal: "already_on_order" });
    let o = await order(orderId);
    const pads = o.lines.find((l) => l.variationId === PADS);
    expect(pads).toMatchObject({ packagesOrdered: 5, unitCostCents: 1299, vendorSku: "HS-1122" });
    const changed = await changeOrderLine(t.db, as("admin"), {
      orderId,
      lineId: pads?.id ?? "",
      packages: "6",
      unitCostCents: "13.50",
      vendorSku: "HS-1123",
      expectedOn: "2030-01-02",
      version: String(o.version),
    });
    expect(changed).toMatchObject({ ok: true, changed: true });
    const last = await t.lastActivity();
    expect(last?.action).toBe("change_purchase_order_line");
    expect(last?.summary).toMatchObject({
      before: { packages: 5, unitCostCents: 1299 },
      after: { packages: 6, unitCostCents: 1350 },
    });
    // A form read at the old version changes nothing.
    const stale = await changeOrderLine(t.db, as("admin"), {
      orderId,
      lineId: pads?.id ?? "",
      packages: 7,
      unitCostCents: 1350,
      version: o.version,
    });
    expect(stale).toMatchObject({ ok: false, refusal: "changed" });
    o = await order(orderId);
    expect(o.lines.find((l) => l.id === pads?.id)).toMatchObject({
      packagesOrdered: 6,
      unitCostCents: 1350,
      expectedOn: "2030-01-02",
    });
    const removed = await removeOrderLine(t.db, as("admin"), { orderId, lineId: pads?.id ?? "" });
    expect(removed).toMatchObject({ ok: true });
    expect((await order(orderId)).lines).toHaveLength(1);
  });

  it("is submitted only with a line, and then no longer edited freely", async () => {
    const empty = await draft();
    expect(await submitPurchaseOrder(t.db, as("admin"), { orderId: empty.orderId })).toMatchObject({
      ok: false,
      refusal: "empty",
    });
    const orderId = await submitted();
    const o = await order(orderId);
    expect(o.status).toBe("submitted");
    expect(o.submittedBy).toBe("Adam Admin");
    const before = await written();
    expect(
      await addOrderLines(t.db, as("admin"), { orderId, lines: [{ variationId: PADS, packages: 1 }] }),
    ).toMatchObject({ ok: false, refusal: "not_draft" });
    expect(
      await changeOrderLine(t.db, as("admin"), {
        orderId,
        lineId: o.lines[0]?.id ?? "",
        packages: 9,
        unitCostCents: 1,
      }),
    ).toMatchObject({ ok: false, refusal: "not_draft" });
    expect(await removeOrderLine(t.db, as("admin"), { orderId, lineId: o.lines[0]?.id ?? "" })).toMatchObject({
      ok: false,
      refusal: "not_draft",
    });
    expect(await submitPurchaseOrder(t.db, as("admin"), { orderId })).toMatchObject({
      ok: false,
      refusal: "not_draft",
    });
    expect(await written()).toEqual(before);
  });
});

describe("revise", () => {
  it("records a revision with its reason, the lines before and after, and bumps the revision", async () => {
    const orderId = await submitted([
      { variationId: BOTOX, packages: 4, unitCostCents: 60000 },
      { variationId: PADS, packages: 2, unitCostCents: 1000 },
    ]);
    const o = await order(orderId);
    const botox = o.lines.find((l) => l.variationId === BOTOX);
    const pads = o.lines.find((l) => l.variationId === PADS);
    const revised = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "Vendor short on Botox; added gauze",
      version: o.version,
      lines: [{ lineId: botox?.id ?? "", packages: 3, unitCostCents: 59000 }],
      remove: [pads?.id ?? ""],
      add: [{ variationId: GAUZE, packages: 1 }],
    });
    expect(revised).toMatchObject({ ok: true, revision: 1, changes: 3 });
    const after = await order(orderId);
    expect(after.revision).toBe(1);
    expect(after.status).toBe("submitted");
    expect(after.lines.map((l) => [l.variationId, l.packagesOrdered]).sort()).toEqual(
      [
        [BOTOX, 3],
        [GAUZE, 1],
      ].sort(),
    );
    expect(after.revisions).toHaveLength(1);
    expect(after.revisions[0]?.reason).toBe("Vendor short on Botox; added gauze");
    const changes = JSON.parse(after.revisions[0]?.changes ?? "[]");
    expect(changes).toContainEqual(
      expect.objectContaining({
        what: "changed",
        before: { packages: 4, unitCostCents: 60000 },
        after: { packages: 3, unitCostCents: 59000 },
      }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ what: "removed", variationId: PADS }));
    expect(changes).toContainEqual(expect.objectContaining({ what: "added", variationId: GAUZE }));
    const last = await t.lastActivity();
    expect(last).toMatchObject({ action: "revise_purchase_order", entity: "purchase_order", entityId: orderId });
    expect(last?.summary).toMatchObject({ revision: 1, reason: "Vendor short on Botox; added gauze" });
  });

  it("never goes below what arrived, never removes a line part of which arrived, and needs a reason", async () => {
    const orderId = await submitted([
      { variationId: BOTOX, packages: 4, unitCostCents: 60000 },
      { variationId: PADS, packages: 2, unitCostCents: 1000 },
    ]);
    await arrived(orderId, BOTOX, 2);
    const o = await order(orderId);
    expect(o.status).toBe("partially_received");
    const botox = o.lines.find((l) => l.variationId === BOTOX)?.id ?? "";
    const before = await written();
    const below = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "fewer",
      lines: [{ lineId: botox, packages: 1 }],
    });
    expect(below).toMatchObject({ ok: false, refusal: "below_received" });
    const gone = await revisePurchaseOrder(t.db, as("admin"), { orderId, reason: "not needed", remove: [botox] });
    expect(gone).toMatchObject({ ok: false, refusal: "line_received" });
    const noReason = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "",
      lines: [{ lineId: botox, packages: 3 }],
    });
    expect(noReason).toMatchObject({ ok: false, refusal: "invalid" });
    const nothing = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "same",
      lines: [{ lineId: botox, packages: 4 }],
    });
    expect(nothing).toMatchObject({ ok: false, refusal: "nothing_changed" });
    const stale = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "late",
      version: o.version - 1,
      lines: [{ lineId: botox, packages: 3 }],
    });
    expect(stale).toMatchObject({ ok: false, refusal: "changed" });
    expect(await written()).toEqual(before);
    // Lowered to what arrived, with the other line gone, the order has arrived in full.
    const pads = o.lines.find((l) => l.variationId === PADS)?.id ?? "";
    const lowered = await revisePurchaseOrder(t.db, as("admin"), {
      orderId,
      reason: "Backordered until spring: taking what came",
      lines: [{ lineId: botox, packages: 2 }],
      remove: [pads],
    });
    expect(lowered).toMatchObject({ ok: true, revision: 1 });
    expect((await order(orderId)).status).toBe("received");
  });

  it("refuses a draft (edited freely instead)", async () => {
    const { orderId } = await draft([{ variationId: BOTOX, packages: 1 }]);
    const line = (await order(orderId)).lines[0]?.id ?? "";
    expect(
      await revisePurchaseOrder(t.db, as("admin"), { orderId, reason: "x", lines: [{ lineId: line, packages: 2 }] }),
    ).toMatchObject({ ok: false, refusal: "not_revisable" });
  });
});

describe("cancel and close", () => {
  it("cancels a draft without a reason and a submitted order only with one", async () => {
    const { orderId } = await draft();
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId })).toMatchObject({ ok: true, status: "cancelled" });
    const sentId = await submitted();
    const before = await written();
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId: sentId })).toMatchObject({
      ok: false,
      refusal: "reason_needed",
    });
    expect(await written()).toEqual(before);
    expect(
      await cancelPurchaseOrder(t.db, as("admin"), { orderId: sentId, reason: "Ordered twice by mistake" }),
    ).toMatchObject({ ok: true });
    const o = await order(sentId);
    expect(o).toMatchObject({ status: "cancelled", cancelReason: "Ordered twice by mistake" });
  });

  it("does not cancel an order part of which arrived, nor one with an open receipt against it", async () => {
    const orderId = await submitted();
    await arrived(orderId, BOTOX, 1);
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId, reason: "no" })).toMatchObject({
      ok: false,
      refusal: "not_cancellable",
    });
    const other = await submitted();
    await t.db.run(sql`INSERT INTO receipts (id, location_id, vendor_id, purchase_order_id, status, version, created_at)
      VALUES ('open-receipt', ${loc.DTN}, ${ALLERGAN}, ${other}, 'open', 1, 0)`);
    const before = await written();
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId: other, reason: "no" })).toMatchObject({
      ok: false,
      refusal: "receipt_open",
    });
    expect(await closePurchaseOrder(t.db, as("admin"), { orderId: other, reason: "no" })).toMatchObject({
      ok: false,
      refusal: "receipt_open",
    });
    expect(await written()).toEqual(before);
    await t.db.run(sql`UPDATE receipts SET status = 'cancelled' WHERE id = 'open-receipt'`);
  });

  it("closes a received order; one with lines outstanding only with a reason", async () => {
    const orderId = await submitted();
    await arrived(orderId, BOTOX, 1);
    const before = await written();
    const refused = await closePurchaseOrder(t.db, as("admin"), { orderId });
    expect(refused).toMatchObject({
      ok: false,
      refusal: "close_reason_needed",
      message: "Closing an order with lines outstanding asks for a reason.",
    });
    expect(await written()).toEqual(before);
    const closed = await closePurchaseOrder(t.db, as("admin"), { orderId, reason: "Discontinued by the vendor" });
    expect(closed).toMatchObject({ ok: true, status: "closed", outstandingPackages: 3 });
    expect(await order(orderId)).toMatchObject({ status: "closed", closeReason: "Discontinued by the vendor" });
    const full = await submitted();
    await arrived(full, BOTOX, 4);
    expect(await closePurchaseOrder(t.db, as("admin"), { orderId: full })).toMatchObject({ ok: true });
    const aDraft = await draft();
    expect(await closePurchaseOrder(t.db, as("admin"), { orderId: aDraft.orderId, reason: "x" })).toMatchObject({
      ok: false,
      refusal: "not_closable",
    });
  });

  it("refuses every change to a closed order, and writes nothing", async () => {
    const orderId = await submitted();
    await arrived(orderId, BOTOX, 4);
    await closePurchaseOrder(t.db, as("admin"), { orderId });
    const line = (await order(orderId)).lines[0]?.id ?? "";
    const before = await written();
    expect(await closePurchaseOrder(t.db, as("admin"), { orderId })).toMatchObject({
      ok: false,
      refusal: "not_closable",
    });
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId, reason: "x" })).toMatchObject({
      ok: false,
      refusal: "not_cancellable",
    });
    expect(
      await revisePurchaseOrder(t.db, as("admin"), { orderId, reason: "x", lines: [{ lineId: line, packages: 9 }] }),
    ).toMatchObject({ ok: false, refusal: "not_revisable" });
    expect(await submitPurchaseOrder(t.db, as("admin"), { orderId })).toMatchObject({ ok: false });
    expect(await written()).toEqual(before);
  });

  it("does not reach another location's order from where the actor stands", async () => {
    const atWest = await createPurchaseOrder(t.db, as("owner", ORGANIZATION), {
      locationId: loc.WST,
      vendorId: SCHEIN,
    });
    if (!atWest.ok) throw new Error(atWest.message);
    const before = await written();
    // Admin at Downtown, standing there: Westside's order is not there.
    expect(await cancelPurchaseOrder(t.db, as("admin"), { orderId: atWest.orderId })).toMatchObject({
      ok: false,
      refusal: "not_found",
    });
    // At Westside, where they are a manager: seen, not changed.
    expect(await cancelPurchaseOrder(t.db, as("admin", "WST"), { orderId: atWest.orderId })).toMatchObject({
      ok: false,
      refusal: "forbidden",
    });
    expect(await written()).toEqual(before);
  });
});

describe("the JSON API", () => {
  it("creates with lines, adds, submits, revises and closes, with idempotency keys and one error shape", async () => {
    const body = {
      locationId: loc.DTN,
      vendorId: SCHEIN,
      note: "Deliver to the back door",
      lines: [{ variationId: PADS, packages: 3 }],
    };
    const created = await api("admin", "POST", "/api/purchase-orders", body, { key: "po-create-0001" });
    expect(created.status).toBe(201);
    const po = created.body.purchaseOrder;
    expect(po).toMatchObject({ status: "draft", note: "Deliver to the back door", vendor: { id: SCHEIN } });
    expect(po.lines).toHaveLength(1);
    const replay = await api("admin", "POST", "/api/purchase-orders", body, { key: "po-create-0001" });
    expect(replay).toMatchObject({ status: 201, body: { purchaseOrder: { id: po.id, number: po.number } } });
    const reused = await api(
      "admin",
      "POST",
      "/api/purchase-orders",
      { ...body, note: "x" },
      { key: "po-create-0001" },
    );
    expect(reused).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });

    const added = await api("admin", "POST", `/api/purchase-orders/${po.id}/lines`, {
      lines: [{ variationId: GAUZE, packages: 2, unitCostCents: 450 }],
    });
    expect(added.status).toBe(200);
    expect(added.body.purchaseOrder.totalCents).toBe(po.lines[0].unitCostCents * 3 + 900);

    const costMinusOne = await api("admin", "POST", `/api/purchase-orders/${po.id}/lines`, {
      lines: [{ variationId: BOTOX, packages: 1, unitCostCents: -1 }],
    });
    expect(costMinusOne).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    const huge = await api("admin", "POST", `/api/purchase-orders/${po.id}/lines`, {
      lines: [{ variationId: BOTOX, packages: 1e9 }],
    });
    expect(huge).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    const fraction = await api("admin", "POST", `/api/purchase-orders/${po.id}/lines`, {
      lines: [{ variationId: BOTOX, packages: 2.5 }],
    });
    expect(fraction.status).toBe(422);

    const submittedNow = await api(
      "admin",
      "POST",
      `/api/purchase-orders/${po.id}/submit`,
      {},
      { key: "po-submit-0001" },
    );
    expect(submittedNow).toMatchObject({ status: 200, body: { purchaseOrder: { status: "submitted" } } });
    const again = await api("admin", "POST", `/api/purchase-orders/${po.id}/submit`, {}, { key: "po-submit-0001" });
    expect(again.status).toBe(200);
    const line = submittedNow.body.purchaseOrder.lines[0];
    const revised = await api("admin", "POST", `/api/purchase-orders/${po.id}/revise`, {
      reason: "Vendor raised the price",
      lines: [{ lineId: line.id, unitCostCents: line.unitCostCents + 100 }],
    });
    expect(revised).toMatchObject({ status: 200, body: { purchaseOrder: { revision: 1 } } });
    expect(revised.body.purchaseOrder.revisions[0]).toMatchObject({ revision: 1, reason: "Vendor raised the price" });
    const noReason = await api("admin", "POST", `/api/purchase-orders/${po.id}/close`, {});
    expect(noReason).toMatchObject({ status: 422, body: { code: "close_reason_needed" } });
    const longReason = await api("admin", "POST", `/api/purchase-orders/${po.id}/close`, {
      reason: "x".repeat(10_000),
    });
    expect(longReason).toMatchObject({ status: 422, body: { code: "invalid_input" } });
    const closed = await api("admin", "POST", `/api/purchase-orders/${po.id}/close`, { reason: "Vendor stopped it" });
    expect(closed).toMatchObject({ status: 200, body: { purchaseOrder: { status: "closed" } } });
    const afterClose = await api("admin", "POST", `/api/purchase-orders/${po.id}/cancel`, { reason: "x" });
    expect(afterClose).toMatchObject({ status: 409, body: { code: "not_cancellable" } });

    const list = await api("admin", "GET", "/api/purchase-orders?status=closed");
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(po.id);
    const bad = await api("admin", "GET", "/api/purchase-orders?status=lost");
    expect(bad).toMatchObject({ status: 400, body: { code: "invalid_filter" } });
    const one = await api("admin", "GET", `/api/purchase-orders/${po.id}`);
    expect(one.body.purchaseOrder.lines.map((l: { vendorSku: string | null }) => l.vendorSku)).toHaveLength(2);
  });

  it("answers a manager's read and refuses their write; a staff user gets neither", async () => {
    const atWest = await createPurchaseOrder(t.db, as("owner", ORGANIZATION), {
      locationId: loc.WST,
      vendorId: SCHEIN,
    });
    if (!atWest.ok) throw new Error(atWest.message);
    const read = await api("manager", "GET", `/api/purchase-orders/${atWest.orderId}`, undefined, { where: "WST" });
    expect(read.status).toBe(200);
    const write = await api(
      "manager",
      "POST",
      "/api/purchase-orders",
      { locationId: loc.WST, vendorId: SCHEIN },
      { where: "WST" },
    );
    expect(write).toMatchObject({ status: 403 });
    const cancel = await api("manager", "POST", `/api/purchase-orders/${atWest.orderId}/cancel`, {}, { where: "WST" });
    expect(cancel.status).toBe(403);
    expect((await api("staff", "GET", "/api/purchase-orders")).status).toBe(403);
    expect((await api("admin", "GET", `/api/purchase-orders/${atWest.orderId}`)).status).toBe(404);
  });
});

describe("the lines as CSV", () => {
  it("lists vendor SKU, product, variation, packages, unit cost and line total, formula-safe", async () => {
    const { orderId } = await draft([{ variationId: BOTOX, packages: 2, unitCostCents: 61050 }]);
    const line = (await order(orderId)).lines[0]?.id ?? "";
    await changeOrderLine(t.db, as("admin"), {
      orderId,
      lineId: line,
      packages: 2,
      unitCostCents: 61050,
      vendorSku: '=HYPERLINK("x")',
      expectedOn: null,
    });
    const cookie = await withLocationChoice(cookies.get("admin") ?? "", loc.DTN);
    const response = (await csvRoute.loader({
      request: pageRequest(`/purchase-orders/${orderId}/lines.csv`, cookie),
      context: loadContext(t.db),
      params: { id: orderId },
    })) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/text\/csv/);
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const rows = text.trim().split("\r\n");
    expect(rows[0]).toBe("Vendor SKU,Product,Variation,Packages,Unit cost,Line total");
    expect(rows[1]).toBe(`"'=HYPERLINK(""x"")",Botox Cosmetic,100 U vial,2,610.50,1221.00`);
  });
});

describe("the screens' actions", () => {
  const cookieAt = (who: string, where: Where) =>
    withLocationChoice(cookies.get(who) ?? "", where === ORGANIZATION ? ORGANIZATION : loc[where]);
  const run = async (
    route: { action: (args: never) => Promise<unknown> },
    path: string,
    cookie: string,
    form: Record<string, string | string[]>,
    id?: string,
  ) => {
    try {
      return await route.action({
        request: formRequest(path, cookie, form),
        context: loadContext(t.db),
        params: id ? { id } : {},
      } as never);
    } catch (thrown) {
      return thrown;
    }
  };
  const idOf = (made: Response) => made.headers.get("Location")?.split("/").pop() ?? "";

  it("makes a draft with its first lines from the list's post (intent=create, variationId + packages pairs)", async () => {
    const form = {
      intent: "create",
      locationId: loc.DTN,
      vendorId: SCHEIN,
      variationId: [PADS, GAUZE, BOTOX],
      packages: ["4", "2", ""],
    };
    const made = (await run(indexRoute, "/purchase-orders", await cookieAt("admin", "DTN"), form)) as Response;
    expect(made.status).toBe(302);
    const o = await order(idOf(made));
    expect(o).toMatchObject({ status: "draft", locationId: loc.DTN, vendorId: SCHEIN });
    expect(o.lines.map((l) => [l.variationId, l.packagesOrdered])).toEqual([
      [PADS, 4],
      [GAUZE, 2],
    ]);
    const before = await written();
    const manager = (await run(indexRoute, "/purchase-orders", await cookieAt("manager", "WST"), {
      ...form,
      locationId: loc.WST,
    })) as Response;
    expect(manager.status).toBe(403);
    const uneven = (await run(indexRoute, "/purchase-orders", await cookieAt("admin", "DTN"), {
      ...form,
      packages: ["1"],
    })) as { init: { status: number } };
    expect(uneven.init.status).toBe(400);
    const huge = (await run(indexRoute, "/purchase-orders", await cookieAt("admin", "DTN"), {
      ...form,
      packages: ["1e9", "1", ""],
    })) as { init: { status: number }; data: { formError: string } };
    expect(huge.init.status).toBe(400);
    expect(huge.data.formError).toBe("Enter a whole number of packages, from 1 to 10,000.");
    expect(await written()).toEqual(before);
  });

  it("adds items from the add-items page (intent=addLines), and as a revision with its reason once submitted", async () => {
    const { orderId } = await draft();
    const path = `/purchase-orders/${orderId}/add-items`;
    const cookie = await cookieAt("admin", "DTN");
    const added = (await run(
      addItemsRoute,
      path,
      cookie,
      {
        intent: "addLines",
        variationId: [BOTOX, PADS],
        packages: ["2", ""],
      },
      orderId,
    )) as Response;
    expect(added.status).toBe(302);
    expect((await order(orderId)).lines.map((l) => l.variationId)).toEqual([BOTOX]);
    const submittedNow = (await run(
      pageRoute,
      `/purchase-orders/${orderId}`,
      cookie,
      { intent: "submit" },
      orderId,
    )) as Response;
    expect(submittedNow.status).toBe(302);
    const noReason = (await run(
      addItemsRoute,
      path,
      cookie,
      {
        intent: "addLines",
        variationId: [PADS],
        packages: ["3"],
      },
      orderId,
    )) as { init: { status: number } };
    expect(noReason.init.status).toBe(400);
    const revised = (await run(
      addItemsRoute,
      path,
      cookie,
      {
        intent: "addLines",
        variationId: [PADS],
        packages: ["3"],
        reason: "Forgot the prep pads",
      },
      orderId,
    )) as Response;
    expect(revised.status).toBe(302);
    const o = await order(orderId);
    expect(o.lines.map((l) => l.variationId)).toEqual([BOTOX, PADS]);
    expect(o.revisions[0]).toMatchObject({ revision: 1, reason: "Forgot the prep pads" });
  });

  it("revises from the order page's form, and closing with lines outstanding asks for a reason", async () => {
    const orderId = await submitted();
    const o = await order(orderId);
    const line = o.lines[0]?.id ?? "";
    const cookie = await cookieAt("admin", "DTN");
    const path = `/purchase-orders/${orderId}`;
    const revised = (await run(
      pageRoute,
      path,
      cookie,
      {
        intent: "revise",
        version: String(o.version),
        reason: "Vendor confirmed three",
        [`packages:${line}`]: "3",
        [`unitCostCents:${line}`]: "600.00",
      },
      orderId,
    )) as Response;
    expect(revised.status).toBe(302);
    expect((await order(orderId)).lines[0]).toMatchObject({ packagesOrdered: 3, unitCostCents: 60000 });
    const refused = (await run(pageRoute, path, cookie, { intent: "close", reason: "" }, orderId)) as {
      init: { status: number };
      data: { formError: string };
    };
    expect(refused.init.status).toBe(409);
    expect(refused.data.formError).toBe("Closing an order with lines outstanding asks for a reason.");
    const staff = (await run(
      pageRoute,
      path,
      await cookieAt("staff", "DTN"),
      { intent: "cancel" },
      orderId,
    )) as Response;
    expect(staff.status).toBe(403);
  });
});

describe("the list", () => {
  it("pages the orders newest first, forward and back, each with its own lines' figures", async () => {
    // Orders enough for three pages of two, with lines of their own.
    const made = await submitted([
      { variationId: BOTOX, packages: 3, unitCostCents: 1000 },
      { variationId: PADS, packages: 2, unitCostCents: 250 },
    ]);
    await arrived(made, BOTOX, 1);
    await draft([{ variationId: GAUZE, packages: 7, unitCostCents: 100 }]);
    const expected = await t.db.all<{ id: string; lines: number; totalCents: number; outstanding: number }>(sql`
      SELECT o.id, (SELECT count(*) FROM purchase_order_lines AS x WHERE x.order_id = o.id) AS lines,
        (SELECT coalesce(sum(x.packages_ordered * x.unit_cost_cents), 0) FROM purchase_order_lines AS x
          WHERE x.order_id = o.id) AS totalCents,
        (SELECT coalesce(sum(max(x.packages_ordered - x.packages_received, 0)), 0) FROM purchase_order_lines AS x
          WHERE x.order_id = o.id) AS outstanding
      FROM purchase_orders AS o WHERE o.location_id = ${loc.DTN} ORDER BY o.created_at DESC, o.id DESC`);
    expect(expected.length).toBeGreaterThan(4);
    const query = { locationIds: [loc.DTN], status: null, pageSize: 2 };
    const shown = (page: Awaited<ReturnType<typeof listOrders>>) =>
      (page?.items ?? []).map((o) => ({
        id: o.id,
        lines: o.lines,
        totalCents: o.totalCents,
        outstanding: o.outstandingPackages,
      }));
    const first = await listOrders(t.db, query);
    expect(shown(first)).toEqual(expected.slice(0, 2).map((e) => ({ ...e, lines: Number(e.lines) })));
    expect(first?.total).toBe(expected.length);
    const second = await listOrders(t.db, { ...query, after: first?.next ?? "" });
    expect(shown(second).map((o) => o.id)).toEqual(expected.slice(2, 4).map((e) => e.id));
    const back = await listOrders(t.db, { ...query, before: second?.previous ?? "" });
    expect(shown(back)).toEqual(shown(first));
    // Filtered by status: only those, still newest first.
    const drafts = await listOrders(t.db, { ...query, status: "draft", pageSize: 50 });
    expect(drafts?.items.every((o) => o.status === "draft")).toBe(true);
    expect(drafts?.items.map((o) => o.createdAt)).toEqual(
      [...(drafts?.items ?? [])].map((o) => o.createdAt).sort((a, b) => b - a),
    );
  });
});
