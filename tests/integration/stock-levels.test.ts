// Stock levels against a real database: the status of a level against its par level, packages
// and remainders in integers, the nearest expiry of sealed items only, rows where stock moved or a
// par level is set, the scope (locations asked for, inside the caller's organization), filters
// and pages; the /stock-levels screen in one batch beyond the session.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../app/access/actor";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import { commitSessionCookie, getSessionUser, type SessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { loader as screenLoader } from "../../app/routes/_app.stock-levels";
import { newLabelCode } from "../../app/stock/label-code";
import { recordMovements } from "../../app/stock/ledger.server";
import { formatOnHand, packagesOf } from "../../app/stock/level-status";
import {
  LEVEL_FILTER_MESSAGES,
  readStockLevelQuery,
  readStockLevels,
  StockLevelQuery,
} from "../../app/stock/levels.server";
import { formatDate } from "../../app/ui/dates";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
const RUN = uuidv7().slice(-6).toUpperCase();
const PROBE = `Levels probe ${RUN}`;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
const sessions = new Map<string, { user: SessionUser; cookie: string }>();
const variation: Record<string, string> = {};
let probeProductId = "";

const DAY_MS = 24 * 60 * 60 * 1000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const query = (fields: Record<string, string> = {}) => StockLevelQuery.parse(fields);
const user = (email: string): SessionUser => {
  const session = sessions.get(email);
  if (!session) throw new Error(`no session for ${email}`);
  return session.user;
};

/** Base units onto a level through the ledger (the probe products are serialized, which adjustStock refuses). */
async function addStock(locationId: string, variationId: string, quantity: number) {
  const userId = user("owner").id;
  await t.db.batch(
    recordMovements(t.db, [{ locationId, variationId, quantity, type: "ADJUST", reason: "count_correction", userId }]),
  );
}

/** A product of our own with named variations (100 base units, 1 mL at scale 100, each). */
async function newProduct(name: string, names: string[], options: { active?: boolean } = {}) {
  const productId = uuidv7();
  for (const n of names) variation[n] = uuidv7();
  await t.db.batch([
    t.db.insert(schema.products).values({
      id: productId,
      organizationId,
      name,
      category: `Probe ${RUN}`,
      tracking: "serialized",
      baseUnit: "mL",
      unitScale: 100,
      active: options.active ?? true,
    }),
    t.db
      .insert(schema.productVariations)
      .values(names.map((n) => ({ id: variation[n] as string, productId, name: n, unitsPerPackage: 100 }))),
  ]);
  return productId;
}

async function setPar(code: keyof typeof loc, name: string, par: number, reorderPoint: number) {
  await t.db.insert(schema.parLevels).values({
    locationId: loc[code],
    variationId: variation[name] as string,
    par,
    reorderPoint,
    updatedAt: new Date(),
  });
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  for (const email of ["owner", "staff", "manager", "newhire"]) {
    const result = await signIn(t.db, { email: `${email}@demo.clinic`, password: DEMO_PASSWORD, userAgent: "vitest" });
    if (!result.ok) throw new Error(result.message);
    const cookie =
      (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0] ?? "";
    const found = await getSessionUser(env, t.db, new Request("http://clinic.test/", { headers: { Cookie: cookie } }));
    if (!found) throw new Error("signed out");
    sessions.set(email, { user: found, cookie });
  }

  // Par 4 packages, reorder at 2 (packages of 100 base units) at Downtown, unless said otherwise.
  probeProductId = await newProduct(PROBE, ["A none", "B at reorder", "C under par", "D at par", "E no par", "F zero"]);
  for (const name of ["A none", "B at reorder", "C under par", "D at par"]) await setPar("DTN", name, 4, 2);
  await setPar("DTN", "F zero", 0, 0);
  await addStock(loc.DTN, variation["B at reorder"] as string, 200);
  await addStock(loc.DTN, variation["C under par"] as string, 250);
  await addStock(loc.DTN, variation["D at par"] as string, 400);
  await addStock(loc.DTN, variation["E no par"] as string, 30);
  await setPar("WST", "D at par", 1, 0);
  await addStock(loc.WST, variation["D at par"] as string, 100);
});
afterAll(() => t.close());

const probeRows = async (actor: Actor, locationIds: string[], fields: Record<string, string> = {}) =>
  (await readStockLevels(t.db, actor, locationIds, query({ q: PROBE, ...fields }))).items;

describe("readStockLevels", () => {
  it("judges each level against its par level: reorder at or under the reorder point, below par, ok, no par", async () => {
    t.resetRoundTrips();
    const rows = await probeRows(user("staff"), [loc.DTN]);
    expect(t.roundTrips()).toBe(1);
    expect(
      rows.map((r) => [
        r.variationName,
        r.onHand,
        r.packages,
        r.parLevel && [r.parLevel.par, r.parLevel.reorderPoint],
        r.status,
      ]),
    ).toEqual([
      ["A none", 0, { whole: 0, remainder: 0 }, [4, 2], "below_reorder"],
      ["B at reorder", 200, { whole: 2, remainder: 0 }, [4, 2], "below_reorder"],
      ["C under par", 250, { whole: 2, remainder: 50 }, [4, 2], "below_par"],
      ["D at par", 400, { whole: 4, remainder: 0 }, [4, 2], "ok"],
      ["E no par", 30, { whole: 0, remainder: 30 }, null, "no_par"],
      ["F zero", 0, { whole: 0, remainder: 0 }, [0, 0], "ok"],
    ]);
    expect(rows[2]).toMatchObject({
      locationId: loc.DTN,
      location: { name: "Downtown", code: "DTN" },
      productId: probeProductId,
      productName: PROBE,
      category: `Probe ${RUN}`,
      variationId: variation["C under par"],
      baseUnit: "mL",
      unitScale: 100,
      unitsPerPackage: 100,
      parLevel: { par: 4, reorderPoint: 2, max: null },
      nearestExpiry: null,
      updatedAt: expect.any(Date),
    });
    // Nothing received yet: no level row behind it, so no time it last moved.
    expect(rows[0]?.updatedAt).toBeNull();
    expect(formatOnHand(250, 100, "mL")).toBe("2.5 mL"); // one format per unit, whatever the scale
    expect(formatOnHand(350, 1, "U")).toBe("350 U");
    expect(packagesOf(250, 100)).toEqual({ whole: 2, remainder: 50 });
  });

  it("filters by status with the same rule, and by category and name", async () => {
    const names = async (fields: Record<string, string>) =>
      (await probeRows(user("staff"), [loc.DTN], fields)).map((r) => r.variationName);
    expect(await names({ status: "below_reorder" })).toEqual(["A none", "B at reorder"]);
    expect(await names({ status: "below_par" })).toEqual(["C under par"]);
    expect(await names({ status: "ok" })).toEqual(["D at par", "F zero"]);
    expect(await names({ status: "no_par" })).toEqual(["E no par"]);
    // An unknown status is said, not dropped as if no status had been asked for (issue 18.10).
    expect(readStockLevelQuery(new URLSearchParams({ status: "nonsense" })).problems).toEqual({
      status: LEVEL_FILTER_MESSAGES.status,
    });
    expect(await names({ q: "under PAR" })).toEqual(["C under par"]);
    const byCategory = await readStockLevels(t.db, user("staff"), [loc.DTN], query({ category: `Probe ${RUN}` }));
    expect(byCategory.total).toBe(6);
  });

  it("pages the rows by cursor, ordered by product, variation and location, with the total of all pages", async () => {
    const owner = user("owner");
    const read = (fields: Record<string, string>) =>
      readStockLevels(t.db, owner, [loc.DTN, loc.WST], query({ q: PROBE, pageSize: "2", ...fields }));
    const one = await read({});
    expect(one).toMatchObject({ pageSize: 2, total: 7, totalExact: true, previous: null });
    const two = await read({ after: one.next ?? "" });
    expect(two).toMatchObject({ pageSize: 2, total: 7 });
    expect(two.items.map((r) => [r.variationName, r.location.code])).toEqual([
      ["C under par", "DTN"],
      ["D at par", "DTN"],
    ]);
    const three = await read({ after: two.next ?? "" });
    expect(three.items.map((r) => [r.variationName, r.location.code])).toEqual([
      ["D at par", "WST"],
      ["E no par", "DTN"],
    ]);
    // Back from the third page: the second, then the first, which has no Previous.
    const back = await read({ before: three.previous ?? "" });
    expect(back.items).toEqual(two.items);
    expect((await read({ before: back.previous ?? "" })).items).toEqual(one.items);
    expect(query({ pageSize: "500" }).pageSize).toBe(25);
  });

  it("walks every page forward and back, each level once, ties on names broken by ids", async () => {
    const owner = user("owner");
    for (const pageSize of [1, 3]) {
      const read = (fields: Record<string, string>) =>
        readStockLevels(t.db, owner, [loc.DTN, loc.WST], query({ q: PROBE, pageSize: String(pageSize), ...fields }));
      const pages = [await read({})];
      while (pages.at(-1)?.next && pages.length < 20) pages.push(await read({ after: pages.at(-1)?.next ?? "" }));
      const walked = pages.flatMap((p) => p.items.map((r) => `${r.variationId}@${r.locationId}`));
      expect(walked).toHaveLength(7);
      expect(new Set(walked).size).toBe(7);
      const all = await read({ pageSize: "100" });
      expect(walked).toEqual(all.items.map((r) => `${r.variationId}@${r.locationId}`));
      const back = [pages.at(-1)];
      while (back[0]?.previous && back.length < 20) back.unshift(await read({ before: back[0]?.previous ?? "" }));
      expect(back.map((p) => p?.items)).toEqual(pages.map((p) => p.items));
    }
  });

  it("reads only the locations asked for, and only inside the caller's organization", async () => {
    expect((await probeRows(user("manager"), [loc.WST])).map((r) => [r.variationName, r.status])).toEqual([
      ["D at par", "ok"],
    ]);
    expect(await probeRows(user("owner"), [])).toEqual([]);
    expect(await probeRows(user("owner"), [loc.NTH])).toEqual([]);

    const otherOrganization = uuidv7();
    const stranger = { id: uuidv7(), organizationRole: "ORGANIZATION_ADMIN" as const, locationRoles: [] };
    await t.db.batch([
      t.db.insert(schema.organizations).values({ id: otherOrganization, name: "Other Clinics" }),
      t.db.insert(schema.users).values({
        id: stranger.id,
        organizationId: otherOrganization,
        email: `stranger-${RUN.toLowerCase()}@other.clinic`,
        firstName: "Sly",
        lastName: "Stranger",
        passwordHash: "x",
        organizationRole: "ORGANIZATION_ADMIN",
      }),
    ]);
    expect(await probeRows(stranger, [loc.DTN, loc.WST])).toEqual([]);
    expect((await readStockLevels(t.db, stranger, [loc.DTN], query())).total).toBe(0);
  });

  it("keeps an archived product while it has stock, and drops its empty rows", async () => {
    const name = `Archived probe ${RUN}`;
    await newProduct(name, ["G empty", "H stocked"]);
    await setPar("DTN", "G empty", 2, 1);
    await setPar("DTN", "H stocked", 2, 1);
    await addStock(loc.DTN, variation["H stocked"] as string, 10);
    await t.db.update(schema.products).set({ active: false }).where(eq(schema.products.name, name));
    const rows = await probeRows(user("staff"), [loc.DTN], { q: `archived probe ${RUN}` });
    expect(rows.map((r) => [r.variationName, r.onHand])).toEqual([["H stocked", 10]]);
  });

  it("shows the nearest expiration date of the sealed items only", async () => {
    const variationId = variation["D at par"] as string;
    const item = (state: "sealed" | "in_use" | "empty", days: number) => ({
      locationId: loc.DTN,
      variationId,
      labelCode: newLabelCode(),
      lot: `L-${days}`,
      expirationDate: dateIn(days),
      state,
      unitsRemaining: state === "empty" ? 0 : 100,
      receivedAt: new Date(),
      // An in-use vial always has its use-by deadline (one without counts as expired).
      ...(state === "in_use" ? { startedAt: new Date(), expiresAt: new Date(Date.now() + DAY_MS) } : {}),
      // An emptied vial has the time it ended (items_ended).
      ...(state === "empty" ? { endedAt: new Date() } : {}),
    });
    await t.db
      .insert(schema.items)
      .values([
        item("sealed", 200),
        item("sealed", 90),
        item("in_use", 5),
        item("empty", 1),
        { ...item("sealed", 0), locationId: loc.WST },
      ]);
    const rows = await probeRows(user("owner"), [loc.DTN, loc.WST], { q: "D at par" });
    expect(rows.map((r) => [r.location.code, r.nearestExpiry])).toEqual([
      ["DTN", dateIn(90)],
      ["WST", dateIn(0)],
    ]);
  });

  it("counts vials past their deadline apart from usable stock, and judges the status on usable stock", async () => {
    const name = `Expiry probe ${RUN}`;
    await newProduct(name, ["X vials"]);
    const variationId = variation["X vials"] as string;
    await t.db.insert(schema.parLevels).values({
      locationId: loc.DTN,
      variationId,
      par: 2,
      reorderPoint: 1,
      updatedAt: new Date(),
    });
    await addStock(loc.DTN, variationId, 400);
    const vial = (fields: Partial<typeof schema.items.$inferInsert>) => ({
      locationId: loc.DTN,
      variationId,
      labelCode: newLabelCode(),
      lot: "EXP-1",
      expirationDate: dateIn(100),
      state: "sealed" as const,
      unitsRemaining: 100,
      receivedAt: new Date(Date.now() - 30 * DAY_MS),
      ...fields,
    });
    const level = async () => {
      const [row] = await probeRows(user("staff"), [loc.DTN], { q: name });
      return row && { onHand: row.onHand, expired: row.expired, usable: row.usable, status: row.status };
    };
    const vials = [vial({}), vial({}), vial({ expirationDate: dateIn(0) }), vial({})];
    await t.db.insert(schema.items).values(vials);
    expect(await level()).toEqual({ onHand: 400, expired: 0, usable: 400, status: "ok" });

    // The same four become: a lot that expired yesterday, a vial without an expiry date, an in-use
    // vial past its use-by deadline (items are never deleted, so they are changed in place).
    const later: Partial<typeof schema.items.$inferInsert>[] = [
      { expirationDate: dateIn(-1) },
      { expirationDate: null },
      {
        expirationDate: dateIn(100),
        state: "in_use",
        unitsRemaining: 60,
        startedAt: new Date(Date.now() - DAY_MS),
        expiresAt: new Date(Date.now() - 1000),
      },
      { expirationDate: dateIn(3) },
    ];
    for (const [n, fields] of later.entries()) {
      await t.db
        .update(schema.items)
        .set(fields)
        .where(eq(schema.items.labelCode, vials[n]?.labelCode ?? ""));
    }
    // The ledger still holds all 400 base units; 260 of them are expired, so the shelf is below par
    // (it read "OK" while expired vials counted).
    expect(await level()).toEqual({ onHand: 400, expired: 260, usable: 140, status: "below_par" });
    const [row] = await probeRows(user("staff"), [loc.DTN], { q: name });
    expect(row?.nearestExpiry).toBe(dateIn(3));
    expect(row?.packages).toEqual({ whole: 1, remainder: 40 });
    // The status filter judges the same way.
    expect((await probeRows(user("staff"), [loc.DTN], { q: name, status: "below_par" })).length).toBe(1);
    expect(await probeRows(user("staff"), [loc.DTN], { q: name, status: "ok" })).toEqual([]);
  });

  it("reads the demo stock: toxins below their reorder points where none came in, nearest expiries of the seeded lots", async () => {
    const owner = user("owner");
    const at = async (code: keyof typeof loc, q: string) =>
      (await readStockLevels(t.db, owner, [loc[code]], query({ q }))).items.map((r) => ({
        variation: r.variationName,
        onHand: r.onHand,
        status: r.status,
        nearestExpiry: r.nearestExpiry,
      }));
    // The open receipt at Downtown has not come in: Xeomin sits at zero, below its reorder point.
    expect(await at("DTN", "Xeomin")).toEqual([
      { variation: "100 U vial", onHand: 0, status: "below_reorder", nearestExpiry: null },
    ]);
    expect(await at("NTH", "Botox")).toEqual([
      { variation: "100 U vial", onHand: 0, status: "below_reorder", nearestExpiry: null },
      { variation: "50 U vial", onHand: 0, status: "below_reorder", nearestExpiry: null },
    ]);
    expect(await at("DTN", "Botox")).toEqual([
      { variation: "100 U vial", onHand: 600, status: "below_par", nearestExpiry: dateIn(210) },
      { variation: "50 U vial", onHand: 100, status: "below_reorder", nearestExpiry: dateIn(21) },
    ]);
    // Its only lot at Downtown expired four days ago: on hand in the ledger, none of it usable.
    expect(await at("DTN", "Kysse")).toEqual([
      { variation: "1 mL syringe", onHand: 300, status: "below_reorder", nearestExpiry: null },
    ]);
    expect((await readStockLevels(t.db, owner, [loc.DTN], query({ q: "Kysse" }))).items[0]).toMatchObject({
      expired: 300,
      usable: 0,
    });
  });
});

describe("the /stock-levels screen", () => {
  async function load(email: string, path: string, choice?: { code?: keyof typeof loc; organization?: boolean }) {
    const cookies = [sessions.get(email)?.cookie ?? ""];
    if (choice) {
      const saved = await saveLocationChoice({
        selectedLocationId: choice.code ? loc[choice.code] : null,
        isOrganizationMode: Boolean(choice.organization),
      });
      cookies.push(saved.split(";")[0] ?? "");
    }
    const request = new Request(`http://clinic.test${path}`, { headers: { Cookie: cookies.join("; ") } });
    const context = { env, db: t.db, ctx: {} } as unknown as AppLoadContext;
    return screenLoader({ request, context, params: {} });
  }

  it("reads a page in one batch beyond the session, with the on-hand text, badges and the location in scope", async () => {
    t.resetRoundTrips();
    const page = await load("staff", `/stock-levels?q=${encodeURIComponent(PROBE)}`);
    expect(t.roundTrips()).toBe(2);
    expect(page).toMatchObject({
      where: "Downtown",
      organizationMode: false,
      total: 6,
      totalExact: true,
      cursors: { next: null, previous: null },
    });
    expect(page.categories).toContain(`Probe ${RUN}`);
    expect(page.rows.find((r) => r.variationName === "C under par")).toMatchObject({
      usable: "2.5 mL",
      expired: null,
      packages: 2,
      remainder: "0.5 mL",
      status: "below_par",
      productId: probeProductId,
    });
    const kysse = await load("staff", "/stock-levels?q=Kysse");
    // The expired lot is shown apart, not as usable stock and not as the nearest expiry.
    expect(kysse.rows.map((r) => [r.usable, r.expired, r.nearestExpiry, r.expiry])).toEqual([
      ["0 mL", "3 mL", null, null],
    ]);
    const botox = await load("staff", "/stock-levels?q=Botox");
    expect(botox.rows.map((r) => [r.variationName, r.usable, r.expired, r.expiry])).toEqual([
      ["100 U vial", "600 U", null, "later"],
      ["50 U vial", "100 U", null, "soon"],
    ]);
    const lyft = await load("staff", "/stock-levels?q=Lyft");
    expect(lyft.rows.map((r) => r.nearestExpiry)).toEqual([formatDate(dateIn(26))]);
    // Its days left in words beside it, as the inventory's badges say them (ADR 0019): counted from
    // today at Downtown (New York), which is not the UTC day the lot's date was set from in the
    // evening there, so the count is worked out here rather than assumed.
    const todayAtDowntown = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const daysLeft = Math.round((Date.parse(dateIn(26)) - Date.parse(todayAtDowntown)) / DAY_MS);
    expect(lyft.rows.map((r) => r.left)).toEqual([`${daysLeft} days left`]);
  });

  it("shows every location to an organization admin in organization mode, one location otherwise", async () => {
    const all = await load("owner", `/stock-levels?q=${encodeURIComponent(PROBE)}&status=ok`, { organization: true });
    expect(all.organizationMode).toBe(true);
    expect(all.where).toBeNull();
    expect(all.rows.map((r) => [r.variationName, r.location.code])).toEqual([
      ["D at par", "DTN"],
      ["D at par", "WST"],
      ["F zero", "DTN"],
    ]);
    const westside = await load("owner", `/stock-levels?q=${encodeURIComponent(PROBE)}`, { code: "WST" });
    expect(westside).toMatchObject({ organizationMode: false, where: "Westside", total: 1 });
    // A manager who chose a location that is not theirs works at their own.
    const manager = await load("manager", `/stock-levels?q=${encodeURIComponent(PROBE)}`, { code: "DTN" });
    expect(manager).toMatchObject({ where: "Westside", total: 1 });
  });

  it("refuses a user without READ_INVENTORY anywhere with a 403", async () => {
    const refused = await load("newhire", "/stock-levels").then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
  });
});
