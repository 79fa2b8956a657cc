// The dashboard's APIs inside workerd (spec section 7): GET /api/dashboard/stats, /par-status and
// /recent-activity over the demo data, as every demo user, signed out, naming a location that is
// not theirs and in organization mode (`locationId=all`); errors in the API's one shape.
import { beforeAll, describe, expect, it } from "vitest";
import { can } from "../../app/access/permissions";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, get, type MyLocation, signInAs } from "./support";

interface Stats {
  vialsOnHand: number;
  inUse: number;
  expiringSoon: number;
  expiringSoonValueCents: number;
  expired: number;
  recalled: number;
  belowReorder: number;
  belowParOnly: number;
  belowPar: number;
  stockValueCents: number;
  wasteThisMonth: { units: number; cents: number };
}

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
let codes: Record<string, string> = {};
const cookieOf = (name: string) => sessions.get(`${name}@demo.clinic`)?.cookie ?? "";

async function json<T>(path: string, cookie: string): Promise<T> {
  const response = await get(path, cookie);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  return (await response.json()) as T;
}

async function refused(path: string, cookie: string, status: number, code: string) {
  const response = await get(path, cookie);
  expect({ path, status: response.status }).toEqual({ path, status });
  expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
  expect(await response.json()).toEqual({ error: expect.any(String), code });
}

const STATS = "/api/dashboard/stats";
const PAR = "/api/dashboard/par-status";
const ACTIVITY = "/api/dashboard/recent-activity";

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  codes = Object.fromEntries(
    (sessions.get("owner@demo.clinic")?.locations ?? []).map((l) => [l.location.code, l.locationId]),
  );
});

describe("who may read the dashboard's figures", () => {
  for (const user of DEMO_USERS) {
    it(`${user.email}: stock figures with READ_INVENTORY, recent activity with READ_ACTIVITY, where they stand`, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const here = locations[0]?.locationId ?? null;
      for (const [path, permission] of [
        [STATS, "READ_INVENTORY"],
        [PAR, "READ_INVENTORY"],
        [ACTIVITY, "READ_ACTIVITY"],
      ] as const) {
        if (can(access, permission, here)) await json(path, cookie);
        else await refused(path, cookie, 403, "forbidden");
      }
    });
  }

  it("signed out: 401 in the one shape", async () => {
    for (const path of [STATS, PAR, ACTIVITY]) await refused(path, "", 401, "not_signed_in");
  });

  it("a location that is not the reader's, or organization mode for a non-admin: 403", async () => {
    await refused(`${STATS}?locationId=${codes.WST}`, cookieOf("staff"), 403, "forbidden");
    await refused(`${PAR}?locationId=${codes.WST}`, cookieOf("staff"), 403, "forbidden");
    await refused(`${STATS}?locationId=all`, cookieOf("admin"), 403, "forbidden");
    await refused(`${ACTIVITY}?locationId=all`, cookieOf("manager"), 403, "forbidden");
    await refused(`${STATS}?locationId=no-such-location`, cookieOf("owner"), 403, "forbidden");
    // Staff hold READ_INVENTORY but not READ_ACTIVITY.
    await refused(`${ACTIVITY}?locationId=${codes.DTN}`, cookieOf("staff"), 403, "forbidden");
  });

  it("a write is 405 in the one shape", async () => {
    for (const path of [STATS, PAR, ACTIVITY]) {
      const response = await app().fetch(`${BASE}${path}`, {
        method: "POST",
        headers: { Cookie: cookieOf("owner"), Origin: BASE, "Content-Type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ error: expect.any(String), code: "method_not_allowed" });
    }
  });
});

describe("the figures", () => {
  it("answers every stock figure as a whole number, and this month's waste", async () => {
    const stats = await json<Stats>(`${STATS}?locationId=${codes.DTN}`, cookieOf("staff"));
    for (const key of [
      "vialsOnHand",
      "inUse",
      "expiringSoon",
      "expiringSoonValueCents",
      "expired",
      "recalled",
      "belowPar",
      "stockValueCents",
    ] as const) {
      expect(Number.isInteger(stats[key]), key).toBe(true);
    }
    expect(stats.vialsOnHand).toBeGreaterThan(0);
    expect(stats.belowPar).toBe(stats.belowReorder + stats.belowParOnly);
    expect(stats.wasteThisMonth).toEqual({ units: expect.any(Number), cents: expect.any(Number) });
  });

  it("reads the same figures for the same location whoever asks, and organization mode adds them up", async () => {
    const byStaff = await json<Stats>(`${STATS}?locationId=${codes.DTN}`, cookieOf("staff"));
    const byOwner = await json<Stats>(`${STATS}?locationId=${codes.DTN}`, cookieOf("owner"));
    // The figures are one; `asOf` is the moment each answer summed them (a location's are summed on each request).
    const { asOf: staffAsOf, ...staffFigures } = byStaff as Stats & { asOf: string };
    const { asOf: ownerAsOf, ...ownerFigures } = byOwner as Stats & { asOf: string };
    expect(ownerFigures).toEqual(staffFigures);
    for (const asOf of [staffAsOf, ownerAsOf]) expect(Math.abs(Date.now() - Date.parse(asOf))).toBeLessThan(60_000);
    const each = await Promise.all(
      ["DTN", "WST", "NTH"].map((code) => json<Stats>(`${STATS}?locationId=${codes[code]}`, cookieOf("owner"))),
    );
    const all = await json<Stats>(`${STATS}?locationId=all`, cookieOf("owner"));
    for (const key of ["vialsOnHand", "inUse", "expired", "recalled", "belowPar", "stockValueCents"] as const) {
      expect(all[key], key).toBe(each.reduce((sum, s) => sum + s[key], 0));
    }
  });

  it("par status: the stock levels' counts by status, each row with what to order", async () => {
    const par = await json<{
      belowReorder: number;
      belowParOnly: number;
      belowPar: number;
      items: { status: string; reorderPackages: number; locationId: string }[];
    }>(`${PAR}?locationId=${codes.DTN}`, cookieOf("staff"));
    const levels = (status: string) =>
      json<{ total: number }>(`/api/stock-levels?status=${status}&locationId=${codes.DTN}`, cookieOf("staff"));
    expect(par.belowReorder).toBe((await levels("below_reorder")).total);
    expect(par.belowParOnly).toBe((await levels("below_par")).total);
    expect(par.items.length).toBe(Math.min(10, par.belowPar));
    for (const row of par.items) {
      expect(["below_reorder", "below_par"]).toContain(row.status);
      expect(row.reorderPackages).toBeGreaterThan(0);
      expect(row.locationId).toBe(codes.DTN);
    }
    const stats = await json<Stats>(`${STATS}?locationId=${codes.DTN}`, cookieOf("staff"));
    expect(stats.belowPar).toBe(par.belowPar);
  });

  it("recent activity: the newest rows in words with their links, newest first", async () => {
    const { items } = await json<{ items: { at: number; text: string; href: string | null; action: string }[] }>(
      `${ACTIVITY}?locationId=all`,
      cookieOf("owner"),
    );
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(10);
    for (const row of items) expect(row.text).not.toMatch(/^[a-z]+_[a-z_]+$/);
    expect(items.map((r) => r.at)).toEqual([...items.map((r) => r.at)].sort((a, b) => b - a));
  });
});
