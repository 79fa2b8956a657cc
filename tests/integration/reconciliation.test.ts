// The reconciliation against a real database: expected usage from sales lines (services × today's
// recipes, refunds netting out, retail packages), actual usage from each movement type, the split
// summing to the variance exactly, flags and the threshold, the drill-down's rows and pages, the
// CSV and the API; another location's or organization's data never shows; STAFF cannot read it;
// a page is one round trip after the session.
import { randomUUID } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { schema } from "../../app/db/client.server";
import { reconciliationDetail } from "../../app/reconciliation/detail.server";
import { addDays, todayIn } from "../../app/reconciliation/query";
import { reconciliationPage, reconciliationRows, type Scope, scopeOf } from "../../app/reconciliation/read.server";
import {
  RECONCILIATION_STANDS_FOR_MS,
  reconciliationAllRows,
  reconciliationView,
  workOutReconciliation,
} from "../../app/reconciliation/worked-out.server";
import { loader as screenLoader } from "../../app/routes/_app.reconciliation._index";
import { loader as detailLoader } from "../../app/routes/_app.reconciliation.$variationId";
import { loader as apiLoader } from "../../app/routes/api.reconciliation";
import { loader as csvLoader } from "../../app/routes/reconciliation[.csv]";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { ownVariation } from "../support/own-variation";
import { importedSales } from "../support/sales";
import { loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId = "";
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const users: Record<string, { actor: ScopedActor; cookie: string }> = {};
let toxin = { id: "", upp: 0 };
let serum = { id: "", upp: 0 };
let filler = { id: "", upp: 0 };
const svc = { glabella: "", forehead: "", lips: "" };

const actorAt = (name: string, locationId: string | null): ScopedActor => {
  const found = users[name];
  if (!found) throw new Error(`no ${name}`);
  return { ...found.actor, locationId };
};
/** The default period (the last 30 days, in the zone of the location: UTC for the demo's test setup as read). */
const scopeFor = (actor: ScopedActor, days = 30): Scope => {
  const zone = scopeOf(actor, { from: "2000-01-01", to: "2000-01-01" }).timeZone;
  const to = todayIn(zone, new Date());
  return scopeOf(actor, { from: addDays(to, 1 - days), to });
};
const rowOf = async (actor: ScopedActor, variationId: string, threshold = 10) =>
  (await reconciliationRows(t.db, scopeFor(actor), threshold)).find((r) => r.variationId === variationId);

async function service(name: string, recipe: [string, number][]) {
  const id = randomUUID();
  await t.db
    .insert(schema.services)
    .values({ id, organizationId, name, code: `R-${name.slice(0, 8)}-${id.slice(0, 4)}` });
  for (const [variationId, quantity] of recipe)
    await t.db.insert(schema.recipeLines).values({ serviceId: id, variationId, quantity });
  return id;
}

async function move(
  locationId: string,
  variationId: string,
  type: (typeof schema.stockMovements.$inferInsert)["type"],
  quantity: number,
  reason: string | null = null,
  occurredAt = ago(2),
  itemId: string | null = null,
) {
  await t.db
    .insert(schema.stockMovements)
    .values({ locationId, variationId, type, quantity, reason, occurredAt, itemId });
}

/** A draw as the vial verbs book it: the usage entry and its USE movement. */
async function draw(itemId: string, units: number, serviceId: string | null, provider: string | null, usedAt = ago(3)) {
  const [entry] = await t.db
    .insert(schema.usageEntries)
    .values({ itemId, locationId: loc.DTN, variationId: toxin.id, units, serviceId, provider, usedAt })
    .returning({ id: schema.usageEntries.id });
  await t.db.insert(schema.stockMovements).values({
    locationId: loc.DTN,
    variationId: toxin.id,
    itemId,
    type: "USE",
    quantity: -units,
    occurredAt: usedAt,
    referenceType: "usage",
    referenceId: entry?.id ?? null,
  });
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) {
    const { user, cookie } = await signedIn(t.db, name);
    users[name] = { actor: { ...user, locationId: null }, cookie };
  }
  toxin = await ownVariation(t.db, "serialized", "Reconciled Toxin");
  serum = await ownVariation(t.db, "bulk", "Reconciled Serum");
  filler = await ownVariation(t.db, "serialized", "Reconciled Filler");
  // 100 base units a package at $500: 500 cents a unit.
  for (const v of [toxin, serum, filler]) {
    await t.db
      .update(schema.productVariations)
      .set({ unitsPerPackage: 100, costCents: 50_000 })
      .where(eq(schema.productVariations.id, v.id));
    v.upp = 100;
  }
  svc.glabella = await service("Recon glabella", [[toxin.id, 20]]);
  svc.forehead = await service("Recon forehead", [[toxin.id, 10]]);
  svc.lips = await service("Recon lips", [[filler.id, 1]]);
  const glabella = { kind: "service", serviceId: svc.glabella, name: "Recon glabella" } as const;
  const forehead = { kind: "service", serviceId: svc.forehead, name: "Recon forehead" } as const;
  const lips = { kind: "service", serviceId: svc.lips, name: "Recon lips" } as const;
  const serumItem = { kind: "retail", variationId: serum.id, name: "Reconciled serum 30 mL" } as const;
  const owner = users.owner?.actor.id ?? "";
  await importedSales(t.db, {
    organizationId,
    createdBy: owner,
    lines: [
      // Downtown: 3 glabella less 1 refunded = 2 × 20; 2 forehead × 10: 60 units of toxin expected.
      { item: glabella, locationId: loc.DTN, soldAt: ago(5), quantity: 1, provider: "Dr. A" },
      { item: glabella, locationId: loc.DTN, soldAt: ago(4), quantity: 1, provider: "Dr. A" },
      { item: glabella, locationId: loc.DTN, soldAt: ago(4), quantity: 1, provider: "Dr. B" },
      { item: glabella, locationId: loc.DTN, soldAt: ago(3), quantity: -1, netCents: -10_000, provider: "Dr. B" },
      { item: forehead, locationId: loc.DTN, soldAt: ago(3), quantity: 2, provider: "Dr. B" },
      // 2 packages of serum sold: 200 units expected.
      { item: serumItem, locationId: loc.DTN, soldAt: ago(2), quantity: 2 },
      { item: { kind: "unmapped", name: "Recon gift card" }, locationId: loc.DTN, soldAt: ago(2), quantity: 1 },
      // Outside the period, and at Westside: never in Downtown's last 30 days.
      { item: glabella, locationId: loc.DTN, soldAt: ago(45), quantity: 7 },
      { item: glabella, locationId: loc.WST, soldAt: ago(4), quantity: 5 },
      // Lips at Downtown: 27 lines, one unit of filler each (the drill-down's pages).
      ...Array.from({ length: 27 }, (_, i) => ({
        item: lips,
        locationId: loc.DTN,
        soldAt: ago(1 + (i % 20)),
        quantity: 1,
      })),
    ],
  });
  const itemId = randomUUID();
  await t.db.insert(schema.items).values({
    id: itemId,
    locationId: loc.DTN,
    variationId: toxin.id,
    labelCode: `RECON-${itemId.slice(0, 8)}`,
    state: "empty",
    unitsRemaining: 0,
    startedAt: ago(8),
    expiresAt: ago(7),
    endedAt: ago(7),
    receivedAt: ago(10),
  });
  // Drawn: Dr. A 25 + 22 for glabella (recipe 2 × 20), Dr. B 10 for forehead (recipe 10), 5 with no service: 62.
  await draw(itemId, 25, svc.glabella, "Dr. A");
  await draw(itemId, 22, svc.glabella, "Dr. A");
  await draw(itemId, 10, svc.forehead, "Dr. B");
  await draw(itemId, 5, null, null);
  await move(loc.DTN, toxin.id, "RECEIVE", 500, null, ago(9));
  await move(loc.DTN, toxin.id, "WASTE", -8, "beyond_use_deadline");
  await move(loc.DTN, toxin.id, "WASTE", -3);
  await move(loc.DTN, toxin.id, "DISCARD", -4, "expired");
  await move(loc.DTN, toxin.id, "DISCARD", -6, "missing_in_count");
  await move(loc.DTN, toxin.id, "COUNT", -2);
  await move(loc.DTN, toxin.id, "COUNT", 1);
  await move(loc.DTN, toxin.id, "ADJUST", -5, "damaged");
  await move(loc.DTN, toxin.id, "ADJUST", -7, "count_correction");
  await move(loc.DTN, toxin.id, "ADJUST", 3, "count_correction");
  // Outside the period, at Westside: not Downtown's.
  await move(loc.DTN, toxin.id, "WASTE", -50, null, ago(40));
  await move(loc.WST, toxin.id, "USE", -100);
  // The serum's two packages left the shelf (booked by the import).
  await move(loc.DTN, serum.id, "SALE", -200);
  // Filler: 27 sold, 27 drawn (no usage entries needed for the sums): no variance.
  await move(loc.DTN, filler.id, "USE", -27);
  // Another organization's location, moving this variation: never in this organization's figures.
  const otherOrg = randomUUID();
  const otherLocation = randomUUID();
  await t.db
    .insert(schema.organizations)
    .values({ id: otherOrg, name: "Other chain" } as typeof schema.organizations.$inferInsert);
  await t.db.insert(schema.locations).values({
    id: otherLocation,
    organizationId: otherOrg,
    name: "Elsewhere",
    code: "ELS",
    timeZone: "UTC",
  } as typeof schema.locations.$inferInsert);
  await move(otherLocation, toxin.id, "USE", -1000);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("the figures", () => {
  it("expects services sold × recipes (refunds net out) and reads each movement type", async () => {
    const row = await rowOf(actorAt("admin", loc.DTN), toxin.id);
    expect(row?.sums).toEqual({
      expectedServices: 60,
      expectedRetail: 0,
      drawn: 62,
      wasted: 8 + 3 + 4 + 5,
      missing: 6,
      adjustedOut: 7,
      countedOut: 2,
      sold: 0,
      change: 500 - 62 - 20 - 6 - 2 + 1 - 7 + 3,
    });
    expect(row).toMatchObject({
      expected: 60,
      actual: 97,
      variance: { units: 37, percent: 61.7, cents: 37 * 500 },
      split: { recipeDrift: 2, waste: 20, unexplained: 15 },
      flagged: true,
    });
  });

  it("expects retail packages × their units, and a sale booked as sold has no variance", async () => {
    const row = await rowOf(actorAt("admin", loc.DTN), serum.id);
    expect(row).toMatchObject({
      expected: 200,
      actual: 200,
      variance: { units: 0, percent: 0, cents: 0 },
      flagged: false,
    });
    expect(row?.split).toEqual({ recipeDrift: 0, waste: 0, unexplained: 0 });
  });

  it("splits every row's variance exactly into drift, waste and unexplained loss", async () => {
    for (const actor of [actorAt("admin", loc.DTN), actorAt("owner", "all"), actorAt("manager", loc.WST)]) {
      const rows = await reconciliationRows(t.db, scopeFor(actor, 365), 10);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.split.recipeDrift + r.split.waste + r.split.unexplained).toBe(r.variance.units);
        expect(r.actual - r.expected).toBe(r.variance.units);
      }
    }
  });

  it("flags past the threshold, flagged rows first", async () => {
    const admin = actorAt("admin", loc.DTN);
    expect((await rowOf(admin, toxin.id, 61))?.flagged).toBe(true);
    expect((await rowOf(admin, toxin.id, 62))?.flagged).toBe(false);
    const rows = await reconciliationRows(t.db, scopeFor(admin), 10);
    const firstUnflagged = rows.findIndex((r) => !r.flagged);
    expect(firstUnflagged).toBeGreaterThan(0);
    expect(rows.slice(firstUnflagged).every((r) => !r.flagged)).toBe(true);
    const page = await reconciliationPage(t.db, scopeFor(admin), 10, 1);
    expect(page.flagged).toBe(rows.filter((r) => r.flagged).length);
    expect(page.total).toBe(rows.length);
    expect(page.rows.map((r) => r.variationId)).toEqual(rows.slice(0, 25).map((r) => r.variationId));
  });

  it("shows only the location's figures, or the organization's in organization mode", async () => {
    // Westside's manager: the Westside glabella (5 × 20) and draw (100), none of Downtown's.
    const west = await rowOf(actorAt("manager", loc.WST), toxin.id);
    expect(west).toMatchObject({ expected: 100, actual: 100, variance: { units: 0 } });
    // The organization: both locations, never the other organization's 1,000 units.
    const all = await rowOf(actorAt("owner", "all"), toxin.id);
    expect(all).toMatchObject({ expected: 160, actual: 197 });
    // Organization mode narrowed to one location.
    const owner = actorAt("owner", "all");
    const narrowed = (await reconciliationRows(t.db, scopeOf(owner, scopeFor(owner).period, loc.WST), 10)).find(
      (r) => r.variationId === toxin.id,
    );
    expect(narrowed).toMatchObject({ expected: 100, actual: 100 });
    // A location that is not the organization's, named in organization mode: nothing.
    expect(await reconciliationRows(t.db, scopeOf(owner, scopeFor(owner).period, randomUUID()), 10)).toEqual([]);
    // A location not theirs to name (the manager is not in organization mode): their own, as before.
    const other = scopeOf(actorAt("manager", loc.DTN), scopeFor(actorAt("manager", loc.WST)).period);
    expect(await reconciliationRows(t.db, other, 10)).toEqual([]);
  });
});

describe("the drill-down", () => {
  it("lists the sales lines, the drift by provider and the waste by reason behind the figures", async () => {
    const admin = actorAt("admin", loc.DTN);
    const detail = await reconciliationDetail(t.db, admin, scopeFor(admin), {
      variationId: toxin.id,
      threshold: 10,
      page: 1,
      mpage: 1,
      kind: "all",
    });
    expect(detail?.row.variance.units).toBe(37);
    expect(detail?.sales.total).toBe(5);
    expect(detail?.sales.rows.map((s) => s.units).sort((a, b) => a - b)).toEqual([-20, 20, 20, 20, 20]);
    expect(detail?.providers).toEqual([
      { provider: "Dr. A", entries: 2, drawn: 47, recipe: 40, drift: 7 },
      { provider: "Dr. B", entries: 1, drawn: 10, recipe: 10, drift: 0 },
    ]);
    // Drift no draw for a service explains: 2 − 7.
    expect(detail?.driftElsewhere).toBe(-5);
    expect(detail?.parts.filter((p) => p.part === "waste").reduce((s, p) => s + p.units, 0)).toBe(20);
    expect(detail?.parts.filter((p) => p.part === "unexplained").reduce((s, p) => s + p.units, 0)).toBe(15);
    expect(detail?.movements.total).toBe(14);
    for (const [kind, total] of [
      ["drawn", 4],
      ["waste", 4],
      ["loss", 3],
      ["sale", 0],
    ] as const) {
      const only = await reconciliationDetail(t.db, admin, scopeFor(admin), {
        variationId: toxin.id,
        threshold: 10,
        page: 1,
        mpage: 1,
        kind,
      });
      expect([kind, only?.movements.total]).toEqual([kind, total]);
    }
  });

  it("pages the sales lines 25 at a time, and answers null for another organization's variation", async () => {
    const admin = actorAt("admin", loc.DTN);
    const ask = (page: number) =>
      reconciliationDetail(t.db, admin, scopeFor(admin), {
        variationId: filler.id,
        threshold: 10,
        page,
        mpage: 1,
        kind: "all",
      });
    const [first, second] = [await ask(1), await ask(2)];
    expect(first?.sales).toMatchObject({ total: 27, pages: 2 });
    expect(first?.sales.rows).toHaveLength(25);
    expect(second?.sales.rows).toHaveLength(2);
    const ids = new Set([...(first?.sales.rows ?? []), ...(second?.sales.rows ?? [])].map((s) => s.id));
    expect(ids.size).toBe(27);
    expect(
      await reconciliationDetail(t.db, admin, scopeFor(admin), {
        variationId: randomUUID(),
        threshold: 10,
        page: 1,
        mpage: 1,
        kind: "all",
      }),
    ).toBeNull();
  });
});

describe("the screens and the API", () => {
  const args = (path: string, cookie: string, params: Record<string, string> = {}) =>
    ({ request: pageRequest(path, cookie), context: loadContext(t.db), params }) as unknown as LoaderFunctionArgs;

  it("reads a page in one round trip after the session, flagged first, linking each figure", async () => {
    const cookie = await withLocationChoice(users.admin?.cookie ?? "", loc.DTN);
    // Before the jobs worker has worked the view out: summed live, after a look for the worked-out rows.
    t.resetRoundTrips();
    const summed = await outcome(() => screenLoader(args("/reconciliation", cookie)));
    expect(t.roundTrips()).toBe(3);
    await workOutReconciliation(t.db, new Date());
    t.resetRoundTrips();
    const page = await outcome(() => screenLoader(args("/reconciliation", cookie)));
    expect(page.status).toBe(200);
    // The session (one) and the page's batch (one).
    expect(t.roundTrips()).toBe(2);
    expect((page.data as { rows: unknown[] }).rows).toEqual((summed.data as { rows: unknown[] }).rows);
    expect((page.data as { asOf: unknown }).asOf).not.toBeNull();
    const data = page.data as Awaited<ReturnType<typeof screenLoader>>;
    const toxinRow = data.rows.find((r) => r.variationId === toxin.id);
    expect(toxinRow).toMatchObject({ variance: "+37 U", percent: "+61.7%", cents: "+$185.00", flagged: true });
    expect(toxinRow?.detail).toMatch(new RegExp(`^/reconciliation/${toxin.id}\\?from=`));
    expect(data.rows[0]?.flagged).toBe(true);
  });

  it("refuses a period backwards or over a year, and a bad date, saying which", async () => {
    const cookie = await withLocationChoice(users.admin?.cookie ?? "", loc.DTN);
    const backwards = (await outcome(() => screenLoader(args("/reconciliation?from=2026-05-02&to=2026-05-01", cookie))))
      .data as Awaited<ReturnType<typeof screenLoader>>;
    expect(backwards.problems.from).toMatch(/ends before it starts/);
    expect(backwards.rows).toEqual([]);
    const api = await outcome(() => apiLoader(args("/api/reconciliation?from=2025-01-01&to=2026-06-01", cookie)));
    expect(api.status).toBe(400);
    expect(await api.response?.json()).toMatchObject({ code: "invalid_filter" });
    const bad = await outcome(() => apiLoader(args("/api/reconciliation?from=soon", cookie)));
    expect(bad.status).toBe(400);
  });

  it("answers the API in the product's unit, at the location asked for", async () => {
    const cookie = users.owner?.cookie ?? "";
    const answered = await outcome(() => apiLoader(args(`/api/reconciliation?locationId=${loc.DTN}`, cookie)));
    expect(answered.status).toBe(200);
    const body = (await answered.response?.json()) as { items: Record<string, unknown>[]; from: string; to: string };
    const item = body.items.find((i) => i.variationId === toxin.id);
    expect(item).toMatchObject({
      product: "Reconciled Toxin",
      expected: 60,
      actual: 97,
      variance: { units: 37, percent: 61.7, cents: 18_500 },
      split: { recipeDrift: 2, waste: 20, unexplained: 15 },
      flagged: true,
    });

    // Paged as the API's lists are: every row once across the pages, in the screen's order.
    const pageOf = async (page: number) => {
      const paged = await outcome(() =>
        apiLoader(args(`/api/reconciliation?locationId=${loc.DTN}&pageSize=2&page=${page}`, cookie)),
      );
      return (await paged.response?.json()) as {
        items: { variationId: string }[];
        page: number;
        pageSize: number;
        total: number;
      };
    };
    const first = await pageOf(1);
    expect(body.items.length).toBeGreaterThan(2);
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: body.items.length });
    const walked: { variationId: string }[] = [];
    for (let page = 1; page <= Math.ceil(first.total / 2); page++) walked.push(...(await pageOf(page)).items);
    expect(walked.map((i) => i.variationId)).toEqual(body.items.map((i) => i.variationId));
  });

  it("downloads the table as CSV, and opens the drill-down", async () => {
    const cookie = await withLocationChoice(users.admin?.cookie ?? "", loc.DTN);
    const csv = await outcome(() => csvLoader(args("/reconciliation.csv", cookie)));
    expect(csv.status).toBe(200);
    const text = await csv.response?.text();
    expect(text).toContain("Product,Variation,Unit,Expected,Actual");
    expect(text).toContain("Reconciled Toxin,");
    expect(text).toMatch(/Reconciled Toxin,[^\r\n]*,60,97,[^\r\n]*,37,61\.7,185\.00,2,20,15,yes/);
    // The page's own address for it: ?format=csv goes to the file of the same question.
    const asked = await outcome(() => screenLoader(args("/reconciliation?format=csv&threshold=25", cookie)));
    expect(asked.status).toBe(302);
    expect(asked.location).toMatch(/^\/reconciliation\.csv\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&threshold=25$/);
    const detail = await outcome(() =>
      detailLoader(args(`/reconciliation/${toxin.id}`, cookie, { variationId: toxin.id })),
    );
    expect(detail.status).toBe(200);
    const missing = await outcome(() =>
      detailLoader(args(`/reconciliation/${randomUUID()}`, cookie, { variationId: randomUUID() })),
    );
    expect(missing.status).toBe(404);
  });

  it("is not for STAFF: the page, the CSV, the drill-down and the API answer 403", async () => {
    const cookie = await withLocationChoice(users.staff?.cookie ?? "", loc.DTN);
    for (const work of [
      () => screenLoader(args("/reconciliation", cookie)),
      () => csvLoader(args("/reconciliation.csv", cookie)),
      () => detailLoader(args(`/reconciliation/${toxin.id}`, cookie, { variationId: toxin.id })),
      () => apiLoader(args("/api/reconciliation", cookie)),
    ]) {
      expect((await outcome(work)).status).toBe(403);
    }
  });
});

describe("the views the jobs worker works out", () => {
  it("answers the standard views from the worked-out rows, exactly as summed live, in one batch", async () => {
    const now = new Date();
    expect(await workOutReconciliation(t.db, now)).toMatch(/^(\d+) of \1 due worked out$/);
    // Nothing is due again until the refresh.
    expect(await workOutReconciliation(t.db, now)).toBe("0 of 0 due worked out");
    for (const [actor, days] of [
      [actorAt("admin", loc.DTN), 30],
      [actorAt("admin", loc.DTN), 365],
      [actorAt("owner", "all"), 30],
      [actorAt("manager", loc.WST), 365],
    ] as const) {
      const scope = scopeFor(actor, days);
      const live = await reconciliationRows(t.db, scope, 10);
      t.resetRoundTrips();
      const view = await reconciliationView(t.db, scope, 10, 1, now);
      expect(t.roundTrips()).toBe(1);
      // Worked out by the screen test's run or this one, never summed now.
      expect(view.computedAt).not.toBeNull();
      expect(view.computedAt ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(now.getTime());
      expect(view.total).toBe(live.length);
      expect(view.flagged).toBe(live.filter((r) => r.flagged).length);
      expect(view.rows).toEqual(live.slice(0, 25));
      const all = await reconciliationAllRows(t.db, scope, 10, now);
      expect(all.rows).toEqual(live);
    }
    // Page 2 of the organization's view is ranks 26–50.
    const owner = scopeFor(actorAt("owner", "all"));
    const second = await reconciliationView(t.db, owner, 10, 2, now);
    expect(second.rows).toEqual((await reconciliationRows(t.db, owner, 10)).slice(25, 50));
  });

  it("sums live when the rows are old, another threshold or other dates are asked", async () => {
    const admin = actorAt("admin", loc.DTN);
    const later = new Date(Date.now() + RECONCILIATION_STANDS_FOR_MS + 60_000);
    expect((await reconciliationView(t.db, scopeFor(admin), 10, 1, later)).computedAt).toBeNull();
    expect((await reconciliationView(t.db, scopeFor(admin), 25, 1)).computedAt).toBeNull();
    expect((await reconciliationView(t.db, scopeFor(admin, 29), 10, 1)).computedAt).toBeNull();
    // And the live answer of another threshold still flags by it.
    expect(
      (await reconciliationView(t.db, scopeFor(admin), 62, 1)).rows.find((r) => r.variationId === toxin.id)?.flagged,
    ).toBe(false);
  });

  it("stops standing once an import completes or a service's recipe changes, and is worked out again next run", async () => {
    const admin = actorAt("admin", loc.DTN);
    const worked = new Date();
    await workOutReconciliation(t.db, worked);
    expect((await reconciliationView(t.db, scopeFor(admin), 10, 1, worked)).computedAt).not.toBeNull();

    // Two glabella treatments imported a moment after the rows were worked out.
    const before = (await rowOf(admin, toxin.id))?.expected ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await importedSales(t.db, {
      organizationId,
      createdBy: admin.id,
      lines: [
        {
          item: { kind: "service", serviceId: svc.glabella, name: "Glabella" },
          locationId: loc.DTN,
          soldAt: ago(1),
          quantity: 2,
        },
      ],
    });
    const now = new Date();
    const view = await reconciliationView(t.db, scopeFor(admin), 10, 1, now);
    expect(view.computedAt).toBeNull();
    expect(view.rows.find((r) => r.variationId === toxin.id)?.expected).toBeGreaterThan(before);
    // The next run works the views out again, and they stand with the import in them.
    expect(await workOutReconciliation(t.db, now)).not.toBe("0 of 0 due worked out");
    const again = await reconciliationView(t.db, scopeFor(admin), 10, 1, now);
    expect(again.computedAt).not.toBeNull();
    expect(again.rows).toEqual(view.rows);

    // A recipe edited later makes them stand down again.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.db.run(sql`UPDATE services SET updated_at = ${Date.now()} WHERE id = ${svc.forehead}`);
    expect((await reconciliationView(t.db, scopeFor(admin), 10, 1)).computedAt).toBeNull();
  });
});

describe("the migration", () => {
  it("sums a location's period from the covering indexes", async () => {
    const plan = await t.db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT sale_item_id, sum(quantity)
      FROM sales_lines INDEXED BY sales_lines_reconciliation_idx WHERE location_id = ${loc.DTN} AND sold_at >= 0 GROUP BY 1`);
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/COVERING INDEX sales_lines_reconciliation_idx/);
  });
});
