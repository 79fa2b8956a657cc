// The stock API inside workerd (spec section 7): /api/vials and /api/stock-levels over the demo
// stock, as every demo user, signed out, naming a location that is not theirs, and in
// organization mode; their filters, pages and the shape of one item.
import { beforeAll, describe, expect, it } from "vitest";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import { can } from "../../app/access/permissions";
import { LABEL_CODE_PATTERN } from "../../app/stock/label-code";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, get, type MyLocation, signInAs } from "./support";

/** A keyset page (ADR 0018): cursors to the next and previous pages, a count capped at 1,000. */
interface CursorPage<T> {
  items: T[];
  pageSize: number;
  total: number;
  totalExact: boolean;
  next: string | null;
  previous: string | null;
}
interface Vial {
  id: string;
  labelCode: string;
  locationId: string;
  location: { name: string; code: string };
  variationId: string;
  productName: string;
  variationName: string;
  lot: string | null;
  expirationDate: string | null;
  state: string;
  unitsRemaining: number;
  /** An in-use vial's Use-By Deadline (JSON: an ISO instant). */
  expiresAt: string | null;
  isExpired: boolean;
}
interface Level {
  locationId: string;
  location: { name: string; code: string };
  productName: string;
  variationId: string;
  variationName: string;
  category: string;
  onHand: number;
  status: string;
}

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
let codes: Record<string, string> = {};

const cookieOf = (name: string) => sessions.get(`${name}@demo.clinic`)?.cookie ?? "";

async function json<T>(path: string, cookie: string): Promise<T> {
  const response = await get(path, cookie);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return (await response.json()) as T;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  codes = Object.fromEntries(
    (sessions.get("owner@demo.clinic")?.locations ?? []).map((l) => [l.location.code, l.locationId]),
  );
});

describe("who may read stock", () => {
  for (const user of DEMO_USERS) {
    it(`${user.email}: allowed exactly where their role grants READ_INVENTORY`, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const expected = can(access, "READ_INVENTORY", locations[0]?.locationId ?? null) ? 200 : 403;
      for (const path of ["/api/vials", "/api/stock-levels"]) {
        const response = await get(path, cookie);
        expect({ path, status: response.status }).toEqual({ path, status: expected });
        expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
        if (expected === 200) expect(response.headers.get("Cache-Control")).toBe("private, no-store");
        if (expected === 403)
          expect(await response.json()).toEqual({ error: expect.stringMatching(/permission/), code: "forbidden" });
      }
    });
  }

  it("answers 401 JSON to a signed-out caller", async () => {
    for (const path of ["/api/vials", "/api/stock-levels"]) {
      const response = await get(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/not signed in/), code: "not_signed_in" });
    }
  });

  it("answers 403 JSON for a location that is not the caller's, unknown, or organization-wide for non-admins", async () => {
    const staff = cookieOf("staff"); // STAFF at Downtown only
    const owner = cookieOf("owner");
    for (const [cookie, path] of [
      [staff, `/api/vials?locationId=${codes.WST}`],
      [staff, `/api/stock-levels?locationId=${codes.WST}`],
      [staff, "/api/vials?locationId=all"],
      [staff, "/api/stock-levels?locationId=all"],
      [cookieOf("multi"), `/api/vials?locationId=${codes.WST}`],
      [cookieOf("newhire"), `/api/stock-levels?locationId=${codes.DTN}`],
      [owner, "/api/vials?locationId=no-such-location"],
    ] as const) {
      const response = await get(path, cookie);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(await response.json()).toEqual({
        error: "You do not have permission to access this resource. Please contact your administrator.",
        code: "forbidden",
      });
    }
  });
});

describe("what each caller sees", () => {
  it("shows staff at Downtown Downtown's items and levels only, with or without naming it", async () => {
    const staff = cookieOf("staff");
    for (const suffix of ["", `&locationId=${codes.DTN}`]) {
      const vials = await json<CursorPage<Vial>>(`/api/vials?pageSize=100${suffix}`, staff);
      expect(vials.total).toBeGreaterThan(10);
      expect(new Set(vials.items.map((v) => v.location.code))).toEqual(new Set(["DTN"]));
      const levels = await json<CursorPage<Level>>(`/api/stock-levels?pageSize=100${suffix}`, staff);
      expect(levels.total).toBeGreaterThan(10);
      expect(new Set(levels.items.map((l) => l.location.code))).toEqual(new Set(["DTN"]));
    }
  });

  it("agrees with itself: a serialized level is the units left in its sealed items", async () => {
    const staff = cookieOf("staff");
    const vials = await json<CursorPage<Vial>>("/api/vials?pageSize=100", staff);
    expect(vials.items.length).toBe(vials.total);
    const levels = await json<CursorPage<Level>>("/api/stock-levels?pageSize=100", staff);
    const unitsOf = new Map<string, number>();
    for (const v of vials.items) unitsOf.set(v.variationId, (unitsOf.get(v.variationId) ?? 0) + v.unitsRemaining);
    expect(unitsOf.size).toBeGreaterThan(5);
    for (const [variationId, units] of unitsOf) {
      expect(levels.items.find((l) => l.variationId === variationId)?.onHand).toBe(units);
    }
  });

  it("shows an organization admin one location at a time, and every location in organization mode", async () => {
    const owner = cookieOf("owner");
    const home = await json<CursorPage<Vial>>("/api/vials?pageSize=100", owner);
    expect(new Set(home.items.map((v) => v.location.code))).toEqual(new Set(["DTN"])); // Downtown: first by name
    const north = await json<CursorPage<Level>>(`/api/stock-levels?pageSize=100&locationId=${codes.NTH}`, owner);
    expect(new Set(north.items.map((l) => l.location.code))).toEqual(new Set(["NTH"]));

    const everyVial = await json<CursorPage<Vial>>("/api/vials?locationId=all&pageSize=100", owner);
    expect(new Set(everyVial.items.map((v) => v.location.code))).toEqual(new Set(["DTN", "WST", "NTH"]));
    const everyLevel = await json<CursorPage<Level>>("/api/stock-levels?locationId=all&pageSize=100", owner);
    expect(new Set(everyLevel.items.map((l) => l.location.code))).toEqual(new Set(["DTN", "WST", "NTH"]));
    const perLocation = await Promise.all(
      ["DTN", "WST", "NTH"].map((code) => json<CursorPage<Vial>>(`/api/vials?locationId=${codes[code]}`, owner)),
    );
    expect(everyVial.total).toBe(perLocation.reduce((sum, p) => sum + p.total, 0));
  });

  it("lets a user at two locations name either one", async () => {
    const multi = cookieOf("multi");
    const north = await json<CursorPage<Vial>>(`/api/vials?locationId=${codes.NTH}&pageSize=100`, multi);
    expect(north.total).toBeGreaterThan(0);
    expect(new Set(north.items.map((v) => v.location.code))).toEqual(new Set(["NTH"]));
  });
});

describe("GET /api/vials", () => {
  it("gives each item the fields of the vial list, soonest expiry first", async () => {
    const page = await json<CursorPage<Record<string, unknown>>>("/api/vials", cookieOf("staff"));
    expect(page).toMatchObject({ pageSize: 25, totalExact: true, previous: null });
    const [first] = page.items;
    expect(Object.keys(first ?? {}).sort()).toEqual(
      [
        "id",
        "labelCode",
        "locationId",
        "location",
        "productId",
        "productName",
        "variationId",
        "variationName",
        "lot",
        "serial",
        "expirationDate",
        "state",
        "unitsRemaining",
        "baseUnit",
        "unitScale",
        "unitsPerPackage",
        "beyondUseHours",
        "controlled",
        "startedAt",
        "expiresAt",
        "endedAt",
        "discardReason",
        "recalled",
        "isExpired",
        "receivedAt",
        "receiptId",
      ].sort(),
    );
    expect(first).toMatchObject({
      id: expect.any(String),
      locationId: codes.DTN,
      location: { name: "Downtown", code: "DTN", timeZone: "America/New_York" },
      productId: expect.any(String),
      state: "sealed",
      recalled: false,
      unitsRemaining: expect.any(Number),
      startedAt: null,
      expiresAt: null,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      receiptId: expect.any(String),
    });
    expect(LABEL_CODE_PATTERN.test(String(first?.labelCode))).toBe(true);
    // The Restylane Kysse lot at Downtown expired four days ago: first in line, and expired.
    expect(first).toMatchObject({
      productName: "Restylane Kysse",
      variationName: "1 mL syringe",
      lot: "24571-1",
      expirationDate: dateIn(-4),
      isExpired: true,
      baseUnit: "mL",
      unitScale: 100,
      unitsRemaining: 100,
    });
    const dates = page.items.map((v) => String(v.expirationDate));
    expect(dates).toEqual([...dates].sort());
    expect(page.items.filter((v) => v.isExpired).every((v) => String(v.expirationDate) < dateIn(0))).toBe(true);
  });

  it("pages by cursor: Next gives the next 5 in order, Previous the 5 before, the same total; pageSize above 100 falls back to 25", async () => {
    const staff = cookieOf("staff");
    const ten = await json<CursorPage<Vial>>("/api/vials?pageSize=10", staff);
    const one = await json<CursorPage<Vial>>("/api/vials?pageSize=5", staff);
    expect(one).toMatchObject({ pageSize: 5, previous: null, total: ten.total, totalExact: true });
    expect(one.next).toEqual(expect.any(String));
    const two = await json<CursorPage<Vial>>(`/api/vials?pageSize=5&after=${one.next}`, staff);
    expect(two).toMatchObject({ pageSize: 5, total: one.total });
    expect([...one.items, ...two.items].map((v) => v.id)).toEqual(ten.items.map((v) => v.id));
    const back = await json<CursorPage<Vial>>(`/api/vials?pageSize=5&before=${two.previous}`, staff);
    expect(back.items.map((v) => v.id)).toEqual(one.items.map((v) => v.id));
    expect(back.previous).toBeNull();
    // To the end: every vial once, and the last page has no Next.
    const seen = [...one.items];
    let page = one;
    while (page.next && seen.length <= one.total) {
      page = await json<CursorPage<Vial>>(`/api/vials?pageSize=5&after=${page.next}`, staff);
      seen.push(...page.items);
    }
    expect(page.next).toBeNull();
    expect(new Set(seen.map((v) => v.id)).size).toBe(one.total);
    expect(seen).toHaveLength(one.total);
    expect((await json<CursorPage<Vial>>("/api/vials?pageSize=500", staff)).pageSize).toBe(25);
  });

  it("answers 400 with a clear message for a cursor it did not make, never a 500", async () => {
    const staff = cookieOf("staff");
    const one = await json<CursorPage<Vial>>("/api/vials?pageSize=5", staff);
    for (const query of ["after=forged", "before=W10", `after=${one.next}&before=${one.next}`, "after=eyJhIjoxfQ"]) {
      const response = await get(`/api/vials?${query}`, staff);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(await response.json()).toMatchObject({
        code: "invalid_cursor",
        error: expect.stringContaining("first page"),
      });
    }
  });

  it("filters by state, variation, lot and days to expiry", async () => {
    const staff = cookieOf("staff");
    const all = await json<CursorPage<Vial>>("/api/vials?pageSize=100", staff);
    // The demo seed opened three of Downtown's vials (scripts/seed/stock.ts IN_USE_AT_DOWNTOWN).
    const inUse = all.items.filter((v) => v.state === "in_use").length;
    expect(inUse).toBe(3);
    expect((await json<CursorPage<Vial>>("/api/vials?state=in_use", staff)).total).toBe(inUse);
    expect((await json<CursorPage<Vial>>("/api/vials?state=empty&state=discarded", staff)).total).toBe(0);
    expect((await json<CursorPage<Vial>>("/api/vials?state=sealed,in_use", staff)).total).toBe(all.total);
    expect((await json<CursorPage<Vial>>("/api/vials?state=sealed", staff)).total).toBe(all.total - inUse);

    const botox = all.items.find((v) => v.productName === "Botox Cosmetic" && v.variationName === "100 U vial");
    const byVariation = await json<CursorPage<Vial>>(
      `/api/vials?variationId=${botox?.variationId}&pageSize=100`,
      staff,
    );
    expect(byVariation.total).toBe(6);
    expect(new Set(byVariation.items.map((v) => v.variationName))).toEqual(new Set(["100 U vial"]));
    const byLot = await json<CursorPage<Vial>>("/api/vials?lot=C7988A1", staff);
    expect(byLot.items.map((v) => [v.productName, v.variationName, v.lot])).toEqual([
      ["Botox Cosmetic", "50 U vial", "C7988A1"],
      ["Botox Cosmetic", "50 U vial", "C7988A1"],
    ]);

    const soon = await json<CursorPage<Vial>>("/api/vials?expiringWithinDays=30&pageSize=100", staff);
    expect(soon.total).toBeGreaterThan(0);
    expect(soon.total).toBeLessThan(all.total);
    // An in-use vial's deadline is its Use-By Deadline (the demo seed opened a few), any other's its expiration date.
    const within30 = (v: Vial) =>
      v.state === "in_use"
        ? new Date(String(v.expiresAt)).getTime() <= Date.now() + 30 * DAY_MS
        : String(v.expirationDate) <= dateIn(30);
    for (const v of soon.items) expect(within30(v)).toBe(true);
    // The already expired count as expiring within any window; isExpired tells them apart.
    expect(soon.items.some((v) => v.isExpired)).toBe(true);
    expect(soon.items.some((v) => !v.isExpired)).toBe(true);
    const expected = all.items.filter(within30).length;
    expect(soon.total).toBe(expected);
    expect(
      (await json<CursorPage<Vial>>("/api/vials?expiringWithinDays=0", staff)).items.every((v) => v.isExpired),
    ).toBe(true);
  });
});

describe("GET /api/stock-levels", () => {
  it("gives on hand against par per location × variation, filtered by name, category and status", async () => {
    const staff = cookieOf("staff");
    const botox = await json<CursorPage<Record<string, unknown>>>("/api/stock-levels?q=botox", staff);
    expect(botox).toMatchObject({ pageSize: 25, total: 2, totalExact: true, next: null, previous: null });
    expect(botox.items[0]).toEqual({
      locationId: codes.DTN,
      location: { name: "Downtown", code: "DTN" },
      productId: expect.any(String),
      productName: "Botox Cosmetic",
      category: "Neurotoxin",
      variationId: expect.any(String),
      variationName: "100 U vial",
      baseUnit: "U",
      unitScale: 1,
      unitsPerPackage: 100,
      onHand: 600,
      expired: 0,
      usable: 600,
      packages: { whole: 6, remainder: 0 },
      parLevel: { par: 10, reorderPoint: 4, max: 16 },
      status: "below_par",
      nearestExpiry: dateIn(210),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });

    const toxins = await json<CursorPage<Level>>("/api/stock-levels?category=Neurotoxin", staff);
    expect(new Set(toxins.items.map((l) => l.category))).toEqual(new Set(["Neurotoxin"]));
    expect(toxins.items.map((l) => l.productName)).toContain("Xeomin");

    const reorder = await json<CursorPage<Level>>("/api/stock-levels?status=below_reorder&pageSize=100", staff);
    expect(reorder.items.length).toBeGreaterThan(0);
    expect(reorder.items.every((l) => l.status === "below_reorder")).toBe(true);
    expect(reorder.items.map((l) => `${l.productName} · ${l.variationName}`)).toEqual(
      expect.arrayContaining(["Xeomin · 100 U vial", "Botox Cosmetic · 50 U vial"]),
    );
    const all = await json<CursorPage<Level>>("/api/stock-levels?pageSize=100", staff);
    const counted = await Promise.all(
      ["below_reorder", "below_par", "ok", "no_par"].map(
        async (status) => (await json<CursorPage<Level>>(`/api/stock-levels?status=${status}`, staff)).total,
      ),
    );
    expect(counted.reduce((a, b) => a + b, 0)).toBe(all.total);

    // Next from the first 3 gives the next 3 in order; Previous from there gives the first 3 again.
    const first = await json<CursorPage<Level>>("/api/stock-levels?pageSize=3", staff);
    const paged = await json<CursorPage<Level>>(`/api/stock-levels?pageSize=3&after=${first.next}`, staff);
    expect(paged).toMatchObject({ pageSize: 3, total: all.total, totalExact: true });
    expect(paged.items.map((l) => l.variationId)).toEqual(all.items.slice(3, 6).map((l) => l.variationId));
    const back = await json<CursorPage<Level>>(`/api/stock-levels?pageSize=3&before=${paged.previous}`, staff);
    expect(back.items.map((l) => l.variationId)).toEqual(all.items.slice(0, 3).map((l) => l.variationId));
    const forged = await get("/api/stock-levels?after=bm90LWEta2V5", staff);
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "invalid_cursor" });
  });
});

describe("the /stock-levels screen", () => {
  const page = async (path: string, cookie: string, organizationMode = false) => {
    const cookies = [cookie];
    if (organizationMode) {
      cookies.push(
        (await saveLocationChoice({ selectedLocationId: null, isOrganizationMode: true })).split(";")[0] ?? "",
      );
    }
    const response = await app().fetch(`${BASE}${path}`, {
      headers: { Cookie: cookies.join("; ") },
      redirect: "manual",
    });
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return response.text();
  };

  it("renders the levels of the location in scope on the server: units, packages, par, status and expiry badges", async () => {
    const html = await page("/stock-levels?q=botox", cookieOf("staff"));
    expect(html).toContain("On hand at Downtown");
    expect(html).toMatch(/href="\/products\/[^"]+">Botox Cosmetic<\/a>/);
    expect(html).toContain("600 U");
    expect(html).toContain("10 / 4");
    // Badges, not the status filter's options.
    expect(html).toMatch(/<span[^>]*>Below par<\/span>/);
    expect(html).toMatch(/<span[^>]*>Reorder<\/span>/);
    expect(html).toMatch(/<span[^>]*>expiring soon<\/span>/);
    expect(html).not.toContain(">Location<");
    // Its only lot here expired four days ago: shown apart, none of it usable.
    const kysse = await page("/stock-levels?q=kysse", cookieOf("staff"));
    expect(kysse).toContain("0 mL");
    expect(kysse).toMatch(/<span[^>]*>\+ 3 mL expired<\/span>/);
    expect(kysse).not.toMatch(/<span[^>]*>expiring soon<\/span>/);
  });

  it("adds a location column in organization mode, and says what to do when nothing matches", async () => {
    const html = await page("/stock-levels?q=Restylane%20Lyft", cookieOf("owner"), true);
    expect(html).toContain("On hand at every location");
    expect(html).toContain(">Location<");
    for (const name of ["Downtown", "Westside", "North"]) expect(html).toContain(name);
    const none = await page("/stock-levels?q=no-such-product", cookieOf("staff"));
    expect(none).toContain("No stock matches this search and these filters. Clear them to see every level.");
  });
});
