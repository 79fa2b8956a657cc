// The usage log and lot recalls against a real database: usage entries made by drawUnits at two
// locations, read back with every filter (dates as days in the location's zone, UTC in
// organization mode), in scope and in organization mode, in one round trip; the CSV quoted,
// formula-neutralised and streamed a page per query; marking and lifting a recall (who may, what
// is refused, idempotency, the activity rows) and what it does to every vial of the lot at every
// location; the recall report in one round trip, limited to the locations the reader sees.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { commitSessionCookie, getSessionUser, type SessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { liftRecall } from "../../app/recalls/lift.server";
import { markRecall } from "../../app/recalls/mark.server";
import { readRecallReport } from "../../app/recalls/report.server";
import { loader as usageScreenLoader } from "../../app/routes/_app.usage-log";
import { lotRecalled } from "../../app/stock/quarantine.server";
import { startOfDayIn } from "../../app/ui/dates";
import { usageCsv } from "../../app/usage/csv.server";
import { readUsage, usagePages } from "../../app/usage/list.server";
import { UsageQuery } from "../../app/usage/query";
import { drawUnits } from "../../app/vials/draw.server";
import { startVial } from "../../app/vials/start.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials } from "../support/receive";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();
let loc: Record<"DTN" | "WST" | "NTH", string>;
const LOT = "C8123C3"; // Botox 100 U, received at Downtown and at Westside by the demo seed.
let variationId = "";
let productId = "";
let serviceId = "";
const vials: Record<"DTN" | "WST", string[]> = { DTN: [], WST: [] };
const NY = "America/New_York";
const DAY_MS = 24 * 60 * 60 * 1000;
/** A calendar date `days` from today (UTC) as "YYYY-MM-DD". */
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** 23:30 in New York three days ago: already the next day in UTC, so the two readings of a date differ. */
const lateEvening = new Date((startOfDayIn(dateIn(-3), NY) ?? 0) + 23.5 * 60 * 60 * 1000);
const nyDayOf = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: NY }).format(at);
const nyDate = nyDayOf(lateEvening);
const utcDate = lateEvening.toISOString().slice(0, 10);

const at = (email: string, locationId: string | null): ScopedActor => {
  const user = users.get(email);
  if (!user) throw new Error(`no session for ${email}`);
  return { ...user, locationId };
};
// The lot these tests draw from: the demo seed's own draws (other lots at Downtown) stay out of the counts.
const query = (fields: Record<string, string> = {}) => UsageQuery.parse({ lot: LOT, ...fields });
/** A page of the log (GET /api/usage's answer); a cursor the log did not make fails the test. */
async function usage(actor: ScopedActor, asked: ReturnType<typeof query>) {
  const page = await readUsage(t.db, actor, asked);
  if (!page) throw new Error("the cursor was refused");
  return page;
}

async function draw(actor: ScopedActor, itemId: string, fields: Record<string, unknown>) {
  const outcome = await drawUnits(t.db, actor, { itemId, ...fields } as Parameters<typeof drawUnits>[2]);
  if (!outcome.ok) throw new Error(`${outcome.refusal}: ${outcome.message}`);
  return outcome.usage;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "staff", "manager", "admin", "newhire"]) {
    const result = await signIn(t.db, { email: `${name}@demo.clinic`, password: DEMO_PASSWORD, userAgent: "vitest" });
    if (!result.ok) throw new Error(result.message);
    const cookie =
      (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0] ?? "";
    const found = await getSessionUser(env, t.db, new Request("http://clinic.test/", { headers: { Cookie: cookie } }));
    if (!found) throw new Error("signed out");
    users.set(name, found);
    cookies.set(name, cookie);
  }
  const [botox] = await t.db
    .select({ id: schema.productVariations.id, productId: schema.products.id })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
    .where(and(eq(schema.products.name, "Botox Cosmetic"), eq(schema.productVariations.name, "100 U vial")));
  variationId = botox?.id ?? "";
  productId = botox?.productId ?? "";
  const [service] = await t.db.select({ id: schema.services.id }).from(schema.services).limit(1);
  serviceId = service?.id ?? "";
  for (const code of ["DTN", "WST"] as const) {
    const rows = await t.db
      .select({ id: schema.items.id })
      .from(schema.items)
      .where(
        and(
          eq(schema.items.variationId, variationId),
          eq(schema.items.lot, LOT),
          eq(schema.items.locationId, loc[code]),
        ),
      )
      .orderBy(schema.items.id);
    vials[code] = rows.map((r) => r.id);
  }
  expect(vials.DTN.length).toBeGreaterThanOrEqual(3);
  expect(vials.WST.length).toBeGreaterThanOrEqual(2);

  const staff = at("staff", loc.DTN);
  const [a = "", b = ""] = vials.DTN;
  // A formula for a patient reference: refused by a draw now (a chart number is letters, digits and
  // - _ . / #), but one stored before that rule is still in the log and its exports, so it is written
  // here as such a row was.
  const evil = '=HYPERLINK("http://evil.example")';
  expect(await drawUnits(t.db, staff, { itemId: a, units: "10", patientRef: evil })).toMatchObject({
    ok: false,
    refusal: "invalid",
  });
  const legacy = await draw(staff, a, {
    units: "10",
    patientRef: "CH-1001",
    provider: 'Dr. Quote, "Q"',
    serviceId,
    usedAt: lateEvening,
  });
  // History is append-only (a trigger): lifted for this one row of this file's own database.
  await t.db.run(sql`DROP TRIGGER usage_entries_no_update`);
  await t.db.update(schema.usageEntries).set({ patientRef: evil }).where(eq(schema.usageEntries.id, legacy.id));
  await t.db.run(sql`CREATE TRIGGER usage_entries_no_update BEFORE UPDATE ON usage_entries
    BEGIN SELECT RAISE(ABORT, 'usage_entries is append-only'); END`);
  // An hour later: a draw lies within its vial's life, which the first draw started (24 h).
  await draw(staff, a, {
    units: "5",
    patientRef: "CH-1002",
    provider: "Dr. Lee",
    usedAt: new Date(lateEvening.getTime() + 60 * 60 * 1000),
  });
  await draw(staff, b, { units: "20", patientRef: "CH-1003", provider: "Dr. Lee" });
  await draw(at("manager", loc.WST), vials.WST[0] ?? "", { units: "30", patientRef: "CH-2001" });
});
afterAll(() => t.close());

describe("the usage log", () => {
  it("lists the entries at the location in scope, newest first, with names and units in the product's unit, in one round trip", async () => {
    t.resetRoundTrips();
    const page = await usage(at("staff", loc.DTN), query());
    expect(t.roundTrips()).toBe(1);
    expect(page.total).toBe(3);
    expect(page.items.map((e) => [e.patientRef, e.unitsText, e.location.code, e.productName, e.variationName])).toEqual(
      [
        ["CH-1003", "20 U", "DTN", "Botox Cosmetic", "100 U vial"],
        ["CH-1002", "5 U", "DTN", "Botox Cosmetic", "100 U vial"],
        ['=HYPERLINK("http://evil.example")', "10 U", "DTN", "Botox Cosmetic", "100 U vial"],
      ],
    );
    const first = page.items[2];
    expect(first?.recordedBy).toMatch(/\S+ \S+/);
    expect(first?.serviceName).toBeTruthy();
    expect(first?.lot).toBe(LOT);
    expect(first?.labelCode).toBeTruthy();
  });

  it("filters by product (exactly, or its name or SKU), variation, lot, service, provider (contains) and patient reference (whole, any case)", async () => {
    const refs = async (fields: Record<string, string>) =>
      (await usage(at("staff", loc.DTN), query(fields))).items.map((e) => e.patientRef);
    expect(await refs({ productId })).toHaveLength(3);
    expect(await refs({ product: "botox COSM" })).toHaveLength(3);
    expect(await refs({ product: "no such product" })).toEqual([]);
    expect(await refs({ variationId })).toHaveLength(3);
    expect(await refs({ lot: LOT })).toHaveLength(3);
    expect(await refs({ lot: "NO-SUCH-LOT" })).toEqual([]);
    expect(await refs({ serviceId })).toEqual(['=HYPERLINK("http://evil.example")']);
    expect(await refs({ provider: "quote" })).toEqual(['=HYPERLINK("http://evil.example")']);
    expect(await refs({ provider: "lee" })).toEqual(["CH-1003", "CH-1002"]);
    expect(await refs({ patientRef: "ch-1002" })).toEqual(["CH-1002"]);
    expect(await refs({ patientRef: "CH-100" })).toEqual([]);
  });

  it("reads dates as whole days in the location's zone, and in UTC in organization mode", async () => {
    expect(nyDate).not.toBe(utcDate);
    const refs = async (actor: ScopedActor, fields: Record<string, string>) =>
      (await usage(actor, query(fields))).items.map((e) => e.patientRef);
    const evil = '=HYPERLINK("http://evil.example")';
    expect(await refs(at("staff", loc.DTN), { from: nyDate, to: nyDate })).toEqual([evil]);
    expect(await refs(at("staff", loc.DTN), { from: utcDate, to: utcDate })).not.toContain(evil);
    expect(await refs(at("owner", "all"), { from: utcDate, to: utcDate })).toContain(evil);
    expect(await refs(at("owner", "all"), { from: nyDate, to: nyDate })).not.toContain(evil);
    // Only a start or only an end.
    expect(await refs(at("staff", loc.DTN), { from: nyDayOf(new Date()) })).toEqual(["CH-1003"]);
    expect(await refs(at("staff", loc.DTN), { to: nyDate })).toEqual([evil]);
  });

  it("filters by dates with no read of its own: the zone comes with the session, the screen is one batch beyond it", async () => {
    t.resetRoundTrips();
    const page = await usage(at("staff", loc.DTN), query({ from: nyDate, to: nyDate }));
    expect(t.roundTrips()).toBe(1);
    expect(page.items.map((e) => e.patientRef)).toEqual(['=HYPERLINK("http://evil.example")']);

    const request = new Request(`http://clinic.test/usage-log?lot=${LOT}&from=${nyDate}&to=${nyDate}`, {
      headers: { Cookie: cookies.get("staff") ?? "" },
    });
    const context = { env, db: t.db } as unknown as AppLoadContext;
    t.resetRoundTrips();
    const screen = await usageScreenLoader({ request, context, params: {} });
    expect(t.roundTrips()).toBe(2);
    expect(screen.timeZone).toBe(NY);
    expect(screen.rows.map((r) => r.patientRef)).toEqual(['=HYPERLINK("http://evil.example")']);
  });

  it("covers every location in organization mode, and only their own location for everyone else", async () => {
    const codes = async (actor: ScopedActor) => (await usage(actor, query())).items.map((e) => e.location.code).sort();
    expect(await codes(at("owner", "all"))).toEqual(["DTN", "DTN", "DTN", "WST"]);
    expect(await codes(at("manager", loc.WST))).toEqual(["WST"]);
    expect(await codes(at("admin", loc.WST))).toEqual(["WST"]);
    expect(await codes(at("owner", loc.NTH))).toEqual([]);
    expect(await codes(at("newhire", null))).toEqual([]);
    // A location the user does not work at is nowhere, whatever the session says.
    expect(await codes(at("staff", loc.WST))).toEqual([]);
  });

  it("pages by cursor with a count, and the screen reads in one batch beyond the session", async () => {
    const first = await usage(at("owner", "all"), query({ pageSize: "3" }));
    expect(first).toMatchObject({ pageSize: 3, total: 4, totalExact: true, previous: null });
    expect(first.items).toHaveLength(3);
    const second = await usage(at("owner", "all"), query({ pageSize: "3", after: first.next ?? "" }));
    expect(second).toMatchObject({ pageSize: 3, total: 4, totalExact: true, next: null });
    expect(second.items.map((e) => e.patientRef)).toEqual(['=HYPERLINK("http://evil.example")']);
    const back = await usage(at("owner", "all"), query({ pageSize: "3", before: second.previous ?? "" }));
    expect(back.items.map((e) => e.id)).toEqual(first.items.map((e) => e.id));
    expect(back.previous).toBeNull();

    const request = new Request("http://clinic.test/usage-log?lot=C8123C3", {
      headers: { Cookie: cookies.get("staff") ?? "" },
    });
    const context = { env, db: t.db } as unknown as AppLoadContext;
    t.resetRoundTrips();
    const screen = await usageScreenLoader({ request, context, params: {} });
    expect(t.roundTrips()).toBe(2);
    expect(screen.total).toBe(3);
    expect(screen.csv).toBe("/usage-log.csv?lot=C8123C3");
    expect(screen.rows[0]?.report).toBe(`/recalls/report?variationId=${variationId}&lot=${LOT}`);
  });
});

describe("paging the usage log by keyset", () => {
  const TIED = "TIE-0001"; // a lot of its own: the other tests' counts stay as they are
  const tied = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const earlier = new Date(tied.getTime() - 60 * 60 * 1000);
  const ids = (page: { items: { id: string }[] }) => page.items.map((e) => e.id);
  const byLot = (fields: Record<string, string> = {}) => UsageQuery.parse({ lot: TIED, pageSize: "3", ...fields });

  /** Every page from the first by `next`, then back from the last by `previous`: each as its ids. */
  async function walk(actor: ScopedActor, fields: Record<string, string> = {}) {
    let page = await usage(actor, byLot(fields));
    expect(page.previous).toBeNull();
    const forward = [ids(page)];
    const totals = new Set([page.total]);
    while (page.next) {
      page = await usage(actor, byLot({ ...fields, after: page.next }));
      forward.push(ids(page));
      totals.add(page.total);
    }
    const backward = [ids(page)];
    while (page.previous) {
      page = await usage(actor, byLot({ ...fields, before: page.previous }));
      backward.unshift(ids(page));
      totals.add(page.total);
    }
    return { forward, backward, totals: [...totals] };
  }

  beforeAll(async () => {
    const [vial = ""] = await receiveVials(t.db, at("owner", loc.DTN), {
      locationId: loc.DTN,
      variationId,
      quantity: 1,
      lot: TIED,
      expirationDate: dateIn(365),
    });
    // Five draws at one instant, three an hour before: pages of three split the tie. The earlier
    // three first: the first draw starts the vial, and no draw lies before its start.
    for (const n of [5, 6, 7, 0, 1, 2, 3, 4]) {
      await draw(at("staff", loc.DTN), vial, {
        units: "1",
        usedAt: n < 5 ? tied : earlier,
        provider: n % 2 ? "Dr. Odd" : "Dr. Even",
        patientRef: `TIE-${n}`,
      });
    }
  });

  it("walks forward and back across pages of entries at one instant, each entry once, in the log's order", async () => {
    const all = await usage(at("staff", loc.DTN), byLot({ pageSize: "100" }));
    expect(all.items).toHaveLength(8);
    expect(all.items.slice(0, 5).every((e) => e.usedAt.getTime() === tied.getTime())).toBe(true);
    expect(all).toMatchObject({ next: null, previous: null, total: 8, totalExact: true });

    for (const actor of [at("staff", loc.DTN), at("owner", "all")]) {
      const { forward, backward, totals } = await walk(actor);
      expect(forward.map((p) => p.length)).toEqual([3, 3, 2]);
      expect(forward.flat()).toEqual(ids(all));
      expect(new Set(forward.flat()).size).toBe(8);
      expect(backward).toEqual(forward);
      expect(totals).toEqual([8]);
    }
  });

  it("keeps every filter on every page", async () => {
    const staff = at("staff", loc.DTN);
    const odd = await walk(staff, { provider: "odd" });
    expect(odd.forward.map((p) => p.length)).toEqual([3, 1]);
    expect(odd.backward).toEqual(odd.forward);
    expect(odd.totals).toEqual([4]);
    const entries = (await usage(staff, byLot({ provider: "odd", pageSize: "100" }))).items;
    expect(entries.map((e) => e.id)).toEqual(odd.forward.flat());
    expect(entries.every((e) => e.provider === "Dr. Odd")).toBe(true);

    const filters: Record<string, string>[] = [
      { variationId },
      { productId },
      { product: "Botox" },
      { patientRef: "tie-3" },
      { from: nyDayOf(earlier), to: nyDayOf(tied) },
    ];
    for (const fields of filters) {
      const { forward, backward } = await walk(staff, fields);
      const whole = await usage(staff, byLot({ ...fields, pageSize: "100" }));
      expect(forward.flat(), JSON.stringify(fields)).toEqual(ids(whole));
      expect(backward).toEqual(forward);
    }
    expect((await walk(staff, { patientRef: "tie-3" })).forward).toEqual([
      [(await usage(staff, byLot({ patientRef: "TIE-3" }))).items[0]?.id],
    ]);
    // Another location's reader sees none of them, on any page.
    expect((await walk(at("manager", loc.WST))).forward).toEqual([[]]);
  });

  it("refuses a cursor it did not make (the API's 400), and the screen shows the first page instead", async () => {
    const first = await usage(at("staff", loc.DTN), byLot());
    const cursor = first.next ?? "";
    const forgeries: Record<string, string>[] = [
      { after: "not-a-cursor!" },
      { after: btoa("[1]") },
      { after: cursor, before: cursor },
    ];
    for (const forged of forgeries) {
      expect(await readUsage(t.db, at("staff", loc.DTN), byLot(forged)), JSON.stringify(forged)).toBeNull();
    }
    const request = new Request(`http://clinic.test/usage-log?lot=${TIED}&after=not-a-cursor`, {
      headers: { Cookie: cookies.get("staff") ?? "" },
    });
    const screen = await usageScreenLoader({
      request,
      context: { env, db: t.db } as unknown as AppLoadContext,
      params: {},
    });
    expect(screen.rows.map((r) => r.id)).toEqual(ids(await usage(at("staff", loc.DTN), byLot({ pageSize: "25" }))));
    expect(screen.previous).toBeNull();
  });

  it("links the screen's pages with their filters and cursor, as plain links", async () => {
    const load = async (path: string) =>
      usageScreenLoader({
        request: new Request(`http://clinic.test${path}`, { headers: { Cookie: cookies.get("staff") ?? "" } }),
        context: { env, db: t.db } as unknown as AppLoadContext,
        params: {},
      });
    const first = await load(`/usage-log?lot=${TIED}&pageSize=3`);
    expect(first).toMatchObject({ total: 8, totalExact: true, previous: null });
    expect(first.next).toMatch(new RegExp(`^/usage-log\\?lot=${TIED}&pageSize=3&after=[\\w-]+$`));
    const second = await load(first.next ?? "");
    expect(second.rows).toHaveLength(3);
    expect(second.previous).toMatch(/&before=/);
    const back = await load(second.previous ?? "");
    expect(back.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
  });

  it("counts at most 1,000 matching entries and says there are more", async () => {
    // 1,001 entries of a lot of their own at North, written in one statement.
    await t.db.run(sql`INSERT INTO usage_entries (id, item_id, location_id, variation_id, lot, units, used_at, created_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
      SELECT printf('cap-%04d', i), ${vials.DTN[0] ?? ""}, ${loc.NTH}, ${variationId}, 'CAP-LOT', 1,
        ${Date.now()} - i * 1000, ${Date.now()} FROM n`);
    const page = await usage(at("owner", loc.NTH), UsageQuery.parse({ lot: "CAP-LOT" }));
    expect(page).toMatchObject({ total: 1000, totalExact: false, previous: null });
    expect(page.items.map((e) => e.id)).toEqual(
      Array.from({ length: 25 }, (_, n) => `cap-${String(n + 1).padStart(4, "0")}`),
    );
  });
});

async function chunksOf(response: Response): Promise<string[]> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(decoder.decode(value));
  }
}

describe("the usage log as CSV", () => {
  it("quotes values, neutralises formulas and streams a page per query", async () => {
    t.resetRoundTrips();
    const response = usageCsv(t.db, at("staff", loc.DTN), query(), { pageSize: 2 });
    expect(t.roundTrips()).toBe(0); // nothing is read before the download is read
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="usage-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const chunks = await chunksOf(response);
    // The header, then one chunk per page of 2: three entries are two pages, two queries.
    expect(chunks).toHaveLength(3);
    expect(t.roundTrips()).toBe(2);
    const text = chunks.join("");
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toMatch(/^Used at \(UTC\),/);
    expect(lines).toHaveLength(4);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(text).toContain(`"Dr. Quote, ""Q"""`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(lines[1]).toContain("CH-1003");
  });

  it("walks every row by keyset, however many pages", async () => {
    const seen: string[] = [];
    let pages = 0;
    for await (const page of usagePages(t.db, at("owner", "all"), query(), 1)) {
      pages++;
      seen.push(...page.map((e) => e.id));
    }
    const all = (await usage(at("owner", "all"), query())).items.map((e) => e.id);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
  });
});

describe("lot recalls", () => {
  let recallId = "";
  const recalledAt = async (locationId: string) =>
    t.db.all<{ recalled: number }>(sql`SELECT ${lotRecalled("items")} AS recalled FROM items
      WHERE items.variation_id = ${variationId} AND items.lot = ${LOT} AND items.location_id = ${locationId}`);

  it("refuses someone without WRITE_PRODUCTS, an unknown variation, an empty lot and an empty or too long note", async () => {
    const before = await t.activityCount();
    const input = { variationId, lot: LOT, note: "Manufacturer notice 2026-11" };
    expect(await markRecall(t.db, at("staff", loc.DTN), input)).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await markRecall(t.db, at("owner", "all"), { ...input, variationId: "no-such-variation" })).toMatchObject({
      ok: false,
      refusal: "variation_not_found",
    });
    expect(await markRecall(t.db, at("owner", "all"), { ...input, lot: "  " })).toMatchObject({
      ok: false,
      refusal: "invalid",
      message: expect.stringMatching(/lot number/),
    });
    expect(await markRecall(t.db, at("owner", "all"), { ...input, note: "" })).toMatchObject({ refusal: "invalid" });
    expect(await markRecall(t.db, at("owner", "all"), { ...input, note: "x".repeat(1001) })).toMatchObject({
      refusal: "invalid",
      message: expect.stringMatching(/at most 1000/),
    });
    expect(await t.activityCount()).toBe(before);
    expect((await recalledAt(loc.DTN)).every((r) => !r.recalled)).toBe(true);
  });

  it("marks the lot recalled: every vial of it at every location is quarantined at once, recorded once", async () => {
    const before = await t.activityCount();
    const input = { variationId, lot: LOT, note: "Manufacturer notice 2026-11", idempotencyKey: "recall-key-0001" };
    const marked = await markRecall(t.db, at("manager", loc.WST), input);
    if (!marked.ok) throw new Error(marked.message);
    recallId = marked.recall.id;
    expect(marked.recall).toMatchObject({ lot: LOT, variationId, inForce: true, productName: "Botox Cosmetic" });
    expect(marked.recall.recalledBy).toMatch(/\S+ \S+/);
    // The answer names what the recall holds: the lot's unused vials, by location.
    const unused = await t.db.all<{ code: string; vials: number }>(sql`SELECT l.code, count(*) AS vials
      FROM items AS i JOIN locations AS l ON l.id = i.location_id WHERE i.variation_id = ${variationId}
        AND i.lot = ${LOT} AND i.state IN ('sealed', 'in_use', 'in_transit') GROUP BY l.id ORDER BY lower(l.name)`);
    expect(unused.map((u) => u.code)).toEqual(["DTN", "WST"]);
    expect(marked.quarantined).toEqual({
      vials: unused.reduce((sum, u) => sum + Number(u.vials), 0),
      locations: unused.map((u) => ({
        id: loc[u.code as "DTN"],
        name: expect.any(String),
        code: u.code,
        vials: Number(u.vials),
      })),
    });
    expect(await t.lastActivity()).toMatchObject({ action: "recall_lot", entity: "lot_recall", entityId: recallId });

    // The same key again answers the same recall and writes nothing.
    const again = await markRecall(t.db, at("manager", loc.WST), input);
    expect(again).toMatchObject({ ok: true, recall: { id: recallId }, quarantined: marked.quarantined });
    expect(await t.activityCount()).toBe(before + 1);

    for (const code of ["DTN", "WST", "NTH"] as const) {
      expect((await recalledAt(loc[code])).every((r) => r.recalled === 1)).toBe(true);
    }
    expect((await recalledAt(loc.DTN)).length + (await recalledAt(loc.WST)).length).toBeGreaterThan(2);
    // Another lot of the same variation is not touched.
    const [other] = await t.db.all<{ recalled: number }>(sql`SELECT ${lotRecalled("items")} AS recalled FROM items
      WHERE items.variation_id = ${variationId} AND items.lot IS NOT ${LOT} LIMIT 1`);
    if (other) expect(other.recalled).toBe(0);

    // A vial of the lot refuses a start, at Westside too.
    const sealed = vials.WST[1] ?? "";
    expect(await startVial(t.db, at("manager", loc.WST), { itemId: sealed })).toMatchObject({
      ok: false,
      refusal: "recalled",
    });
  });

  it("refuses a second recall of a lot already under one in force", async () => {
    const before = await t.activityCount();
    const outcome = await markRecall(t.db, at("owner", "all"), { variationId, lot: LOT, note: "Again" });
    expect(outcome).toMatchObject({ ok: false, refusal: "already_recalled" });
    expect(await t.activityCount()).toBe(before);
  });

  it("refuses a lot that holds no vial until confirmed, naming the lots that differ only in case or spacing", async () => {
    const before = await t.activityCount();
    const typed = { variationId, lot: "c8123c3", note: "Manufacturer notice, typed" };
    const unused = vials.DTN.length + vials.WST.length;
    const refused = await markRecall(t.db, at("manager", loc.WST), typed);
    expect(refused).toEqual({
      ok: false,
      refusal: "confirm_no_match",
      message: expect.stringContaining(`differ only in case or spacing: ${LOT} (${unused} vials)`),
      nearLots: [{ lot: LOT, vials: unused }],
    });
    expect(await t.activityCount()).toBe(before);
    // A lot nothing resembles: refused too, with no lot to offer.
    expect(await markRecall(t.db, at("manager", loc.WST), { ...typed, lot: "ZZ-NOTHING" })).toMatchObject({
      refusal: "confirm_no_match",
      nearLots: [],
    });
    // Confirmed (a lot recalled before delivery): marked, holding none now.
    const confirmed = await markRecall(t.db, at("manager", loc.WST), { ...typed, confirmNoMatch: true });
    expect(confirmed).toMatchObject({
      ok: true,
      recall: { lot: "c8123c3" },
      quarantined: { vials: 0, locations: [] },
    });
    expect(await t.activityCount()).toBe(before + 1);
  });

  it("reports every use and every unused vial in one round trip, limited to the locations the reader sees", async () => {
    t.resetRoundTrips();
    const staff = await readRecallReport(t.db, at("staff", loc.DTN), { variationId, lot: LOT });
    expect(t.roundTrips()).toBe(1);
    expect(staff?.status).toBe("in_force");
    expect(staff?.uses.map((u) => u.patientRef)).toEqual(["CH-1003", "CH-1002", '=HYPERLINK("http://evil.example")']);
    expect(staff?.uses.map((u) => u.location.code)).toEqual(["DTN", "DTN", "DTN"]);
    expect(new Set(staff?.vials.map((v) => v.location.code))).toEqual(new Set(["DTN"]));
    expect(staff?.vials.find((v) => v.id === vials.DTN[0])).toMatchObject({ state: "in_use", unitsText: "85 U" });
    expect(staff?.vials.every((v) => ["sealed", "in_use", "in_transit"].includes(v.state))).toBe(true);

    const manager = await readRecallReport(t.db, at("manager", loc.WST), { variationId, lot: LOT });
    expect(manager?.uses.map((u) => [u.patientRef, u.unitsText, u.location.code])).toEqual([
      ["CH-2001", "30 U", "WST"],
    ]);

    const owner = await readRecallReport(t.db, at("owner", "all"), { variationId, lot: LOT });
    expect(owner?.uses).toHaveLength(4);
    expect(new Set(owner?.vials.map((v) => v.location.code))).toEqual(new Set(["DTN", "WST"]));
    expect(owner?.vials.length).toBe(vials.DTN.length + vials.WST.length);

    const never = await readRecallReport(t.db, at("owner", "all"), { variationId, lot: "NEVER-RECALLED" });
    expect(never).toMatchObject({ status: "never", uses: [], vials: [], recalls: [] });
    expect(await readRecallReport(t.db, at("owner", "all"), { variationId: "nope", lot: LOT })).toBeNull();
  });

  it("lifts a recall once, with a note, freeing the lot's vials everywhere (organization admins only)", async () => {
    expect(await liftRecall(t.db, at("staff", loc.DTN), { recallId, note: "Withdrawn" })).toMatchObject({
      refusal: "forbidden",
    });
    // Marking is any WRITE_PRODUCTS holder's; lifting frees vials at every location: the organization's.
    for (const [name, where] of [
      ["manager", loc.WST],
      ["admin", loc.DTN],
    ] as const) {
      expect(await liftRecall(t.db, at(name, where), { recallId, note: "Withdrawn" })).toMatchObject({
        refusal: "forbidden",
      });
    }
    expect((await recalledAt(loc.WST)).every((r) => r.recalled === 1)).toBe(true);
    expect(await liftRecall(t.db, at("owner", "all"), { recallId, note: " " })).toMatchObject({ refusal: "invalid" });
    expect(await liftRecall(t.db, at("owner", "all"), { recallId: "no-such", note: "Withdrawn" })).toMatchObject({
      refusal: "not_found",
    });
    const lifted = await liftRecall(t.db, at("owner", "all"), { recallId, note: "Notice withdrawn" });
    expect(lifted).toMatchObject({ ok: true, recall: { inForce: false, liftNote: "Notice withdrawn" } });
    expect(await t.lastActivity()).toMatchObject({ action: "lift_recall", entityId: recallId });
    for (const code of ["DTN", "WST"] as const) {
      expect((await recalledAt(loc[code])).every((r) => r.recalled === 0)).toBe(true);
    }
    expect(await liftRecall(t.db, at("owner", "all"), { recallId, note: "Again" })).toMatchObject({
      refusal: "already_lifted",
    });
    const report = await readRecallReport(t.db, at("owner", "all"), { variationId, lot: LOT });
    expect(report?.status).toBe("lifted");
    // The vial starts again, and the lot may be recalled anew.
    expect(await startVial(t.db, at("manager", loc.WST), { itemId: vials.WST[1] ?? "" })).toMatchObject({ ok: true });
    const anew = await markRecall(t.db, at("owner", "all"), { variationId, lot: LOT, note: "Second notice" });
    expect(anew).toMatchObject({ ok: true });
    expect((await readRecallReport(t.db, at("owner", "all"), { variationId, lot: LOT }))?.recalls).toHaveLength(2);
  });
});

// Last: the lot it recalls is another of the variation the tests above expect unrecalled.
describe("the GS1 lot rule of a recall", () => {
  it("refuses a lot a GS1 barcode could not carry, unless vials of the variation were received with it before that rule", async () => {
    const owner = at("owner", "all");
    const note = "Manufacturer notice 2026-11";
    const before = await t.activityCount();
    for (const lot of ["LOT💉1", "C8123 C3", "L".repeat(21)]) {
      expect(await markRecall(t.db, owner, { variationId, lot, note }), lot).toMatchObject({
        ok: false,
        refusal: "invalid",
        message: expect.stringMatching(/lot number (holds only what a GS1 barcode can|has at most 20 characters)/),
      });
    }
    expect(await markRecall(t.db, owner, { variationId, lot: "C8123\u0000C3", note })).toMatchObject({
      refusal: "invalid",
      message: expect.stringMatching(/invisible or control character \(U\+0000\)/),
    });
    expect(await t.activityCount()).toBe(before);
    // A lot typed with a space before the rule: its vials can still be recalled.
    const legacy = `OLD${Date.now().toString(36).toUpperCase()}`;
    await receiveVials(t.db, at("owner", loc.DTN), {
      locationId: loc.DTN,
      variationId,
      quantity: 1,
      lot: legacy,
      expirationDate: dateIn(365),
    });
    await t.db.run(sql`UPDATE items SET lot = ${`${legacy} A`} WHERE lot = ${legacy}`);
    const recalled = await markRecall(t.db, owner, { variationId, lot: `${legacy} A`, note });
    expect(recalled).toMatchObject({ ok: true, recall: { lot: `${legacy} A` } });
  });
});
