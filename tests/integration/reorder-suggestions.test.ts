// Reorder suggestions (issue 23.3, ADR 0032) on data made here: two locations of their own, vials
// and bulk stock received through the receiving verbs, par levels through their verb, orders and
// transfers written by SQL as their verbs would, use written as the ledger's USE, SALE and WASTE
// movements. What is on order and in transit is counted; only usable stock is on hand; packages are
// whole; a shelf-life cap never orders more than the rate uses before expiry (also a property of the
// rule over random figures); a draft says so; the API answers its 4xx cases in the one shape.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import type { SessionUser } from "../../app/auth/session.server";
import { organizationOf } from "../../app/db/sql.server";
import { createLocation } from "../../app/locations/create.server";
import { saveParLevels } from "../../app/par-levels/save.server";
import { readAddItems } from "../../app/purchasing/add-items.server";
import { reorder, shelfLifeCap } from "../../app/purchasing/suggest-rule";
import { type ReorderSuggestion, reorderSuggestions } from "../../app/purchasing/suggestions.server";
import { markRecall } from "../../app/recalls/mark.server";
import { readReorderScreen } from "../../app/reorder/read.server";
import { loader as apiLoader } from "../../app/routes/api.reorder-suggestions";
import { freshDatabase, type TestDatabase } from "../support/database";
import { ownVariation } from "../support/own-variation";
import { receiveVials } from "../support/receive";
import { loadContext, pageRequest, signedIn } from "../support/screens";
import { writeTransfer } from "../support/transfers";

const DAY = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

let t: TestDatabase;
let owner: SessionUser;
const loc = { north: "", west: "" };
let vendorId = "";
let otherVendorId = "";
let VIAL = { id: "", upp: 0 };
let SHORT = { id: "", upp: 0 };
let BULK = { id: "", upp: 0 };
let SPARE = { id: "", upp: 0 };
const at = (locationId: string): ScopedActor => ({ ...owner, locationId });
let lots = 0;
const receive = (locationId: string, variationId: string, quantity: number, expiresInDays: number) => {
  const lot = `REO${++lots}`;
  return receiveVials(t.db, at(locationId), {
    locationId,
    variationId,
    quantity,
    lot,
    expirationDate: day(expiresInDays),
  }).then((ids) => ({ lot, ids }));
};
const par = (variationId: string, levels: { par: number; reorderPoint: number; max: number | null }) =>
  saveParLevels(t.db, owner, { locationId: loc.north, changes: [{ variationId, levels }] }).then((o) => {
    if (!o.ok) throw new Error(JSON.stringify(o));
  });
const suggest = async (vendor: string | null = null): Promise<ReorderSuggestion[]> =>
  ((await reorderSuggestions(t.db, organizationOf(owner), loc.north, vendor)) ?? []).filter((s) =>
    [VIAL.id, SHORT.id, BULK.id, SPARE.id].includes(s.variationId),
  );
const one = async (variationId: string) => (await suggest()).find((s) => s.variationId === variationId);

/** Use at North, `days` ago each: movements of `type` of `units`, the level kept with them. */
async function used(
  variationId: string,
  type: "USE" | "SALE" | "WASTE",
  units: number[],
  itemId: string | null = null,
) {
  for (const [n, u] of units.entries()) {
    const when = Date.now() - (n + 1) * DAY;
    await t.db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, item_id, quantity, type, user_id)
      VALUES (${randomUUID()}, ${when}, ${loc.north}, ${variationId}, ${itemId}, ${-u}, ${type}, ${owner.id})`);
  }
}

/** An order at North by SQL, as h1's verbs would write it: `status`, one line of this variation. */
async function order(
  status: "draft" | "submitted" | "partially_received" | "cancelled" | "closed",
  variationId: string,
  upp: number,
  packagesOrdered: number,
  packagesReceived = 0,
) {
  const id = randomUUID();
  const [{ n } = { n: 0 }] = await t.db.all<{ n: number }>(sql`SELECT count(*) + 1 AS n FROM purchase_orders`);
  const number = `PO-2026-${String(n).padStart(4, "0")}`;
  const now = Date.now();
  const submitted = status === "draft" || status === "cancelled" ? null : now;
  await t.db.batch([
    t.db.run(sql`INSERT INTO purchase_orders (id, organization_id, location_id, vendor_id, year, sequence, number, status,
        created_by, created_at, submitted_at, submitted_by)
      VALUES (${id}, (SELECT organization_id FROM locations WHERE id = ${loc.north}), ${loc.north}, ${vendorId}, 2026, ${n},
        ${number}, 'draft', ${owner.id}, ${now}, ${submitted}, ${submitted ? owner.id : null})`),
    t.db.run(sql`INSERT INTO purchase_order_lines (id, order_id, variation_id, packages_ordered, units_per_package,
        unit_cost_cents, packages_received, created_at)
      VALUES (${randomUUID()}, ${id}, ${variationId}, ${packagesOrdered}, ${upp}, 100, ${packagesReceived}, ${now})`),
    t.db.run(sql`UPDATE purchase_orders SET status = ${status},
        closed_at = ${status === "closed" ? now : null}, cancelled_at = ${status === "cancelled" ? now : null}
      WHERE id = ${id}`),
  ]);
  return { id, number };
}

beforeAll(async () => {
  t = await freshDatabase();
  const first = await signedIn(t.db, "owner");
  for (const [key, name, code] of [
    ["north", "Reorder North", "RNO"],
    ["west", "Reorder West", "RWE"],
  ] as const) {
    const made = await createLocation(t.db, first.user, { name, code, address: null, timezone: "UTC" });
    if (!made.ok) throw new Error("no location");
    loc[key] = made.locationId;
  }
  ({ user: owner } = await signedIn(t.db, "owner"));
  for (const [name, set] of [
    ["Reorder Supply", (id: string) => (vendorId = id)],
    ["Reorder Other", (id: string) => (otherVendorId = id)],
  ] as const) {
    const id = randomUUID();
    await t.db.run(sql`INSERT INTO vendors (id, organization_id, name, lead_time_days, created_at)
      VALUES (${id}, (SELECT organization_id FROM locations WHERE id = ${loc.north}), ${name}, 7, ${Date.now()})`);
    set(id);
  }
  VIAL = await ownVariation(t.db, "serialized", "Reorder Vial", { vendorId: vendorId, variationName: "100 U vial" });
  SHORT = await ownVariation(t.db, "serialized", "Reorder Short-lived", {
    vendorId: vendorId,
    variationName: "50 U vial",
  });
  BULK = await ownVariation(t.db, "bulk", "Reorder Pads", { vendorId: otherVendorId, variationName: "Box of 10" });
  SPARE = await ownVariation(t.db, "serialized", "Reorder Spare", { vendorId: vendorId, variationName: "100 U vial" });
});

afterAll(() => t?.close());

describe("reorder suggestions", () => {
  it("orders the whole packages that bring on hand to max, and says why", async () => {
    await par(VIAL.id, { par: 4, reorderPoint: 2, max: 8 });
    await receive(loc.north, VIAL.id, 1, 400);
    const s = await one(VIAL.id);
    expect(s).toMatchObject({
      vendorId,
      vendorName: "Reorder Supply",
      onHand: VIAL.upp,
      onOrder: 0,
      inTransit: 0,
      reorderPoint: 2 * VIAL.upp,
      max: 8 * VIAL.upp,
      dailyUsage: 0,
      packages: 7,
      cappedAt: null,
      onDraft: null,
    });
    expect(s?.why).toBe("on hand 1 + on order 0 < reorder point 2; no use in 90 days; order 7 vials to reach max 8");
  });

  it("counts what is on submitted and partly received orders, not cancelled or closed ones", async () => {
    await order("submitted", VIAL.id, VIAL.upp, 3);
    await order("partially_received", VIAL.id, VIAL.upp, 2, 1);
    await order("cancelled", VIAL.id, VIAL.upp, 5);
    // Received more than ordered: never below zero outstanding.
    await order("partially_received", VIAL.id, VIAL.upp, 1, 2);
    // 1 on hand + 3 + 1 outstanding = 5 > reorder point 2: nothing to order.
    expect(await one(VIAL.id)).toBeUndefined();
    await par(VIAL.id, { par: 6, reorderPoint: 5, max: 10 });
    const s = await one(VIAL.id);
    expect(s).toMatchObject({ onHand: VIAL.upp, onOrder: 4 * VIAL.upp, packages: 5 });
    expect(s?.why).toBe("on hand 1 + on order 4 = reorder point 5; no use in 90 days; order 5 vials to reach max 10");
  });

  it("counts what is in transit to it, not what is only a draft transfer", async () => {
    const west = await receive(loc.west, VIAL.id, 3, 400);
    await writeTransfer(t.db, {
      from: loc.west,
      to: loc.north,
      by: owner.id,
      status: "draft",
      itemIds: [west.ids[0] as string],
    });
    expect(await one(VIAL.id)).toMatchObject({ inTransit: 0, packages: 5 });
    await writeTransfer(t.db, {
      from: loc.west,
      to: loc.north,
      by: owner.id,
      status: "in_transit",
      itemIds: west.ids.slice(1, 3),
    });
    // 1 + 4 + 2 = 7 > 5: nothing due; at a reorder point of 7 it is, and 5 reach max 12.
    expect(await one(VIAL.id)).toBeUndefined();
    await par(VIAL.id, { par: 8, reorderPoint: 7, max: 12 });
    const s = await one(VIAL.id);
    expect(s).toMatchObject({ inTransit: 2 * VIAL.upp, packages: 5 });
    expect(s?.why).toBe(
      "on hand 1 + on order 4 + in transit 2 = reorder point 7; no use in 90 days; order 5 vials to reach max 12",
    );
  });

  it("counts only usable vials on hand: not expired, not of a recalled lot", async () => {
    await par(SPARE.id, { par: 4, reorderPoint: 3, max: null });
    const good = await receive(loc.north, SPARE.id, 1, 400);
    const expired = await receive(loc.north, SPARE.id, 2, -3);
    const recalled = await receive(loc.north, SPARE.id, 1, 400);
    expect(good.ids.length + expired.ids.length + recalled.ids.length).toBe(4);
    let s = await one(SPARE.id);
    // The two expired vials are not stock to use: 2 usable (good and the one to be recalled).
    expect(s).toMatchObject({ onHand: 2 * SPARE.upp, packages: 2 });
    const marked = await markRecall(t.db, at(loc.north), {
      variationId: SPARE.id,
      lot: recalled.lot,
      note: "test recall",
    });
    if (!marked.ok) throw new Error(JSON.stringify(marked));
    s = await one(SPARE.id);
    expect(s).toMatchObject({ onHand: SPARE.upp, max: null, packages: 3 });
    expect(s?.why).toBe("on hand 1 + on order 0 < reorder point 3; no use in 90 days; order 3 vials to reach par 4");
  });

  it("rounds a bulk shortfall up to whole packages, and counts sales as use", async () => {
    await par(BULK.id, { par: 3, reorderPoint: 2, max: 5 });
    // Dated ten years ahead: a shelf life far longer than its slow use, so no cap here.
    await receive(loc.north, BULK.id, 2, 3600);
    // Half a box sold: 1.5 boxes on hand, 3.5 short of max: 4 boxes.
    const half = BULK.upp / 2;
    expect(Number.isInteger(half)).toBe(true);
    await used(BULK.id, "SALE", [half]);
    await t.db.run(sql`UPDATE stock_levels SET on_hand = on_hand - ${half}
      WHERE location_id = ${loc.north} AND variation_id = ${BULK.id}`);
    const s = await one(BULK.id);
    expect(s).toMatchObject({ onHand: 1.5 * BULK.upp, packages: 4, vendorId: otherVendorId });
    expect(s?.dailyUsage).toBeCloseTo(half / 90, 2);
    expect(s?.why).toMatch(
      /^on hand 1\.5 \+ on order 0 < reorder point 2; \d+ days of cover at 0\.0056 a day; order 4 boxes to reach max 5$/,
    );
  });

  it("caps an order at what the location uses before a delivery expires, and says so", async () => {
    // Deliveries here last 30 days; 9 vials' worth used in 90 days (USE and WASTE): 0.1 a day, 3 in 30 days.
    await par(SHORT.id, { par: 10, reorderPoint: 5, max: 20 });
    await receive(loc.north, SHORT.id, 1, 30);
    await used(
      SHORT.id,
      "USE",
      Array.from({ length: 6 }, () => SHORT.upp),
    );
    await used(
      SHORT.id,
      "WASTE",
      Array.from({ length: 3 }, () => SHORT.upp),
    );
    const s = await one(SHORT.id);
    expect(s).toMatchObject({ shelfLifeDays: 30, packages: 3, cappedAt: 3 });
    expect(s?.dailyUsage).toBeCloseTo(SHORT.upp / 10, 5);
    expect(s?.why).toBe(
      "on hand 1 + on order 0 < reorder point 5; 10 days of cover at 0.1 a day; capped at 3 vials: 30 days of shelf life at 0.1 a day, not 19 to reach max 20",
    );
    // Never more than the rate uses before expiry.
    expect((s?.packages ?? 0) * SHORT.upp).toBeLessThanOrEqual((s?.dailyUsage ?? 0) * (s?.shelfLifeDays ?? 0) + 1e-9);
  });

  it("names the draft order that has the variation already", async () => {
    const draft = await order("draft", SPARE.id, SPARE.upp, 2);
    const s = await one(SPARE.id);
    expect(s?.onDraft).toEqual(draft);
    expect(s?.why).toMatch(new RegExp(`; on draft ${draft.number}$`));
    // A draft is not on order: the quantity stands.
    expect(s).toMatchObject({ onOrder: 0, packages: 3 });
    // On two drafts: the newest is named, its number and its id together.
    const newer = await order("draft", SPARE.id, SPARE.upp, 1);
    expect((await one(SPARE.id))?.onDraft).toEqual(newer);
  });

  it("answers one vendor's suggestions", async () => {
    const mine = await suggest(vendorId);
    expect(mine.map((s) => s.variationId).sort()).toEqual([VIAL.id, SHORT.id, SPARE.id].sort());
    expect((await suggest(otherVendorId)).map((s) => s.variationId)).toEqual([BULK.id]);
    expect(await reorderSuggestions(t.db, organizationOf(owner), loc.north, randomUUID())).toBeNull();
  });
});

describe("the add-items page's read", () => {
  it("reads the order, its vendor's choices and suggestions at its location in one round trip", async () => {
    const draft = await order("draft", SPARE.id, SPARE.upp, 1);
    t.resetRoundTrips();
    const read = await readAddItems(t.db, at(loc.north), draft.id, { q: "", onlyVendor: true });
    expect(t.roundTrips()).toBe(1);
    expect(read?.order).toMatchObject({ id: draft.id, number: draft.number, locationId: loc.north, vendorId });
    // The suggestions are the vendor's at the order's location, as read on their own.
    expect(read?.suggestions.map((s) => s.variationId).sort()).toEqual(
      ((await reorderSuggestions(t.db, organizationOf(owner), loc.north, vendorId)) ?? [])
        .map((s) => s.variationId)
        .sort(),
    );
    expect(read?.suggestions.map((s) => s.vendorId)).not.toContain(otherVendorId);
    // The choices: the vendor's products only, the one on this order said so.
    const choices = read?.choices ?? [];
    expect(choices.map((c) => c.variationId)).toEqual(expect.arrayContaining([VIAL.id, SHORT.id, SPARE.id]));
    expect(choices.map((c) => c.variationId)).not.toContain(BULK.id);
    expect(choices.find((c) => c.variationId === SPARE.id)?.onOrder).toBeTruthy();
    expect(choices.find((c) => c.variationId === VIAL.id)?.onOrder).toBeFalsy();
    // A search over every vendor finds the other vendor's product too, this vendor's first.
    const wide = await readAddItems(t.db, at(loc.north), draft.id, { q: "Reorder", onlyVendor: false });
    const ids = (wide?.choices ?? []).map((c) => c.variationId);
    expect(ids).toContain(BULK.id);
    expect(ids.indexOf(BULK.id)).toBeGreaterThan(ids.indexOf(VIAL.id));
  });

  it("reads nothing of an order the reader does not reach from where they stand", async () => {
    const draft = await order("draft", SPARE.id, SPARE.upp, 1);
    expect(await readAddItems(t.db, at(loc.west), draft.id, { q: "", onlyVendor: true })).toBeNull();
    expect(await readAddItems(t.db, at(loc.north), randomUUID(), { q: "", onlyVendor: true })).toBeNull();
  });
});

describe("the reorder view's read", () => {
  it("offers a transfer from a location with the variation to spare, beside the suggestion", async () => {
    // West sets a max of 1 box of BULK and holds 4: 3 to spare; North is short (above).
    await saveParLevels(t.db, owner, {
      locationId: loc.west,
      changes: [{ variationId: BULK.id, levels: { par: 1, reorderPoint: 0, max: 1 } }],
    });
    await receive(loc.west, BULK.id, 4, 400);
    const screen = await readReorderScreen(t.db, at(loc.north), loc.north);
    expect(screen.suggestions.find((s) => s.variationId === BULK.id)?.packages).toBe(4);
    const offer = screen.offers.find((o) => o.variationId === BULK.id);
    expect(offer).toMatchObject({
      fromLocationId: loc.west,
      fromLocationName: "Reorder West",
      toLocationId: loc.north,
      carries: "1 bulk quantity",
      // The owner stands at North: a draft is made at the sender, so they request it.
      canDraft: false,
    });
    expect(JSON.parse(offer?.lines ?? "[]")).toEqual([{ variationId: BULK.id, quantity: 3 * BULK.upp }]);
    // Nothing offered for what is on a draft order already (SPARE), nor for what no one has to spare.
    expect(screen.offers.map((o) => o.variationId)).toEqual([BULK.id]);
  });
});

describe("the reorder view's first vendors", () => {
  it("orders the vendors by their count of suggestions, cuts to the first, and counts them all", async () => {
    const ours = (screen: { suggestions: { variationId: string; vendorName: string | null }[] }) =>
      screen.suggestions.filter((s) => [VIAL.id, SHORT.id, BULK.id, SPARE.id].includes(s.variationId));
    // Reorder Supply has three suggestions, Reorder Other one: Supply comes first though Other's name is first.
    const all = await readReorderScreen(t.db, at(loc.north), loc.north, null);
    expect(ours(all).map((s) => s.vendorName)).toEqual([
      "Reorder Supply",
      "Reorder Supply",
      "Reorder Supply",
      "Reorder Other",
    ]);
    expect(all.vendors).toBe(new Set(all.suggestions.map((s) => s.vendorId)).size);
    const first = await readReorderScreen(t.db, at(loc.north), loc.north, 1);
    expect(first.vendors).toBe(all.vendors);
    expect(new Set(first.suggestions.map((s) => s.vendorId))).toEqual(new Set([vendorId]));
    // The same suggestions as read whole, with the same figures and why.
    expect(first.suggestions).toEqual(all.suggestions.filter((s) => s.vendorId === vendorId));
    // Only the shown suggestions are offered a transfer instead (BULK, of Reorder Other, is not shown).
    expect(first.offers.map((o) => o.variationId)).not.toContain(BULK.id);
    // The API keeps its order: by vendor name.
    const api = await suggest();
    expect(api.map((s) => s.vendorName)).toEqual([
      "Reorder Other",
      "Reorder Supply",
      "Reorder Supply",
      "Reorder Supply",
    ]);
  });

  it("suggests again what an order just submitted no longer covers: nothing is kept from one read to the next", async () => {
    const before = await readReorderScreen(t.db, at(loc.north), loc.north, 1);
    const vial = before.suggestions.find((s) => s.variationId === VIAL.id);
    expect(vial?.packages).toBeGreaterThan(0);
    const submitted = await order("submitted", VIAL.id, VIAL.upp, 50);
    const after = await readReorderScreen(t.db, at(loc.north), loc.north, 1);
    expect(after.suggestions.find((s) => s.variationId === VIAL.id)).toBeUndefined();
    await t.db.run(
      sql`UPDATE purchase_orders SET status = 'cancelled', cancelled_at = ${Date.now()} WHERE id = ${submitted.id}`,
    );
    expect(
      (await readReorderScreen(t.db, at(loc.north), loc.north, 1)).suggestions.map((s) => s.variationId),
    ).toContain(VIAL.id);
  });
});

describe("the rule, over any figures", () => {
  const figures = fc.record({
    par: fc.integer({ min: 1, max: 50 }),
    reorderGap: fc.integer({ min: 0, max: 50 }),
    maxGap: fc.option(fc.integer({ min: 0, max: 100 })),
    unitsPerPackage: fc.integer({ min: 1, max: 5000 }),
    onHand: fc.integer({ min: 0, max: 100_000 }),
    onOrder: fc.integer({ min: 0, max: 100_000 }),
    inTransit: fc.integer({ min: 0, max: 100_000 }),
    dailyUsage: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 5000, noNaN: true })),
    shelfLifeDays: fc.option(fc.integer({ min: 1, max: 1500 })),
  });
  const of = (f: typeof figures extends fc.Arbitrary<infer T> ? T : never) => ({
    par: f.par,
    reorderPoint: Math.max(0, f.par - f.reorderGap),
    max: f.maxGap === null ? null : f.par + f.maxGap,
    unitsPerPackage: f.unitsPerPackage,
    onHand: f.onHand,
    onOrder: f.onOrder,
    inTransit: f.inTransit,
    dailyUsage: f.dailyUsage,
    shelfLifeDays: f.shelfLifeDays,
    variationName: "100 U vial",
    tracking: "serialized" as const,
    draftNumber: null,
  });

  it("orders whole packages, never more than is used before expiry, else exactly enough to reach max", () => {
    fc.assert(
      fc.property(figures, (raw) => {
        const f = of(raw);
        const a = reorder(f);
        const position = f.onHand + f.onOrder + f.inTransit;
        expect(Number.isInteger(a.packages) && a.packages >= 0).toBe(true);
        expect(a.due).toBe(position <= f.reorderPoint * f.unitsPerPackage);
        if (!a.due) {
          expect(a.packages).toBe(0);
          return;
        }
        const target = (f.max ?? f.par) * f.unitsPerPackage;
        if (f.shelfLifeDays !== null && f.dailyUsage > 0) {
          expect(a.packages * f.unitsPerPackage).toBeLessThanOrEqual(f.dailyUsage * f.shelfLifeDays + 1e-6);
          expect(a.packages).toBeLessThanOrEqual(shelfLifeCap(f.dailyUsage, f.shelfLifeDays, f.unitsPerPackage));
        }
        if (a.cappedAt === null) {
          // Enough to reach max, and one package fewer would not.
          expect(position + a.packages * f.unitsPerPackage).toBeGreaterThanOrEqual(target);
          if (a.packages > 0) expect(position + (a.packages - 1) * f.unitsPerPackage).toBeLessThan(target);
        } else {
          expect(a.why).toMatch(/capped at /);
          expect(position + a.packages * f.unitsPerPackage).toBeLessThan(target);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("GET /api/reorder-suggestions", () => {
  const get = async (who: string, query: string) => {
    const { cookie } = await signedIn(t.db, who);
    try {
      return (await apiLoader({
        request: pageRequest(`/api/reorder-suggestions${query}`, cookie),
        params: {},
        context: loadContext(t.db),
      } as never)) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  const code = async (r: Response) => ((await r.json()) as { code: string }).code;

  it("answers the suggestions in base units, with why", async () => {
    const r = await get("owner", `?locationId=${loc.north}&vendorId=${vendorId}`);
    expect(r.status).toBe(200);
    const { items } = (await r.json()) as { items: ReorderSuggestion[] };
    const s = items.find((x) => x.variationId === SHORT.id);
    expect(s).toMatchObject({ vendorId, onHand: SHORT.upp, onOrder: 0, inTransit: 0, reorderPoint: 5 * SHORT.upp });
    expect(s?.max).toBe(20 * SHORT.upp);
    expect(typeof s?.why).toBe("string");
    expect(items.every((x) => x.vendorId === vendorId)).toBe(true);
  });

  it("refuses a location the user cannot read purchasing at, bad ids, another organization's vendor", async () => {
    const [dtn] = await t.db.all<{ id: string }>(sql`SELECT id FROM locations WHERE code = 'DTN'`);
    const [wst] = await t.db.all<{ id: string }>(sql`SELECT id FROM locations WHERE code = 'WST'`);
    // Staff read no purchasing; a manager reads at WST, not DTN.
    let r = await get("staff", `?locationId=${dtn?.id}`);
    expect([r.status, await code(r)]).toEqual([403, "forbidden"]);
    r = await get("manager", `?locationId=${dtn?.id}`);
    expect(r.status).toBe(403);
    r = await get("manager", `?locationId=${wst?.id}`);
    expect(r.status).toBe(200);
    r = await get("manager", `?locationId=${"x".repeat(101)}`);
    expect([r.status, await code(r)]).toEqual([400, "invalid_filter"]);
    r = await get("owner", `?locationId=${loc.north}&vendorId=${randomUUID()}`);
    expect([r.status, await code(r)]).toEqual([404, "not_found"]);
    r = await get("owner", `?locationId=${randomUUID()}`);
    expect(r.status).toBe(403);
  });
});
