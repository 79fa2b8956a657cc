// Dates and times on the screens (issue 10 item 6): spec formats only, every time with its zone,
// each row in its own location's zone, so location and organization mode never disagree silently.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import * as receivingScreen from "../../app/routes/_app.receiving._index";
import * as receiptScreen from "../../app/routes/_app.receiving.$receiptId.add-products";
import * as usersScreen from "../../app/routes/_app.users._index";
import type { ShownInstant } from "../../app/ui/dates";
import { freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let loc: Record<string, string>;
beforeAll(async () => {
  t = await freshDatabase();
  const rows = await t.db.select({ id: schema.locations.id, code: schema.locations.code }).from(schema.locations);
  loc = Object.fromEntries(rows.map((r) => [r.code, r.id]));
  // North moves to the west coast: the demo's locations otherwise share one zone.
  await t.db.update(schema.locations).set({ timezone: "America/Los_Angeles" }).where(eq(schema.locations.code, "NTH"));
});
afterAll(() => t.close());

const context = () => loadContext(t.db);
async function cookieAt(name: string, where: string | typeof ORGANIZATION) {
  const { cookie } = await signedIn(t.db, name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : loc[where]);
}

/** 'MMM d, H:mm' and a zone name this year, else 'MMM d, yyyy'. */
const SHOWN = /^(?:[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [A-Z][A-Za-z0-9+:-]+|[A-Z][a-z]{2} \d{1,2}, \d{4})$/;

type ListRow = { id: string; location: string; started: ShownInstant; completed: ShownInstant | null };
async function receiptList(cookie: string): Promise<ListRow[]> {
  const data = (await receivingScreen.loader({
    request: pageRequest("/receiving?status=completed", cookie),
    context: context(),
    params: {},
  })) as { receipts: ListRow[] };
  return data.receipts;
}

describe("the receiving list", () => {
  it("shows each receipt in its own location's zone, the same in location and organization mode", async () => {
    const everywhere = await receiptList(await cookieAt("owner", ORGANIZATION));
    const north = await receiptList(await cookieAt("owner", "NTH"));
    expect(north.length).toBeGreaterThan(0);
    expect(everywhere.some((r) => r.location.startsWith("Downtown"))).toBe(true);
    for (const row of everywhere) {
      const zone = row.location.startsWith("North") ? "America/Los_Angeles" : "America/New_York";
      expect(row.started.title).toContain(`(${zone})`);
      expect(row.started.text).toMatch(SHOWN);
      expect(new Date(row.started.dateTime).toISOString()).toBe(row.started.dateTime);
      expect(row.completed?.title).toContain(`(${zone})`);
    }
    for (const row of north) {
      expect(everywhere.find((r) => r.id === row.id)).toMatchObject({ started: row.started, completed: row.completed });
      expect(row.started.title).toMatch(/ P[SD]T \(America\/Los_Angeles\)$/);
    }
  });
});

describe("a receipt's page", () => {
  it("writes its lines' expiration dates, its times and a scan's expiry in the spec's formats", async () => {
    const cookie = await cookieAt("staff", "DTN");
    const [receipt] = await t.db
      .select({ id: schema.receipts.id })
      .from(schema.receipts)
      .where(eq(schema.receipts.locationId, loc.DTN ?? ""))
      .limit(1);
    const receiptId = receipt?.id ?? "";
    const page = (await receiptScreen.loader({
      request: pageRequest(`/receiving/${receiptId}/add-products`, cookie),
      context: context(),
      params: { receiptId },
    })) as { receipt: { started: ShownInstant }; lines: { expirationDate: string | null }[] };
    expect(page.receipt.started.text).toMatch(SHOWN);
    expect(page.receipt.started.title).toMatch(/ E[SD]T \(America\/New_York\)$/);
    const dated = page.lines.filter((l) => l.expirationDate !== null);
    expect(dated.length).toBeGreaterThan(0);
    for (const line of dated) expect(line.expirationDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);

    const open = await t.db
      .select({ id: schema.receipts.id })
      .from(schema.receipts)
      .where(eq(schema.receipts.status, "open"))
      .limit(1);
    const openId = open[0]?.id ?? "";
    const scanned = (await receiptScreen.action({
      request: formRequest(`/receiving/${openId}/add-products`, await cookieAt("staff", "DTN"), {
        intent: "scan",
        scan: "(01)00300239211001(17)270300(10)C1234",
      }),
      context: context(),
      params: { receiptId: openId },
    })) as { data: { expires: string | null; line: { expirationDate: string } } };
    // The form keeps the ISO date it submits; the message says it as people read it.
    expect(scanned.data).toMatchObject({ expires: "Mar 31, 2027", line: { expirationDate: "2027-03-31" } });
  });
});

describe("the users list", () => {
  it("says which zone a last sign-in is in: the location's, or UTC in organization mode", async () => {
    const at = new Date("2026-07-01T23:30:00.000Z");
    await t.db.update(schema.users).set({ lastLoginAt: at }).where(eq(schema.users.email, "multi@demo.clinic"));
    const lastSignIn = async (cookie: string) => {
      const data = (await usersScreen.loader({
        request: pageRequest("/users?q=multi", cookie),
        context: context(),
        params: {},
      })) as { users: { email: string; lastLoginAt: ShownInstant | null }[] };
      const row = data.users.find((u) => u.email === "multi@demo.clinic");
      return row?.lastLoginAt;
    };
    // Signing the owner in stamps their own last sign-in, not multi's.
    const downtown = await lastSignIn(await cookieAt("owner", "DTN"));
    const everywhere = await lastSignIn(await cookieAt("owner", ORGANIZATION));
    expect(downtown?.dateTime).toBe(at.toISOString());
    expect(everywhere?.dateTime).toBe(at.toISOString());
    expect(downtown?.title).toBe("Jul 1, 2026 19:30 EDT (America/New_York)");
    expect(everywhere?.title).toBe("Jul 1, 2026 23:30 UTC (UTC)");
  });
});
