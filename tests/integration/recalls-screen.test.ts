// The /recalls screen against a real database: the lot is found first (a GET lookup of the lot,
// optionally narrowed to a product) instead of a select of every serialized variation; the lookup
// lists only the organization's variations holding the lot, and marking from it quarantines the lot.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../app/db/client.server";
import { recallsScreen } from "../../app/recalls/list.server";
import { lotRecalled } from "../../app/recalls/quarantine.server";
import * as recallsRoute from "../../app/routes/_app.recalls._index";
import * as reportRoute from "../../app/routes/_app.recalls.report";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let cookie = "";
let staffCookie = "";
let variationId = "";
const LOT = "C8123C3"; // Botox 100 U, received at Downtown and at Westside by the demo seed.

type Loaded = Awaited<ReturnType<typeof recallsRoute.loader>>;
const load = async (path: string, as = cookie) =>
  (await recallsRoute.loader({ request: pageRequest(path, as), context: loadContext(t.db), params: {} })) as Loaded;

/** What the action answered: a redirect's status, or the problem the page shows again. */
async function mark(form: Record<string, string>) {
  const answer: unknown = await recallsRoute.action({
    request: formRequest(`/recalls?lot=${LOT}`, cookie, { intent: "mark", lot: LOT, ...form }),
    context: loadContext(t.db),
    params: {},
  });
  if (answer instanceof Response) return { status: answer.status, data: null };
  const { data, init } = answer as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: init?.status ?? 200, data };
}

beforeAll(async () => {
  t = await freshDatabase();
  const { loc } = await demoLocations(t.db);
  const manager = await signedIn(t.db, "manager"); // WRITE_PRODUCTS at Westside.
  cookie = await withLocationChoice(manager.cookie, loc.WST);
  staffCookie = (await signedIn(t.db, "staff")).cookie; // READ_INVENTORY at Downtown, no WRITE_PRODUCTS.
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
    expect(picker).toEqual({ report: null, asked: { lot: "" } });
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
  });

  it("shows under the lot why a new lot a GS1 barcode could not carry is refused", async () => {
    const emoji = await mark({ variationId, lot: "LOT💉1", note: "Manufacturer notice" });
    expect(emoji.status).toBeGreaterThanOrEqual(400);
    expect(emoji).toMatchObject({
      data: { variationId, fieldErrors: { lot: expect.stringMatching(/holds only what a GS1 barcode can/) } },
    });
  });
});
