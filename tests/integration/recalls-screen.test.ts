// The /recalls screen against a real database: the lot is found first (a GET lookup of the lot,
// optionally narrowed to a product) instead of a select of every serialized variation; the lookup
// lists only the organization's variations holding the lot (else the lots that differ only in case
// or spacing), and marking from it asks to confirm, naming what it quarantines, then quarantines
// the lot; lifting is for organization admins; times read in the location's zone; the report's
// "Find lot" opens the report; its CSV answers a bad request in the one error shape.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../app/db/client.server";
import { recallsScreen } from "../../app/recalls/list.server";
import * as recallsRoute from "../../app/routes/_app.recalls._index";
import * as reportRoute from "../../app/routes/_app.recalls.report";
import * as csvRoute from "../../app/routes/recalls.report[.csv]";
import { lotRecalled } from "../../app/stock/quarantine.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let cookie = "";
let staffCookie = "";
let ownerCookie = "";
let variationId = "";
const LOT = "C8123C3"; // Botox 100 U, received at Downtown and at Westside by the demo seed.

type Loaded = Awaited<ReturnType<typeof recallsRoute.loader>>;
const load = async (path: string, as = cookie) =>
  (await recallsRoute.loader({ request: pageRequest(path, as), context: loadContext(t.db), params: {} })) as Loaded;

/** What the action answered: a redirect's status, or the problem the page shows again (a thrown screen too). */
async function post(form: Record<string, string>, as = cookie) {
  let answer: unknown;
  try {
    answer = await recallsRoute.action({
      request: formRequest(`/recalls?lot=${LOT}`, as, form),
      context: loadContext(t.db),
      params: {},
    });
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) return { status: answer.status, data: null };
  const { data, init } = answer as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: init?.status ?? 200, data };
}
const mark = (form: Record<string, string>) => post({ intent: "mark", lot: LOT, ...form });

/** The unused vials of the lot by location code, as the recall would hold them. */
const unusedByLocation = () =>
  t.db.all<{ code: string; vials: number }>(sql`SELECT l.code, count(*) AS vials FROM items AS i
    JOIN locations AS l ON l.id = i.location_id WHERE i.variation_id = ${variationId} AND i.lot = ${LOT}
      AND i.state IN ('sealed', 'in_use', 'in_transit') GROUP BY l.id ORDER BY lower(l.name)`);

beforeAll(async () => {
  t = await freshDatabase();
  const { loc } = await demoLocations(t.db);
  const manager = await signedIn(t.db, "manager"); // WRITE_PRODUCTS at Westside.
  cookie = await withLocationChoice(manager.cookie, loc.WST);
  staffCookie = (await signedIn(t.db, "staff")).cookie; // READ_INVENTORY at Downtown, no WRITE_PRODUCTS.
  ownerCookie = await withLocationChoice((await signedIn(t.db, "owner")).cookie, "all"); // Organization admin.
  const [item] = await t.db.all<{ variationId: string }>(
    sql`SELECT variation_id AS variationId FROM items WHERE lot = ${LOT} LIMIT 1`,
  );
  variationId = item?.variationId ?? "";
});

afterAll(() => t?.close());

describe("the recalls screen's lot lookup", () => {
  it("lists no variation until a lot is asked for, then the variations holding it", async () => {
    const empty = await load("/recalls");
    expect(empty.holders).toEqual([]);
    expect(empty).not.toHaveProperty("variations");

    const found = await load(`/recalls?lot=${LOT}`);
    expect(found.lookup).toEqual({ lot: LOT, product: "" });
    expect(found.holders).toEqual([
      {
        id: variationId,
        label: expect.stringMatching(/^Botox Cosmetic · /),
        recalled: false,
        report: `/recalls/report?variationId=${variationId}&lot=${LOT}`,
      },
    ]);
    expect((await load(`/recalls?lot=${LOT}&product=botox`)).holders.map((h) => h.id)).toEqual([variationId]);
    // A product search that matches other products only, a lot typed differently, a lot never received.
    expect((await load(`/recalls?lot=${LOT}&product=juvederm`)).holders).toEqual([]);
    expect((await load("/recalls?lot=c8123c3")).holders).toEqual([]);
    expect((await load("/recalls?lot=NEVER-RECEIVED")).holders).toEqual([]);
  });

  it("finds the lot for a reader too (to reach its report), and the report without a lot lists no variation", async () => {
    const found = await load(`/recalls?lot=${LOT}`, staffCookie);
    expect(found).toMatchObject({ canWrite: false, holders: [{ id: variationId, recalled: false }] });
    const picker = await reportRoute.loader({
      request: pageRequest("/recalls/report", staffCookie),
      context: loadContext(t.db),
      params: {},
    });
    expect(picker).toEqual({ report: null, asked: { lot: "" }, found: null });
  });

  it("offers the lots that differ only in case or spacing when the lot looked up is not found", async () => {
    expect((await load("/recalls?lot=c8123c3")).nearLots).toEqual([{ lot: LOT, find: `/recalls?lot=${LOT}` }]);
    expect((await load("/recalls?lot=c8123%20C3")).nearLots).toEqual([{ lot: LOT, find: `/recalls?lot=${LOT}` }]);
    expect((await load(`/recalls?lot=${LOT}`)).nearLots).toEqual([]);
    expect((await load("/recalls?lot=NEVER-RECEIVED")).nearLots).toEqual([]);
    expect((await load("/recalls?lot=c8123c3&product=juvederm")).nearLots).toEqual([]);
  });

  it("opens the report from the report's Find lot, or lists the lots it was probably meant to be", async () => {
    const find = async (lot: string) => {
      try {
        return await reportRoute.loader({
          request: pageRequest(`/recalls/report?lot=${encodeURIComponent(lot)}`, staffCookie),
          context: loadContext(t.db),
          params: {},
        });
      } catch (thrown) {
        return thrown;
      }
    };
    const opened = (await find(LOT)) as Response;
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`/recalls/report?variationId=${variationId}&lot=${LOT}`);
    expect(await find("c8123c3")).toEqual({
      report: null,
      asked: { lot: "c8123c3" },
      found: { holders: [], nearLots: [{ lot: LOT, find: `/recalls/report?lot=${LOT}` }] },
    });
    expect(await find("NEVER-RECEIVED")).toMatchObject({ found: { holders: [], nearLots: [] } });
  });

  it("answers the report CSV's missing or unknown variation in the one error shape, saying what is wrong", async () => {
    const csv = async (query: string) => {
      try {
        await csvRoute.loader({
          request: pageRequest(`/recalls/report.csv${query}`, staffCookie),
          context: loadContext(t.db),
          params: {},
        });
      } catch (thrown) {
        if (thrown instanceof Response) return { status: thrown.status, body: await thrown.json() };
        return { status: 0, body: thrown };
      }
      return { status: 200, body: null };
    };
    expect(await csv(`?lot=${LOT}`)).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/variationId=/), code: "invalid_request" },
    });
    expect(await csv(`?variationId=nope&lot=${LOT}`)).toEqual({
      status: 404,
      body: { error: expect.stringMatching(/variation does not exist/), code: "not_found" },
    });
  });

  it("finds only the organization's variations", async () => {
    const organization = uuidv7();
    const stranger = { id: uuidv7(), organizationRole: "ORGANIZATION_ADMIN" as const, locationRoles: [] };
    await t.db.batch([
      t.db.insert(schema.organizations).values({ id: organization, name: "Other Clinics" }),
      t.db.insert(schema.users).values({
        id: stranger.id,
        organizationId: organization,
        email: "stranger@other.clinic",
        firstName: "Sly",
        lastName: "Stranger",
        passwordHash: "x",
        organizationRole: "ORGANIZATION_ADMIN",
      }),
    ]);
    const actor = { ...stranger, locationId: "all" } as unknown as Parameters<typeof recallsScreen>[1];
    expect((await recallsScreen(t.db, actor, { lot: LOT, product: "" })).holders).toEqual([]);
  });

  it("asks to confirm a mark, naming how many vials at which locations it quarantines, and writes nothing", async () => {
    const before = await t.activityCount();
    const key = "recall-screen-review-01";
    const asked = await post({ intent: "review", variationId, lot: LOT, note: "Notice MN-1", idempotencyKey: key });
    const held = await unusedByLocation();
    expect(held.map((h) => h.code)).toEqual(["DTN", "WST"]);
    expect(asked).toMatchObject({
      status: 200,
      data: {
        intent: "review",
        review: {
          variationId,
          lot: LOT,
          note: "Notice MN-1",
          idempotencyKey: key,
          held: {
            vials: held.reduce((sum, h) => sum + Number(h.vials), 0),
            locations: held.map((h) => expect.objectContaining({ code: h.code, vials: Number(h.vials) })),
          },
          nearLots: [],
        },
      },
    });
    expect(await t.activityCount()).toBe(before);
    expect((await load(`/recalls?lot=${LOT}`)).holders[0]?.recalled).toBe(false);
    // A note missing is said on that variation's form, before any confirmation.
    expect(await post({ intent: "review", variationId, lot: LOT, note: "" })).toMatchObject({
      status: 400,
      data: { intent: "review", variationId, fieldErrors: { note: expect.any(String) } },
    });
  });

  it("marks the lot of a found variation recalled: its vials are quarantined; a refusal shows on that form", async () => {
    const key = "recall-screen-key-0001";
    const noNote = await mark({ variationId, note: " ", idempotencyKey: key });
    expect(noNote).toMatchObject({
      status: 400,
      data: { intent: "mark", variationId, fieldErrors: { note: expect.any(String) } },
    });

    expect(await mark({ variationId, note: "Manufacturer notice 2026-11", idempotencyKey: key })).toMatchObject({
      status: 302,
    });
    const quarantined = await t.db.all<{ recalled: number }>(sql`SELECT ${lotRecalled("items")} AS recalled
      FROM items WHERE items.variation_id = ${variationId} AND items.lot = ${LOT}`);
    expect(quarantined.length).toBeGreaterThan(1);
    expect(quarantined.every((r) => r.recalled === 1)).toBe(true);

    const after = await load(`/recalls?lot=${LOT}`);
    expect(after.holders).toEqual([expect.objectContaining({ id: variationId, recalled: true })]);
    expect(after.inForce.map((r) => r.lot)).toContain(LOT);

    // Marked again (a stale page): the refusal is the lot's, shown on that variation's form.
    const again = await mark({ variationId, note: "Again" });
    expect(again).toMatchObject({ status: 409, data: { variationId, fieldErrors: { lot: expect.any(String) } } });
    // Reviewed again (a stale page): the same refusal, before any confirmation.
    expect(await post({ intent: "review", variationId, lot: LOT, note: "Again" })).toMatchObject({
      status: 409,
      data: { variationId, fieldErrors: { lot: expect.any(String) } },
    });
  });

  it("asks to recall anyway a lot that holds no unused vial, and marks it only so confirmed", async () => {
    // Another lot, every vial of it used up: found by the lookup, but the recall would hold none.
    const [other] = await t.db.all<{ variationId: string; lot: string }>(sql`SELECT variation_id AS variationId, lot
      FROM items WHERE lot IS NOT NULL AND lot <> ${LOT} ORDER BY lot LIMIT 1`);
    if (!other) throw new Error("no other lot in the seed");
    await t.db.run(sql`UPDATE items SET state = 'empty', units_remaining = 0, ended_at = 0
      WHERE variation_id = ${other.variationId} AND lot = ${other.lot}`);
    const form = { variationId: other.variationId, lot: other.lot, note: "Notice MN-2" };
    const asked = await post({ intent: "review", ...form, idempotencyKey: "recall-screen-none-01" });
    expect(asked).toMatchObject({ status: 200, data: { review: { held: { vials: 0, locations: [] }, nearLots: [] } } });
    // Sent without the confirmation (a page older than the stock): refused on that variation's form.
    expect(await post({ intent: "mark", ...form })).toMatchObject({
      status: 409,
      data: { variationId: other.variationId, formError: expect.stringMatching(/No unused vial of lot/) },
    });
    expect(await post({ intent: "mark", ...form, confirmNoMatch: "true" })).toMatchObject({ status: 302 });
    expect((await load("/recalls")).inForce.map((r) => r.lot)).toContain(other.lot);
  });

  it("shows recall times in the location's zone, UTC in organization mode", async () => {
    const recall = (await load("/recalls")).inForce.find((r) => r.lot === LOT);
    expect(recall?.recalledAt?.title).toMatch(/\(America\/New_York\)$/);
    const everywhere = (await load("/recalls", ownerCookie)).inForce.find((r) => r.lot === LOT);
    expect(everywhere?.recalledAt?.title).toMatch(/\(UTC\)$/);
    const report = await reportRoute.loader({
      request: pageRequest(`/recalls/report?variationId=${variationId}&lot=${LOT}`, cookie),
      context: loadContext(t.db),
      params: {},
    });
    expect(report.report?.recall?.at?.title).toMatch(/\(America\/New_York\)$/);
  });

  it("lifts a recall for organization admins only; a manager who marks is not offered it", async () => {
    const recallId = (await load("/recalls")).inForce.find((r) => r.lot === LOT)?.id ?? "";
    expect(await load("/recalls")).toMatchObject({ canWrite: true, canLift: false });
    const lift = { intent: "lift", recallId, note: "Notice withdrawn" };
    expect(await post(lift)).toMatchObject({ status: 403 });
    expect((await load("/recalls")).inForce.map((r) => r.id)).toContain(recallId);
    expect(await load("/recalls", ownerCookie)).toMatchObject({ canWrite: true, canLift: true });
    expect(await post(lift, ownerCookie)).toMatchObject({ status: 302 });
    expect((await load("/recalls")).lifted.map((r) => r.id)).toContain(recallId);
  });

  it("shows under the lot why a new lot a GS1 barcode could not carry is refused", async () => {
    const emoji = await mark({ variationId, lot: "LOT💉1", note: "Manufacturer notice" });
    expect(emoji.status).toBeGreaterThanOrEqual(400);
    expect(emoji).toMatchObject({
      data: { variationId, fieldErrors: { lot: expect.stringMatching(/holds only what a GS1 barcode can/) } },
    });
  });
});
