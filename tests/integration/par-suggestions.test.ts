// Par levels from usage on /products/par-levels (issue 23.4, ADR 0032): the loader proposes, for the
// page's rows, reorder point = use during the vendor's lead time + a week, max = that + a month of
// use, par = today's kept between (else max), from the ledger's use over 30 or 90 days, in one
// round trip beyond the session; the action accepts ticked rows or all in one batch, with each
// level's set_par_level row and one apply_par_suggestions row; bad or tampered input changes nothing.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { APPLY_SUGGESTIONS_INTENT } from "../../app/par-levels/constants";
import { proposeLevels } from "../../app/par-levels/propose";
import type { UsageRow } from "../../app/par-levels/usage-suggestions";
import * as parLevelsScreen from "../../app/routes/_app.products.par-levels";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { loadContext, outcome, signedIn, withLocationChoice } from "../support/screens";

const DAY = 24 * 60 * 60 * 1000;
const env = { SESSION_SECRET: "test-secret" } as Env;
let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
/** Used 1 box a day over 30 days and 2 a day over 90; never used; each 10 to a box, from a 14-day vendor. */
let FAST = "";
let IDLE = "";

async function cookieFor(name: string, where?: "DTN" | "WST") {
  const { cookie } = await signedIn(t.db, name, env);
  return withLocationChoice(cookie, where && loc[where]);
}

const load = (cookie: string, search: string) =>
  outcome(() =>
    parLevelsScreen.loader({
      request: new Request(`http://clinic.test/products/par-levels${search}`, { headers: { Cookie: cookie } }),
      context: loadContext(t.db, env),
      params: {},
    }),
  );
const post = (cookie: string, fields: [string, string][]) => {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  return outcome(() =>
    parLevelsScreen.action({
      request: new Request("http://clinic.test/products/par-levels?q=Usage&suggest=30", {
        method: "POST",
        headers: { Cookie: cookie },
        body: form,
      }),
      context: loadContext(t.db, env),
      params: {},
    }),
  );
};
async function levelsAt(variationIds: string[]) {
  const rows = await t.db
    .select()
    .from(schema.parLevels)
    .where(and(eq(schema.parLevels.locationId, loc.WST), inArray(schema.parLevels.variationId, variationIds)));
  return Object.fromEntries(rows.map((r) => [r.variationId, [r.par, r.reorderPoint, r.max]]));
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  const vendorId = uuidv7();
  const productId = uuidv7();
  [FAST, IDLE] = [uuidv7(), uuidv7()];
  await t.db.batch([
    t.db.insert(schema.vendors).values({ id: vendorId, organizationId, name: "Usage Vendor", leadTimeDays: 14 }),
    t.db.insert(schema.products).values({
      id: productId,
      organizationId,
      name: "Usage Pads",
      category: "Usage Test",
      tracking: "bulk",
      baseUnit: "each",
      defaultVendorId: vendorId,
    }),
    t.db.insert(schema.productVariations).values([
      { id: FAST, productId, name: "Box of 10", unitsPerPackage: 10 },
      { id: IDLE, productId, name: "Box of 20", unitsPerPackage: 20 },
    ]),
  ]);
  // 300 units sold at Westside over the last 30 days, 1,500 more 40 to 80 days ago; 500 wasted at Downtown (not Westside's).
  const now = Date.now();
  const moves: [string, number, number][] = [];
  for (let d = 1; d <= 30; d++) moves.push([loc.WST, now - d * DAY + 10 * 60 * 1000, -10]);
  for (let d = 40; d < 80; d += 2) moves.push([loc.WST, now - d * DAY, -75]);
  moves.push([loc.DTN, now - DAY, -500]);
  for (const [location, at, quantity] of moves)
    await t.db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type)
      VALUES (${randomUUID()}, ${at}, ${location}, ${FAST}, ${quantity}, ${location === loc.DTN ? "WASTE" : "SALE"})`);
});
afterAll(() => t?.close());

describe("the rule", () => {
  it("proposes lead-time use and a week as the reorder point, a month more as the max, at least 1", () => {
    // 1 package a day, 14 days' lead: 21; max 21 + 30.
    expect(proposeLevels({ usedUnits: 300, days: 30, unitsPerPackage: 10, leadTimeDays: 14, today: null })).toEqual({
      par: 51,
      reorderPoint: 21,
      max: 51,
    });
    // Today's par is kept when it fits between; pulled up or down to fit when not.
    const today = { par: 30, reorderPoint: 2, max: 40 };
    expect(proposeLevels({ usedUnits: 300, days: 30, unitsPerPackage: 10, leadTimeDays: 14, today })?.par).toBe(30);
    expect(
      proposeLevels({ usedUnits: 300, days: 30, unitsPerPackage: 10, leadTimeDays: 14, today: { ...today, par: 5 } })
        ?.par,
    ).toBe(21);
    // A trickle still keeps one on the shelf, one more at most; no lead time known: a week assumed.
    expect(proposeLevels({ usedUnits: 1, days: 90, unitsPerPackage: 100, leadTimeDays: null, today: null })).toEqual({
      par: 2,
      reorderPoint: 1,
      max: 2,
    });
    expect(proposeLevels({ usedUnits: 0, days: 30, unitsPerPackage: 10, leadTimeDays: 14, today: null })).toBeNull();
  });
});

describe("suggest from usage on /products/par-levels", () => {
  it("proposes from 30 or 90 days of use at this location, beside today's values, in one round trip", async () => {
    const cookie = await cookieFor("manager");
    t.resetRoundTrips();
    const thirty = await load(cookie, "?q=Usage%20Pads&suggest=30");
    expect(t.roundTrips()).toBe(2);
    const rows30 = (thirty.data as { usage: UsageRow[] }).usage;
    expect(rows30.find((r) => r.variationId === FAST)).toMatchObject({
      usedPackages: "30",
      today: null,
      proposed: { par: 51, reorderPoint: 21, max: 51 },
    });
    expect(rows30.find((r) => r.variationId === IDLE)).toMatchObject({ usedPackages: "0", proposed: null });
    // 90 days: 1,800 units, 2 boxes a day.
    const ninety = await load(cookie, "?q=Usage%20Pads&suggest=90");
    expect((ninety.data as { usage: UsageRow[] }).usage.find((r) => r.variationId === FAST)?.proposed).toEqual({
      par: 102,
      reorderPoint: 42,
      max: 102,
    });
    // Without ?suggest, nothing is read from the ledger.
    expect((await load(cookie, "?q=Usage%20Pads")).data).toMatchObject({ usageDays: null, usage: [] });
  });

  it("accepts the ticked rows in one batch: each level's row and one apply_par_suggestions row", async () => {
    const cookie = await cookieFor("manager");
    const answer = await post(cookie, [
      ["intent", APPLY_SUGGESTIONS_INTENT],
      ["days", "30"],
      [`proposal:${FAST}`, "51|21|51"],
      ["accept", FAST],
    ]);
    expect(answer.status).toBe(302);
    expect(await levelsAt([FAST, IDLE])).toEqual({ [FAST]: [51, 21, 51] });
    const rows = await t.db
      .select()
      .from(schema.activityLog)
      .where(inArray(schema.activityLog.action, ["set_par_level", "apply_par_suggestions"]));
    const mine = rows.filter(
      (r) => r.entityId === FAST || (r.action === "apply_par_suggestions" && r.entityId === loc.WST),
    );
    expect(mine.map((r) => r.action).sort()).toEqual(["apply_par_suggestions", "set_par_level"]);
    const applied = mine.find((r) => r.action === "apply_par_suggestions");
    expect(applied).toMatchObject({ entity: "location", locationId: loc.WST });
    const summary = applied?.summary;
    expect(typeof summary === "string" ? JSON.parse(summary) : summary).toEqual({
      count: 1,
      location: "WST",
      days: 30,
    });
  });

  it("accepts all the rows offered", async () => {
    const cookie = await cookieFor("manager");
    const answer = await post(cookie, [
      ["intent", APPLY_SUGGESTIONS_INTENT],
      ["days", "90"],
      [`proposal:${FAST}`, "102|42|102"],
      [`proposal:${IDLE}`, "2|1|2"],
      ["all", "1"],
    ]);
    expect(answer.status).toBe(302);
    expect(await levelsAt([FAST, IDLE])).toEqual({ [FAST]: [102, 42, 102], [IDLE]: [2, 1, 2] });
  });

  it("refuses staff, a window other than 30 or 90, nothing ticked and a tampered proposal, changing nothing", async () => {
    const before = await levelsAt([FAST, IDLE]);
    const fields = (extra: [string, string][]) => [["intent", APPLY_SUGGESTIONS_INTENT] as [string, string], ...extra];
    const staff = await cookieFor("staff");
    expect(
      (
        await post(
          staff,
          fields([
            ["days", "30"],
            [`proposal:${FAST}`, "5|1|9"],
            ["all", "1"],
          ]),
        )
      ).status,
    ).toBe(403);
    const manager = await cookieFor("manager");
    for (const bad of [
      fields([
        ["days", "45"],
        [`proposal:${FAST}`, "5|1|9"],
        ["all", "1"],
      ]),
      fields([
        ["days", "30"],
        [`proposal:${FAST}`, "5|1|9"],
      ]),
      // Reorder point above par; a fraction; a negative; a missing proposal.
      fields([
        ["days", "30"],
        [`proposal:${FAST}`, "5|6|9"],
        ["all", "1"],
      ]),
      fields([
        ["days", "30"],
        [`proposal:${FAST}`, "5.5|1|9"],
        ["all", "1"],
      ]),
      fields([
        ["days", "30"],
        [`proposal:${FAST}`, "-1|0|9"],
        ["all", "1"],
      ]),
      fields([
        ["days", "30"],
        ["accept", FAST],
      ]),
    ]) {
      const answer = await post(manager, bad);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ suggestError: expect.any(String) });
    }
    expect(await levelsAt([FAST, IDLE])).toEqual(before);
  });
});
