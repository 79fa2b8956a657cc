// The inventory screen and a vial's history against a real database: the filters (state, product,
// lot, expiring within N days, recall), the scope (another location's vial is absent from the list
// and a 404 on its page; organization mode sees every location), the bulk quantities beside the
// vials, one batch a page; and the history the verbs leave, newest first, with who and what.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { inventoryQueryOf, inventoryScreen } from "../../app/inventory/screen.server";
import * as listScreen from "../../app/routes/_app.inventory._index";
import * as vialScreen from "../../app/routes/_app.inventory.$itemId";
import { readVials, vialQueryOf } from "../../app/stock/vials.server";
import { takeFlashToast } from "../../app/ui/flash.server";
import { discardVial } from "../../app/vials/discard.server";
import { drawUnits } from "../../app/vials/draw.server";
import { emptyVial } from "../../app/vials/empty.server";
import { VIAL_MESSAGES } from "../../app/vials/forms";
import { readVialHistory } from "../../app/vials/history.server";
import { startVial } from "../../app/vials/start.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials } from "../support/receive";
import { formRequest, loadContext, pageRequest, signedIn, withLocationChoice } from "../support/screens";

type Code = "DTN" | "WST" | "NTH";
let t: TestDatabase;
let loc: Record<Code, string>;
let organizationId: string;
const users = new Map<string, SessionUser>();
const cookies = new Map<string, string>();
let botox: { productId: string; variationId: string };
let dysport: { productId: string; variationId: string };
let gauzeProductId: string;
let serviceId: string;

const DAY = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

function as(name: string, where: Code | typeof ORGANIZATION = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

async function variationOf(product: string, name: string) {
  const [row] = await t.db
    .select({ variationId: schema.productVariations.id, productId: schema.products.id })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
    .where(and(eq(schema.products.name, product), eq(schema.productVariations.name, name)));
  if (!row) throw new Error(`no variation ${product} · ${name}`);
  return row;
}

let lots = 0;
/** Sealed vials of a fresh lot, received as receiving makes them: the lot and the vials' ids. */
async function receive(variationId: string, quantity: number, where: "DTN" | "WST", expiresInDays = 200) {
  const by = as(where === "DTN" ? "admin" : "manager", where);
  const lot = `INV${++lots}-${Date.now().toString(36).toUpperCase()}`;
  const ids = await receiveVials(t.db, by, {
    locationId: loc[where],
    variationId,
    quantity,
    lot,
    expirationDate: day(expiresInDays),
  });
  return { lot, ids };
}

/** The inventory screen as `actor` reads it with these URL parameters. */
async function screen(actor: ScopedActor, params: Record<string, string> = {}) {
  const ids = actor.locationId === ORGANIZATION ? Object.values(loc) : [actor.locationId ?? ""];
  return inventoryScreen(t.db, actor, ids, inventoryQueryOf(new URLSearchParams(params)));
}
const idsOf = (page: Awaited<ReturnType<typeof screen>>) => page.vials.items.map((v) => v.id);

let sealedLot: { lot: string; ids: string[] };
let soonLot: { lot: string; ids: string[] };
let westLot: { lot: string; ids: string[] };
let recalledLot: { lot: string; ids: string[] };
let opened: string;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  for (const name of ["admin", "manager", "staff", "owner", "multi"]) {
    const { user, cookie } = await signedIn(t.db, name);
    users.set(name, user);
    cookies.set(name, cookie);
  }
  botox = await variationOf("Botox Cosmetic", "100 U vial");
  dysport = await variationOf("Dysport", "300 U vial");
  ({ productId: gauzeProductId } = await variationOf("Gauze 2x2", "Pack of 200"));
  const [service] = await t.db
    .select({ id: schema.services.id })
    .from(schema.services)
    .where(and(eq(schema.services.organizationId, organizationId), eq(schema.services.active, true)))
    .limit(1);
  serviceId = service?.id ?? "";

  sealedLot = await receive(botox.variationId, 2, "DTN");
  soonLot = await receive(botox.variationId, 1, "DTN", 5);
  westLot = await receive(botox.variationId, 1, "WST");
  recalledLot = await receive(dysport.variationId, 1, "DTN");
  await t.db.insert(schema.lotRecalls).values({
    organizationId,
    variationId: dysport.variationId,
    lot: recalledLot.lot,
    note: "Manufacturer recall notice (test)",
    recalledBy: users.get("owner")?.id ?? null,
    recalledAt: new Date(),
  });
  opened = sealedLot.ids[0] as string;
  const started = await startVial(t.db, as("admin"), { itemId: opened });
  if (!started.ok) throw new Error(started.message);
});
afterAll(() => t.close());

describe("the inventory list", () => {
  it("filters by lot, and by state", async () => {
    const staff = as("staff");
    expect(idsOf(await screen(staff, { lot: sealedLot.lot })).sort()).toEqual([...sealedLot.ids].sort());
    expect(idsOf(await screen(staff, { lot: sealedLot.lot, state: "in_use" }))).toEqual([opened]);
    expect(idsOf(await screen(staff, { lot: sealedLot.lot, state: "sealed" }))).toEqual([sealedLot.ids[1]]);
  });

  it("filters by product: another product's vials and the bulk stock of others are left out", async () => {
    const page = await screen(as("staff"), { productId: dysport.productId });
    expect(new Set(page.vials.items.map((v) => v.productId))).toEqual(new Set([dysport.productId]));
    expect(idsOf(page)).toContain(recalledLot.ids[0]);
    // A bulk product's filter lists its quantity and no vials.
    const gauze = await screen(as("staff"), { productId: gauzeProductId });
    expect(gauze.vials.total).toBe(0);
    expect(gauze.bulk?.items.map((l) => [l.productId, l.locationId])).toEqual([[gauzeProductId, loc.DTN]]);
    expect(gauze.bulk?.items[0]?.onHand).toBeGreaterThan(0);
  });

  it("searches products by name as the catalogue does, and names the one product a link chose", async () => {
    const dysports = await screen(as("staff"), { product: "DYSPORT" });
    expect(new Set(dysports.vials.items.map((v) => v.productId))).toEqual(new Set([dysport.productId]));
    expect(idsOf(dysports)).toContain(recalledLot.ids[0]);
    expect(dysports.chosen).toBeNull();
    // The bulk rows take the same search: gauze by name, and no vials.
    const gauze = await screen(as("staff"), { product: "gauze" });
    expect(gauze.vials.total).toBe(0);
    expect(gauze.bulk?.items.map((l) => l.productId)).toEqual([gauzeProductId]);
    expect((await screen(as("staff"), { product: "no such product" })).vials.items).toEqual([]);
    // A product chosen by id shows by name (the filter offers it and "All products", not every product).
    const chosen = await screen(as("staff"), { productId: dysport.productId });
    expect(chosen.chosen).toMatchObject({ name: "productId", id: dysport.productId, label: "Dysport" });
    // Another organization's product id names nothing.
    expect((await screen(as("staff"), { productId: "not-a-product" })).chosen).toBeNull();
  });

  it("filters by expiry within N days (the soonest first) and by recall", async () => {
    const soon = idsOf(await screen(as("staff"), { productId: botox.productId, expiringWithinDays: "7" }));
    expect(soon).toContain(soonLot.ids[0]);
    expect(soon).not.toContain(sealedLot.ids[1]);
    expect(idsOf(await screen(as("staff"), { lot: soonLot.lot, expiringWithinDays: "3" }))).toEqual([]);

    const recalled = await screen(as("staff"), { recalled: "true" });
    expect(idsOf(recalled)).toEqual(recalledLot.ids);
    expect(recalled.vials.items[0]?.recalled).toBe(true);
    expect(idsOf(await screen(as("staff"), { recalled: "false" }))).not.toContain(recalledLot.ids[0]);
    // Bulk stock has no state, lot, expiry or recall: with those filters it is not listed.
    expect(recalled.bulk).toBeNull();
  });

  it("lists only the location in scope; organization mode every location, in one batch", async () => {
    const downtown = idsOf(await screen(as("staff"), { productId: botox.productId, state: "sealed,in_use" }));
    expect(downtown).not.toContain(westLot.ids[0]);
    expect(downtown).toContain(opened);
    const west = await screen(as("manager", "WST"), { lot: westLot.lot });
    expect(idsOf(west)).toEqual(westLot.ids);
    t.resetRoundTrips();
    const everywhere = await screen(as("owner", ORGANIZATION), { productId: botox.productId });
    expect(t.roundTrips()).toBe(1);
    expect(idsOf(everywhere)).toEqual(expect.arrayContaining([opened, westLot.ids[0]]));
    expect(new Set(everywhere.vials.items.map((v) => v.location.code))).toEqual(new Set(["DTN", "WST"]));
  });

  it("GET /api/vials takes the same product and recall filters", async () => {
    const page = await readVials(
      t.db,
      as("staff"),
      [loc.DTN],
      vialQueryOf(new URLSearchParams({ productId: dysport.productId, recalled: "true" })),
    );
    expect(page.items.map((v) => v.id)).toEqual(recalledLot.ids);
    const none = vialQueryOf(new URLSearchParams({ recalled: "" }));
    expect(none.recalled).toBeNull();
  });

  it("renders the page through its loader, with the filters it was given", async () => {
    const cookie = await withLocationChoice(cookies.get("staff") ?? "", loc.DTN);
    const args = {
      request: pageRequest(`/inventory?lot=${sealedLot.lot}&state=in_use`, cookie),
      context: loadContext(t.db),
      params: {},
    };
    const page = await listScreen.loader(args);
    expect(page.vials.map((v) => v.id)).toEqual([opened]);
    expect(page.filters).toMatchObject({ lot: sealedLot.lot, state: "in_use" });
    expect(page.vials[0]).toMatchObject({ unitsLeft: "100 U", state: "in_use" });
  });
});

describe("the inventory's keyset pages", () => {
  /** Every page of `params` as `actor` reads it, `pageSize` at a time: forward by `next`, then back by `previous`. */
  async function walk(actor: ScopedActor, params: Record<string, string>, pageSize: number) {
    const ids = actor.locationId === ORGANIZATION ? Object.values(loc) : [actor.locationId ?? ""];
    const read = (cursor: Record<string, string>) =>
      readVials(
        t.db,
        actor,
        ids,
        vialQueryOf(new URLSearchParams({ ...params, pageSize: String(pageSize), ...cursor })),
      );
    const forward: string[][] = [];
    let page = await read({});
    expect(page.previous).toBeNull();
    forward.push(page.items.map((v) => v.id));
    while (page.next && forward.length < 50) {
      page = await read({ after: page.next });
      forward.push(page.items.map((v) => v.id));
    }
    const back: string[][] = [forward[forward.length - 1] ?? []];
    while (page.previous && back.length < 50) {
      page = await read({ before: page.previous });
      back.unshift(page.items.map((v) => v.id));
    }
    return { forward, back, all: await read({ pageSize: "100" }) };
  }

  it("walks every page forward and back, ties on expiry and receipt broken by id, each vial once", async () => {
    // Two lots of one expiry, each received at one instant: long runs of ties on both keys.
    const a = await receive(botox.variationId, 4, "DTN", 90);
    const b = await receive(dysport.variationId, 3, "DTN", 90);
    for (const [actor, params] of [
      [as("staff"), {}],
      [as("staff"), { state: "sealed" }],
      [as("staff"), { state: ["sealed", "in_use", "empty", "discarded", "in_transit"].join(",") }],
      [as("owner", ORGANIZATION), {}],
      [as("owner", ORGANIZATION), { productId: botox.productId }],
    ] as const) {
      const { forward, back, all } = await walk(actor, params, 3);
      const walked = forward.flat();
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked).toEqual(all.items.map((v) => v.id));
      expect(back).toEqual(forward);
      expect(forward.slice(0, -1).every((p) => p.length === 3)).toBe(true);
      // In the list's order: soonest expiry, then received, then id.
      const keys = all.items.map((v) => [v.expirationDate ?? "undated", v.receivedAt.getTime(), v.id].join("|"));
      expect(keys).toEqual([...keys].sort());
      expect(all).toMatchObject({ total: walked.length, totalExact: true, next: null, previous: null });
    }
    expect((await walk(as("staff"), { lot: a.lot }, 1)).forward).toHaveLength(4);
    expect((await walk(as("staff"), { lot: b.lot }, 2)).forward.flat().sort()).toEqual([...b.ids].sort());
  });

  it("shows the first page for a cursor it did not make", async () => {
    const first = await screen(as("staff"));
    expect(idsOf(await screen(as("staff"), { after: "not-a-cursor" }))).toEqual(idsOf(first));
    expect(idsOf(await screen(as("staff"), { before: "WzEsMl0" }))).toEqual(idsOf(first));
  });
});

const vialArgs = async (itemId: string, name: string, where: Code | typeof ORGANIZATION) => ({
  request: pageRequest(
    `/inventory/${itemId}`,
    await withLocationChoice(cookies.get(name) ?? "", where === ORGANIZATION ? ORGANIZATION : loc[where]),
  ),
  context: loadContext(t.db),
  params: { itemId },
});

describe("a vial's page and history", () => {
  const statusOf = async (work: () => Promise<unknown>) => {
    try {
      const answer = await work();
      return answer instanceof Response ? answer.status : 200;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      return (thrown as { init?: ResponseInit | null }).init?.status ?? 500;
    }
  };

  it("tells the whole story newest first: received, started, drawn twice, discarded, with who and what", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN")).ids as [string];
    const admin = as("admin");
    expect((await startVial(t.db, admin, { itemId })).ok).toBe(true);
    const first = await drawUnits(t.db, admin, {
      itemId,
      units: "20",
      serviceId,
      provider: "Dr. Lee",
      patientRef: "CH-1001",
    });
    expect(first.ok).toBe(true);
    expect((await drawUnits(t.db, as("staff"), { itemId, units: "12", patientRef: "CH-1002" })).ok).toBe(true);
    expect((await discardVial(t.db, admin, { itemId, reason: "other", note: "Dropped on the floor" })).ok).toBe(true);

    t.resetRoundTrips();
    const found = await readVialHistory(t.db, as("staff"), itemId);
    expect(t.roundTrips()).toBe(1);
    expect(found?.vial).toMatchObject({ id: itemId, state: "discarded", unitsRemaining: 0 });
    const rows = found?.history.map((h) => [h.kind, h.unitsText, h.userName, h.patientRef, h.reason, h.note]);
    expect(rows).toEqual([
      ["discarded", "-68 U", "Adam Admin", null, "other", "Dropped on the floor"],
      ["drawn", "-12 U", "Sam Staff", "CH-1002", null, null],
      ["drawn", "-20 U", "Adam Admin", "CH-1001", null, null],
      ["started", null, "Adam Admin", null, null, null],
      ["received", "+100 U", "Adam Admin", null, null, null],
    ]);
    const drawn = found?.history[2];
    expect(drawn).toMatchObject({ serviceId, provider: "Dr. Lee", source: "USE" });
    expect(drawn?.serviceName).toBeTruthy();
  });

  it("names the witness of a controlled substance's waste", async () => {
    await t.db.update(schema.products).set({ controlled: true }).where(eq(schema.products.id, dysport.productId));
    const [itemId] = (await receive(dysport.variationId, 1, "DTN")).ids as [string];
    expect((await startVial(t.db, as("admin"), { itemId })).ok).toBe(true);
    // Its page asks for a witness on empty and discard.
    const page = await vialScreen.loader(await vialArgs(itemId, "admin", "DTN"));
    expect(page.actions).toMatchObject({ empty: true, discard: true, witness: true });
    expect(page.vial.controlled).toBe(true);
    const emptied = await emptyVial(t.db, as("admin"), {
      itemId,
      witness: { email: "staff@demo.clinic", password: DEMO_PASSWORD },
    });
    expect(emptied.ok).toBe(true);
    const found = await readVialHistory(t.db, as("admin"), itemId);
    expect(found?.history[0]).toMatchObject({ kind: "emptied", units: -300, witnessName: "Sam Staff" });
    await t.db.update(schema.products).set({ controlled: false }).where(eq(schema.products.id, dysport.productId));
  });

  it("is not there at another location, and is in organization mode", async () => {
    const west = westLot.ids[0] as string;
    expect(await readVialHistory(t.db, as("staff"), west)).toBeNull();
    // multi works at Downtown and North: standing at Downtown, a West vial is simply not there.
    expect(await readVialHistory(t.db, as("admin", "DTN"), west)).toBeNull();
    expect((await readVialHistory(t.db, as("owner", ORGANIZATION), west))?.vial.location.code).toBe("WST");
    expect(await statusOf(async () => vialScreen.loader(await vialArgs(west, "staff", "DTN")))).toBe(404);
    expect(await statusOf(async () => vialScreen.loader(await vialArgs(west, "owner", ORGANIZATION)))).toBe(200);
  });

  it("offers only the actions this user may take as the vial stands", async () => {
    const sealed = sealedLot.ids[1] as string;
    const page = await vialScreen.loader(await vialArgs(sealed, "staff", "DTN"));
    expect(page.actions).toMatchObject({ start: true, draw: true, empty: false, discard: true });
    // A recalled vial is quarantined: only a discard.
    const recalled = await vialScreen.loader(await vialArgs(recalledLot.ids[0] as string, "staff", "DTN"));
    expect(recalled.actions).toMatchObject({ start: false, draw: false, empty: false, discard: true });
    // The owner in organization mode may act anywhere; at a vial's page a reader's role decides.
    const opened = await vialScreen.loader(await vialArgs(sealedLot.ids[0] as string, "owner", ORGANIZATION));
    expect(opened.actions).toMatchObject({ start: false, draw: true, empty: true, discard: true });
  });

  it("posts: a draw with a patient reference, a discard without a reason refused under its field", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN")).ids as [string];
    const cookie = await withLocationChoice(cookies.get("staff") ?? "", loc.DTN);
    const post = (form: Record<string, string>) =>
      vialScreen.action({
        request: formRequest(`/inventory/${itemId}`, cookie, form),
        context: loadContext(t.db),
        params: { itemId },
      });
    const drawn = await post({ intent: "draw", units: "15", patientRef: "CH-2001", serviceId: "", provider: "" });
    expect(drawn instanceof Response && drawn.status).toBe(302);
    expect((drawn as Response).headers.get("Location")).toBe(`/inventory/${itemId}`);
    const refused = (await post({ intent: "discard", reason: "", note: "" })) as unknown as {
      data: { fieldErrors: Record<string, string>; intent: string };
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data).toMatchObject({ intent: "discard", fieldErrors: { reason: VIAL_MESSAGES.reason } });
    const tooMuch = (await post({ intent: "draw", units: "500" })) as unknown as {
      data: { fieldErrors: Record<string, string> };
    };
    expect(tooMuch.data.fieldErrors.units).toMatch(/Not enough left in this vial/);
    const found = await readVialHistory(t.db, as("staff"), itemId);
    expect(found?.vial.unitsRemaining).toBe(85);
    expect(found?.history[0]).toMatchObject({ kind: "drawn", patientRef: "CH-2001", userName: "Sam Staff" });
  });
});

describe("the vial page's forms at the cart", () => {
  type Answer = { data: Record<string, unknown>; init: ResponseInit | null };
  async function poster(itemId: string, name = "staff") {
    const cookie = await withLocationChoice(cookies.get(name) ?? "", loc.DTN);
    return async (form: Record<string, string>) =>
      (await vialScreen.action({
        request: formRequest(`/inventory/${itemId}`, cookie, form),
        context: loadContext(t.db),
        params: { itemId },
      })) as unknown as Response | Answer;
  }
  const toastOf = async (answer: Response | Answer) => {
    const cookie = (answer as Response).headers.get("Set-Cookie") ?? "";
    return (await takeFlashToast(new Request("http://x/", { headers: { Cookie: cookie.split(";")[0] ?? "" } }))).toast;
  };
  const stateOf = async (itemId: string) => (await readVialHistory(t.db, as("staff"), itemId))?.vial;

  it("a draw that starts a vial says so in its toast: when, until when, what was drawn and what is left", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN")).ids as [string];
    const post = await poster(itemId);
    const drawn = await post({ intent: "draw", units: "20", patientRef: "10442", idempotencyKey: "" });
    expect(drawn instanceof Response && drawn.status).toBe(302);
    expect((await toastOf(drawn))?.description).toMatch(
      /^Started now; use by \w{3} \d+, \d+:\d\d \w+ \(24 h\)\. Drew 20 U for chart 10442; 80 U left\.$/,
    );
    const again = await post({ intent: "draw", units: "5", patientRef: "", idempotencyKey: "" });
    expect((await toastOf(again))?.description).toBe("Drew 5 U; 75 U left.");
  });

  it("asks before an empty wastes units, naming them and their value at cost; the confirmation writes once", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN")).ids as [string];
    await t.db.run(sql`UPDATE items SET cost_cents = 30000 WHERE id = ${itemId}`);
    const post = await poster(itemId);
    await post({ intent: "draw", units: "27", idempotencyKey: "" });
    const key = "k-empty-confirm-0001";
    const asked = (await post({ intent: "empty", idempotencyKey: key })) as Answer;
    expect(asked.init?.status ?? 200).toBe(200);
    expect(asked.data).toMatchObject({
      intent: "empty",
      formError: null,
      ask: {
        question: "Empty this vial? 73 U of Botox Cosmetic, $219.00 at cost, will be booked as waste.",
        wasting: 73,
      },
    });
    // A double tap of the first button only asks again.
    await post({ intent: "empty", idempotencyKey: key });
    expect(await stateOf(itemId)).toMatchObject({ state: "in_use", unitsRemaining: 73 });

    const confirmed = await post({ intent: "empty", idempotencyKey: key, confirmWaste: "73" });
    expect(confirmed instanceof Response && confirmed.status).toBe(302);
    const twice = await post({ intent: "empty", idempotencyKey: key, confirmWaste: "73" });
    expect(twice instanceof Response && twice.status).toBe(302);
    expect(await stateOf(itemId)).toMatchObject({ state: "empty", unitsRemaining: 0 });
    const [{ n } = { n: 0 }] = await t.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM activity_log WHERE entity_id = ${itemId} AND action = 'empty_vial'`,
    );
    expect(n).toBe(1);
  });

  it("asks again when the units confirmed are not the units left, and a discard names its reason", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN")).ids as [string];
    await t.db.run(sql`UPDATE items SET cost_cents = 40000 WHERE id = ${itemId}`);
    const post = await poster(itemId);
    const stale = (await post({ intent: "discard", reason: "damaged", note: "", confirmWaste: "60" })) as Answer;
    expect(stale.data.ask).toEqual({
      question: "Discard this vial (Damaged)? 100 U of Botox Cosmetic, $400.00 at cost, will be lost.",
      wasting: 100,
    });
    expect(await stateOf(itemId)).toMatchObject({ state: "sealed", unitsRemaining: 100 });
    const confirmed = await post({ intent: "discard", reason: "damaged", note: "", confirmWaste: "100" });
    expect(confirmed instanceof Response && confirmed.status).toBe(302);
    expect(await stateOf(itemId)).toMatchObject({ state: "discarded", discardReason: "damaged" });
  });

  it("says why an expired vial cannot be started where start and draw were, and presets the discard as expired", async () => {
    const [itemId] = (await receive(botox.variationId, 1, "DTN", -3)).ids as [string];
    const page = await vialScreen.loader(await vialArgs(itemId, "staff", "DTN"));
    expect(page.actions).toMatchObject({ start: false, draw: false, discard: true });
    expect(page.closed).toEqual({
      refusal: "manufacturer_expired",
      message: expect.stringMatching(/^Expired on \w{3} \d+, \d{4}: it cannot be started\. Discard it as expired\.$/),
      discardAs: "expired",
    });
  });
});
