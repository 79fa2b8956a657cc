// The dashboard's figures against a small data set made here through the real verbs (receiving,
// the vial verbs, the waste job, par levels, a recall) at a location of its own, so every number
// is known: each stock figure, the waste by reason this month and last, the par status, the open
// vials; the same numbers as the lists the cards link to; organization mode as the sum of its
// locations; a location the reader cannot read refused; one round trip after the session; and a
// widget whose statement fails shows alone as failed while the others read.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { dashboardScreen, readParStatus, readStats } from "../../app/dashboard/dashboard.server";
import { wasteMonths } from "../../app/dashboard/month";
import { FIGURES_STAND_FOR_MS, workOutOrganizationFigures } from "../../app/dashboard/organization-figures.server";
import { parStatusOf, parStatusQueries } from "../../app/dashboard/par-status.server";
import { placeOf } from "../../app/dashboard/place.server";
import { schema } from "../../app/db/client.server";
import { createLocation } from "../../app/locations/create.server";
import { saveParLevels } from "../../app/par-levels/save.server";
import { markRecall } from "../../app/recalls/mark.server";
import { addReceiptLine } from "../../app/receiving/add-line.server";
import { completeReceipt } from "../../app/receiving/complete.server";
import { openReceipt } from "../../app/receiving/open.server";
import { loader as pageLoader } from "../../app/routes/_app._index";
import { loader as statsApi } from "../../app/routes/api.dashboard.stats";
import { readStockLevels, StockLevelQuery } from "../../app/stock/levels.server";
import { readVials, VialQuery } from "../../app/stock/vials.server";
import { discardVial } from "../../app/vials/discard.server";
import { drawUnits } from "../../app/vials/draw.server";
import { emptyVial } from "../../app/vials/empty.server";
import { startVial } from "../../app/vials/start.server";
import { wasteAtDeadline } from "../../app/vials/waste.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { variationNamed } from "../support/receive";
import { loadContext, signedIn, withLocationChoice } from "../support/screens";
import { markLineLost, writeTransfer } from "../support/transfers";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);
const noop = () => {};

let t: TestDatabase;
let demo: Record<"DTN" | "WST" | "NTH", string>;
/** The location this test stocks, and nothing else does. */
let HERE: string;
let owner: SessionUser;
let ownerCookie: string;
let staffCookie: string;
let BOTOX: string; // 100 U vial
let JUVEDERM: string; // 1 mL syringe
let PREP: string; // bulk: box of 200
const cost: Record<string, { cents: number; units: number }> = {};

const at = (locationId: string): ScopedActor => ({ ...owner, locationId });

let lots = 0;
/** Receives `quantity` packages of a lot at HERE the way receiving does; the vials' ids (none for bulk). */
async function receive(
  variationId: string,
  quantity: number,
  expiresInDays: number,
  unitCostCents: number | null = null,
) {
  const lot = `DB${++lots}`;
  const by = at(HERE);
  const opened = await openReceipt(t.db, by, { locationId: HERE, vendorId: null, reference: null, notes: null });
  if (!opened.ok) throw new Error(opened.message);
  const expired = expiresInDays < 0;
  const added = await addReceiptLine(t.db, by, {
    receiptId: opened.receiptId,
    variationId,
    quantity,
    lot,
    serial: null,
    expirationDate: day(expiresInDays),
    unitCostCents,
    expiryConfirmed: expired,
    expiryReason: expired ? "test of an expired lot" : null,
  });
  if (!added.ok) throw new Error(added.message);
  const done = await completeReceipt(t.db, by, { receiptId: opened.receiptId });
  if (!done.ok) throw new Error(done.message);
  const rows = await t.db
    .select({ id: schema.items.id })
    .from(schema.items)
    .where(sql`${schema.items.variationId} = ${variationId} AND ${schema.items.lot} = ${lot}`);
  return { lot, ids: rows.map((r) => r.id) };
}

function must<T extends { ok: boolean }>(outcome: T): T {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return outcome;
}

const months = () => wasteMonths(new Date(), "UTC");

// What was made, for the expectations.
let inUseVial: string;
let emptied: string;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc: demo } = await demoLocations(t.db));
  const first = await signedIn(t.db, "owner");
  const made = await createLocation(t.db, first.user, {
    name: "Dashboard Test",
    code: "DBT",
    address: null,
    timezone: "UTC",
  });
  if (!made.ok) throw new Error("no location");
  HERE = made.locationId;
  // Signed in again, so the session lists the new location among the owner's.
  ({ user: owner, cookie: ownerCookie } = await signedIn(t.db, "owner"));
  ({ cookie: staffCookie } = await signedIn(t.db, "staff"));
  BOTOX = await variationNamed(t.db, "Botox Cosmetic", "100 U vial");
  JUVEDERM = await variationNamed(t.db, "Juvederm Ultra XC", "1 mL syringe");
  PREP = await variationNamed(t.db, "Alcohol prep pads", "Box of 200");
  for (const id of [BOTOX, JUVEDERM, PREP]) {
    const [row] = await t.db
      .select({ cents: schema.productVariations.costCents, units: schema.productVariations.unitsPerPackage })
      .from(schema.productVariations)
      .where(eq(schema.productVariations.id, id));
    cost[id] = { cents: row?.cents ?? 0, units: row?.units ?? 1 };
  }

  const now = new Date();
  // Three vials at their own cost (one opened now), one expiring in 10 days (recalled), one expired.
  const own = await receive(BOTOX, 3, 200, 50_000);
  inUseVial = own.ids[0] as string;
  must(await startVial(t.db, at(HERE), { itemId: inUseVial }, { now }));
  const soon = await receive(BOTOX, 1, 10);
  must(
    await markRecall(t.db, at(HERE), {
      variationId: BOTOX,
      lot: soon.lot,
      note: "Manufacturer recall notice",
    }),
  );
  await receive(BOTOX, 1, -3);
  // Waste: one discarded as damaged last month, one left at its Use-By Deadline (the waste job), one
  // emptied by hand with 70 U left.
  const waste = await receive(BOTOX, 3, 200);
  const [damaged, atDeadline, byHand] = waste.ids as [string, string, string];
  const lastMonth = new Date(months().lastMonthStart + 2 * DAY);
  must(await discardVial(t.db, at(HERE), { itemId: damaged, reason: "damaged" }, { now: lastMonth }));
  must(await startVial(t.db, at(HERE), { itemId: atDeadline }, { now: new Date(now.getTime() - 2 * DAY) }));
  await wasteAtDeadline(t.db, now);
  must(await startVial(t.db, at(HERE), { itemId: byHand }, { now }));
  must(await drawUnits(t.db, at(HERE), { itemId: byHand, units: "30" }));
  must(await emptyVial(t.db, at(HERE), { itemId: byHand }));
  emptied = byHand;
  // A syringe (under its par of 2) and two boxes of prep pads (bulk, over par).
  await receive(JUVEDERM, 1, 200);
  await receive(PREP, 2, 400);
  must(
    await saveParLevels(t.db, owner, {
      locationId: HERE,
      changes: [
        { variationId: BOTOX, levels: { par: 10, reorderPoint: 5, max: 12 } },
        { variationId: JUVEDERM, levels: { par: 2, reorderPoint: 0, max: null } },
        { variationId: PREP, levels: { par: 1, reorderPoint: 0, max: null } },
      ],
    }),
  );
});
afterAll(() => t.close());

async function statsAt(locationId: string) {
  const actor = at(locationId);
  const stats = await readStats(t.db, actor, placeOf(actor), noop);
  if (!stats) throw new Error("stats not read");
  return stats;
}

describe("the stock figures", () => {
  it("counts each figure at one location as defined", async () => {
    const botox = cost[BOTOX]?.cents ?? 0;
    const juvederm = cost[JUVEDERM]?.cents ?? 0;
    const stats = await statsAt(HERE);
    expect(stats).toMatchObject({
      // 3 at their own cost (1 in use), 1 recalled, 1 expired, 1 syringe; the ended ones are not on hand.
      vialsOnHand: 6,
      inUse: 1,
      // The open vial (deadline in 24 h), the lot expiring in 10 days, the expired one.
      expiringSoon: 3,
      expiringSoonValueCents: 50_000 + 2 * botox,
      expired: 1,
      recalled: 1,
      belowReorder: 1,
      belowParOnly: 1,
      belowPar: 2,
      // Vials at cost, plus 400 pads at $4.25 a box of 200.
      stockValueCents: 3 * 50_000 + 2 * botox + juvederm + 850,
    });
    expect(stats.wasteThisMonth).toEqual({ units: 170, cents: botox + Math.round((70 * botox) / 100) });
  });

  it("equals the lists its cards link to", async () => {
    const actor = at(HERE);
    const stats = await statsAt(HERE);
    const vials = (q: Record<string, unknown>) => readVials(t.db, actor, [HERE], VialQuery.parse(q));
    expect((await vials({})).total).toBe(stats.vialsOnHand);
    expect((await vials({ state: "in_use" })).total).toBe(stats.inUse);
    expect((await vials({ expiringWithinDays: "30" })).total).toBe(stats.expiringSoon);
    expect((await vials({ recalled: "true" })).total).toBe(stats.recalled);
    const levels = (status: string) => readStockLevels(t.db, actor, [HERE], StockLevelQuery.parse({ status }));
    expect((await levels("below_reorder")).total).toBe(stats.belowReorder);
    expect((await levels("below_par")).total).toBe(stats.belowParOnly);
  });

  it("in organization mode, adds up its locations", async () => {
    const org = await statsAt(ORGANIZATION);
    const each = await Promise.all([HERE, demo.DTN, demo.WST, demo.NTH].map(statsAt));
    const sum = (key: keyof typeof org) => each.reduce((total, s) => total + Number(s[key]), 0);
    for (const key of [
      "vialsOnHand",
      "inUse",
      "expiringSoon",
      "expiringSoonValueCents",
      "expired",
      "recalled",
      "belowReorder",
      "belowParOnly",
      "stockValueCents",
    ] as const) {
      expect(org[key], key).toBe(sum(key));
    }
    expect(org.vialsOnHand).toBeGreaterThan(6);
  });

  it("refuses a location the reader cannot read (403 in the API's one shape), and reads nothing for no location", async () => {
    const request = new Request(`http://clinic.test/api/dashboard/stats?locationId=${HERE}`, {
      headers: { Cookie: staffCookie },
    });
    const refused = await statsApi({ request, context: loadContext(t.db), params: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
    expect(await (refused as Response).json()).toMatchObject({ code: "forbidden" });
    // An actor standing nowhere reaches no location: every figure is zero.
    const nowhere = { ...owner, locationId: null, organizationRole: null } as ScopedActor;
    const stats = await readStats(t.db, nowhere, placeOf(nowhere), noop);
    expect(stats).toMatchObject({ vialsOnHand: 0, stockValueCents: 0, belowPar: 0, wasteThisMonth: { units: 0 } });
  });
});

describe("the waste", () => {
  it("splits this month and last by reason, names the product, and shows the deadline's share", async () => {
    const botox = cost[BOTOX]?.cents ?? 0;
    const actor = at(HERE);
    const widgets = await dashboardScreen(t.db, actor, placeOf(actor), { activity: false, backups: false }, noop);
    if (!widgets.waste.ok) throw new Error("waste not read");
    const waste = widgets.waste.data;
    const reason = (r: string) => waste.byReason.find((x) => x.reason === r);
    expect(reason("beyond_use_deadline")).toEqual({
      reason: "beyond_use_deadline",
      thisMonth: { units: 100, cents: botox, count: 1 },
      lastMonth: { units: 0, cents: 0, count: 0 },
    });
    expect(reason("left_when_emptied")?.thisMonth).toEqual({
      units: 70,
      cents: Math.round((70 * botox) / 100),
      count: 1,
    });
    expect(reason("damaged")).toMatchObject({
      thisMonth: { count: 0 },
      lastMonth: { units: 100, cents: botox, count: 1 },
    });
    expect(waste.lastMonth).toEqual({ units: 100, cents: botox, count: 1 });
    expect(waste.top).toEqual([
      expect.objectContaining({
        productName: "Botox Cosmetic",
        units: 170,
        deadlineUnits: 100,
        deadlineCents: botox,
      }),
    ]);
    // The emptied vial's 70 U are its WASTE movement; the damaged one's its DISCARD.
    const [movement] = await t.db
      .select()
      .from(schema.stockMovements)
      .where(sql`${schema.stockMovements.itemId} = ${emptied} AND ${schema.stockMovements.type} = 'WASTE'`);
    expect(movement?.quantity).toBe(-70);
  });
});

describe("the lists", () => {
  it("lists what is below par with what to order to reach the maximum, at the reorder point first", async () => {
    const actor = at(HERE);
    const par = parStatusOf(await t.db.batch(parStatusQueries(t.db, actor, [HERE], new Date()) as never));
    expect(par).toMatchObject({ belowReorder: 1, belowParOnly: 1, belowPar: 2 });
    expect(par.items.map((row) => [row.variationName, row.status, row.usable, row.reorderPackages])).toEqual([
      // Botox: 400 U usable (the expired vial does not count), max 12 packages: 8 to order.
      ["100 U vial", "below_reorder", 400, 8],
      // Juvederm: one syringe of a par of 2, no maximum: 1 to order.
      ["1 mL syringe", "below_par", 100, 1],
    ]);
  });

  it("reads the page in one round trip after the session, open vials nearest deadline first", async () => {
    // With the location's figures worked out in the last minute, as the jobs worker keeps them.
    await workOutOrganizationFigures(t.db, new Date());
    const cookie = await withLocationChoice(ownerCookie, HERE);
    const request = new Request("http://clinic.test/", { headers: { Cookie: cookie } });
    t.resetRoundTrips();
    const page = await pageLoader({ request, context: loadContext(t.db), params: {} });
    expect(t.roundTrips()).toBe(2);
    expect(page.dashboard?.asOf).not.toBeNull();
    const dashboard = page.dashboard;
    if (!dashboard) throw new Error("no dashboard");
    expect(dashboard.stats).toMatchObject({ ok: true, data: { vialsOnHand: 6 } });
    expect(dashboard.inUse.ok && dashboard.inUse.data.map((v) => v.id)).toEqual([inUseVial]);
    expect(dashboard.activity?.ok && dashboard.activity.data.length).toBeGreaterThan(0);
    expect(dashboard.backups).toEqual({
      ok: true,
      data: { lastBackup: null, failedSince: null, lastVerifiedRestore: null },
    });
    // The tests after this one sum their own figures.
    await t.db.delete(schema.workedOut);
  });

  it("shows the newest backup and the newest verified restore", async () => {
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    const base = { organizationId: org?.id ?? "", origin: "schedule" as const, r2Key: "backups/x" };
    const t0 = Date.now() - 3 * DAY;
    await t.db.insert(schema.backups).values([
      {
        ...base,
        id: "b1",
        status: "ready",
        requestedAt: new Date(t0),
        finishedAt: new Date(t0 + HOUR),
        sizeBytes: 2048,
        rehearsalStatus: "passed",
        rehearsedAt: new Date(t0 + 2 * HOUR),
      },
      {
        ...base,
        id: "b2",
        status: "ready",
        requestedAt: new Date(t0 + DAY),
        finishedAt: new Date(t0 + DAY + HOUR),
        rehearsalStatus: "failed",
        rehearsedAt: new Date(t0 + DAY + 2 * HOUR),
      },
      { ...base, id: "b3", status: "failed", requestedAt: new Date(t0 + 2 * DAY), error: "R2 refused the upload" },
    ]);
    const actor = at(HERE);
    const widgets = await dashboardScreen(t.db, actor, placeOf(actor), { activity: false, backups: true }, noop);
    expect(widgets.backups).toEqual({
      ok: true,
      data: {
        lastBackup: { id: "b2", requestedAt: t0 + DAY, finishedAt: t0 + DAY + HOUR, sizeBytes: null },
        failedSince: { id: "b3", requestedAt: t0 + 2 * DAY, error: "R2 refused the upload" },
        lastVerifiedRestore: { id: "b1", rehearsedAt: t0 + 2 * HOUR, requestedAt: t0 },
      },
    });
  });

  it("leaves out what the reader may not see: staff get no activity and no backups", async () => {
    const request = new Request("http://clinic.test/", { headers: { Cookie: staffCookie } });
    const page = await pageLoader({ request, context: loadContext(t.db), params: {} });
    expect(page.dashboard).toMatchObject({ activity: null, backups: null, stats: { ok: true } });
  });
});

describe("a widget whose statement fails", () => {
  it("fails alone: the others are read, each on its own after the batch failed", async () => {
    const reported: unknown[] = [];
    await t.db.run(sql`ALTER TABLE backups RENAME TO backups_away`);
    try {
      const actor = at(HERE);
      const widgets = await dashboardScreen(t.db, actor, placeOf(actor), { activity: true, backups: true }, (error) =>
        reported.push(error),
      );
      expect(widgets.backups).toEqual({ ok: false });
      expect(widgets.stats).toMatchObject({ ok: true, data: { vialsOnHand: 6 } });
      expect(widgets.waste.ok && widgets.parStatus.ok && widgets.inUse.ok && widgets.activity?.ok).toBe(true);
      // The batch's failure and the backups' own, both reported.
      expect(reported.length).toBe(2);
    } finally {
      await t.db.run(sql`ALTER TABLE backups_away RENAME TO backups`);
    }
  });
});

describe("the organization's worked-out figures", () => {
  const access = { activity: false, backups: false };
  const screenAt = (when: Date) => {
    const actor = at(ORGANIZATION);
    return dashboardScreen(t.db, actor, placeOf(actor, when), access, noop);
  };

  it("stand in for the sums in organization mode: the same figures, in one round trip, with their instant", async () => {
    const now = new Date();
    const live = await screenAt(now);
    expect(live.asOf).toBeNull();
    expect(live.stats.ok && live.stats.data.vialsOnHand).toBeGreaterThan(6);

    await workOutOrganizationFigures(t.db, now);
    const later = new Date(now.getTime() + 30_000);
    t.resetRoundTrips();
    const read = await screenAt(later);
    expect(t.roundTrips()).toBe(1);
    expect(read.asOf).toBe(now.getTime());
    expect(read.stats).toEqual(live.stats);
    expect(read.waste).toEqual(live.waste);
    // The par status too (led by every par level of the chain, the costliest list in organization mode).
    expect(read.parStatus).toEqual(live.parStatus);
    expect(await readParStatus(t.db, at(ORGANIZATION), placeOf(at(ORGANIZATION), later), noop)).toEqual(
      live.parStatus.ok && live.parStatus.data,
    );
    // The page says how old they are; the API gives the same figures and their instant.
    const cookie = await withLocationChoice(ownerCookie, ORGANIZATION);
    const page = await pageLoader({
      request: new Request("http://clinic.test/", { headers: { Cookie: cookie } }),
      context: loadContext(t.db),
      params: {},
    });
    expect(page.dashboard?.asOf).toBe(now.getTime());
    const actor = at(ORGANIZATION);
    const api = await readStats(t.db, actor, placeOf(actor, later), noop);
    if (!live.stats.ok || !live.waste.ok) throw new Error("not read");
    expect(api).toEqual({
      ...live.stats.data,
      wasteThisMonth: { units: live.waste.data.thisMonth.units, cents: live.waste.data.thisMonth.cents },
      asOf: now.toISOString(),
    });
  });

  it("are summed again when too old, of another month, or of another set of locations", async () => {
    const now = new Date();
    await workOutOrganizationFigures(t.db, now);
    expect((await screenAt(new Date(now.getTime() + FIGURES_STAND_FOR_MS))).asOf).toBe(now.getTime());
    expect((await screenAt(new Date(now.getTime() + FIGURES_STAND_FOR_MS + 1))).asOf).toBeNull();
    // From the future (a clock put back): not these.
    expect((await screenAt(new Date(now.getTime() - 1))).asOf).toBeNull();
    // Worked out in the last minute of last month: this month's waste is not in them.
    const lastMinute = new Date(wasteMonths(now, "UTC").thisMonthStart - 60_000);
    await t.db.update(schema.workedOut).set({ computedAt: lastMinute });
    await workOutOrganizationFigures(t.db, lastMinute);
    const turned = await screenAt(new Date(wasteMonths(now, "UTC").thisMonthStart + 1000));
    expect(turned.asOf).toBeNull();
    // A location opened since: the figures are of fewer locations than the reader now reaches.
    await workOutOrganizationFigures(t.db, now);
    const actor = at(ORGANIZATION);
    const more = {
      ...actor,
      locationRoles: [...actor.locationRoles, { locationId: "a-new-location", role: "ADMIN" as const }],
    };
    const widened = await dashboardScreen(t.db, more, placeOf(more, now), access, noop);
    expect(widened.asOf).toBeNull();
  });

  it("hold each location's own figures, as seen there, which stand in for its sums", async () => {
    const now = new Date();
    await workOutOrganizationFigures(t.db, now);
    for (const location of [HERE, demo.DTN]) {
      const actor = at(location);
      const worked = await dashboardScreen(t.db, actor, placeOf(actor, now), access, noop);
      expect(worked.asOf).toBe(now.getTime());
      await t.db.delete(schema.workedOut);
      const summed = await dashboardScreen(t.db, actor, placeOf(actor, now), access, noop);
      expect(summed.asOf).toBeNull();
      // The same figures as the location's view sums itself.
      expect(worked.stats).toEqual(summed.stats);
      expect(worked.waste).toEqual(summed.waste);
      expect(worked.parStatus).toEqual(summed.parStatus);
      await workOutOrganizationFigures(t.db, now);
    }
    const actor = at(HERE);
    expect((await dashboardScreen(t.db, actor, placeOf(actor, now), access, noop)).stats).toMatchObject({
      ok: true,
      data: { vialsOnHand: 6 },
    });
  });

  it("at a location without recent figures, sums them in a second round trip", async () => {
    await t.db.delete(schema.workedOut);
    const cookie = await withLocationChoice(ownerCookie, HERE);
    const request = new Request("http://clinic.test/", { headers: { Cookie: cookie } });
    t.resetRoundTrips();
    const page = await pageLoader({ request, context: loadContext(t.db), params: {} });
    expect(t.roundTrips()).toBe(3);
    expect(page.dashboard?.asOf).toBeNull();
    expect(page.dashboard?.stats).toMatchObject({ ok: true, data: { vialsOnHand: 6 } });
  });
});

describe("what is on the road", () => {
  it("counts the pending lines in transit to here and the open discrepancies of transfers from or to here", async () => {
    // The organization's figures summed now, not those the tests above worked out.
    await t.db.delete(schema.workedOut);
    const before = await statsAt(HERE);
    expect(before).toMatchObject({ inTransitToHere: 0, openDiscrepancies: 0 });
    // Downtown sends HERE two sealed vials and 40 pads (in transit); a draft to HERE is not on the road.
    const sealed = await t.db.all<{ id: string }>(
      sql`SELECT id FROM items WHERE location_id = ${demo.DTN} AND state = 'sealed' ORDER BY id LIMIT 3`,
    );
    const [a, b, c] = sealed.map((row) => row.id) as [string, string, string];
    const dtnBefore = (await statsAt(demo.DTN)).vialsOnHand;
    await t.db.run(sql`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
      VALUES (${demo.DTN}, ${PREP}, 0, ${Date.now()}) ON CONFLICT DO NOTHING`);
    await t.db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type, reason, user_id)
      VALUES ('dash-prep-in', ${Date.now()}, ${demo.DTN}, ${PREP}, 200, 'ADJUST', 'count_correction', ${owner.id})`);
    await t.db.run(
      sql`UPDATE stock_levels SET on_hand = on_hand + 200 WHERE location_id = ${demo.DTN} AND variation_id = ${PREP}`,
    );
    const sent = await writeTransfer(t.db, {
      from: demo.DTN,
      to: HERE,
      by: owner.id,
      status: "in_transit",
      itemIds: [a, b],
      bulk: [{ variationId: PREP, quantity: 40 }],
    });
    await writeTransfer(t.db, { from: demo.DTN, to: HERE, by: owner.id, status: "draft", itemIds: [c] });
    const sentOut = await statsAt(HERE);
    expect(sentOut).toMatchObject({ inTransitToHere: 3, openDiscrepancies: 0 });
    // The sender sees nothing coming to it; its two vials left its shelf.
    expect(await statsAt(demo.DTN)).toMatchObject({ inTransitToHere: 0, vialsOnHand: dtnBefore - 2 });

    // One vial arrives missing and the pads short by 10: two open discrepancies, seen at both ends.
    await markLineLost(t.db, {
      lineId: sent.lineIds[0] as string,
      by: owner.id,
      received: 0,
      reason: "Not in the box",
    });
    await markLineLost(t.db, { lineId: sent.lineIds[2] as string, by: owner.id, received: 30, reason: "Box torn" });
    expect(await statsAt(HERE)).toMatchObject({ inTransitToHere: 1, openDiscrepancies: 2 });
    expect(await statsAt(demo.DTN)).toMatchObject({ inTransitToHere: 0, openDiscrepancies: 2 });
    expect(await statsAt(demo.WST)).toMatchObject({ inTransitToHere: 0, openDiscrepancies: 0 });
    // In organization mode a discrepancy between two locations in scope is one discrepancy.
    expect(await statsAt(ORGANIZATION)).toMatchObject({ inTransitToHere: 1, openDiscrepancies: 2 });

    // Resolved with a note: no longer open.
    await t.db.run(sql`UPDATE transfer_lines SET resolved_by = ${owner.id}, resolved_at = ${Date.now()},
      resolution_note = 'Claimed from the courier' WHERE id = ${sent.lineIds[2] as string}`);
    expect(await statsAt(HERE)).toMatchObject({ openDiscrepancies: 1 });
  });

  it("are in the organization's worked-out figures, and older figures without them do not stand in", async () => {
    const actor = at(ORGANIZATION);
    const now = new Date();
    await t.db.delete(schema.workedOut);
    const live = await dashboardScreen(t.db, actor, placeOf(actor, now), { activity: false, backups: false }, noop);
    await workOutOrganizationFigures(t.db, now);
    const read = await dashboardScreen(
      t.db,
      actor,
      placeOf(actor, new Date(now.getTime() + 1000)),
      { activity: false, backups: false },
      noop,
    );
    expect(read.asOf).toBe(now.getTime());
    expect(read.stats).toEqual(live.stats);
    expect(read.stats).toMatchObject({ ok: true, data: { inTransitToHere: 1, openDiscrepancies: 1 } });
    // Figures worked out before transfers were counted do not stand in.
    const [row] = await t.db.select().from(schema.workedOut).where(eq(schema.workedOut.kind, "dashboard_figures"));
    const old = JSON.parse(String(row?.body));
    delete old.stats.inTransitToHere;
    await t.db
      .update(schema.workedOut)
      .set({ body: JSON.stringify(old) })
      .where(eq(schema.workedOut.kind, "dashboard_figures"));
    const again = await dashboardScreen(
      t.db,
      actor,
      placeOf(actor, new Date(now.getTime() + 1000)),
      {
        activity: false,
        backups: false,
      },
      noop,
    );
    expect(again.asOf).toBeNull();
  });
});
