// The vial lifecycle verbs against a real database (ADR 0016): start, draw, empty, discard, the
// witness of a controlled substance's waste and the waste job at the Use-By Deadline. Each write is
// one batch with its movement and activity row; each refusal names its reason and writes nothing.
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { schema } from "../../app/db/client.server";
import { TEXT_MESSAGES } from "../../app/forms/text";
import { readUsage } from "../../app/usage/list.server";
import { UsageQuery } from "../../app/usage/query";
import { createUser } from "../../app/users/create.server";
import { changeOwnPassword, resetPassword } from "../../app/users/password.server";
import { discardVial } from "../../app/vials/discard.server";
import { drawUnits } from "../../app/vials/draw.server";
import { emptyVial } from "../../app/vials/empty.server";
import { VIAL_MESSAGES } from "../../app/vials/forms";
import { VIAL_REFUSALS } from "../../app/vials/outcome";
import { NO_EXPIRATION_MESSAGE } from "../../app/vials/rules";
import { startVial } from "../../app/vials/start.server";
import { wasteAtDeadline } from "../../app/vials/waste.server";
import { WITNESS_MESSAGES } from "../../app/vials/witness.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials, variationNamed } from "../support/receive";
import { signedIn } from "../support/screens";

type Where = "DTN" | "WST" | "NTH" | typeof ORGANIZATION;

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();
let BOTOX: string; // 100 U, scale 1, 24 h beyond use
let JUVEDERM: string; // 1 mL = 100 base, scale 100, no beyond-use hours
let DYSPORT: string; // made a controlled substance below

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

function as(name: string, where: Where = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

const variation = (product: string, name: string) => variationNamed(t.db, product, name);

let lotCounter = 0;
/** Fresh sealed vials received the way receiving makes them; their ids. */
async function receive(
  variationId: string,
  quantity = 1,
  { where = "DTN", expiresInDays = 200 }: { where?: "DTN" | "WST"; expiresInDays?: number } = {},
): Promise<string[]> {
  const by = as(where === "DTN" ? "admin" : "manager", where);
  const lot = `VT${++lotCounter}`;
  return receiveVials(t.db, by, {
    locationId: loc[where],
    variationId,
    quantity,
    lot,
    expirationDate: day(expiresInDays),
  });
}

async function one(variationId: string, options?: Parameters<typeof receive>[2]): Promise<string> {
  const [id] = await receive(variationId, 1, options);
  if (!id) throw new Error("nothing received");
  return id;
}

async function item(id: string) {
  const [row] = await t.db.select().from(schema.items).where(eq(schema.items.id, id));
  if (!row) throw new Error(`no item ${id}`);
  return row;
}

/** Everything a vial verb writes, counted in one batch: a refusal leaves all of it as it was. */
async function written() {
  const [movements, usage, activity, keys, items, levels] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.stockMovements),
    t.db.select({ n: count() }).from(schema.usageEntries),
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || state || units_remaining || coalesce(expires_at, ''), ',')
      AS sig FROM (SELECT * FROM items ORDER BY id)`),
    t.db.all<{ total: number }>(sql`SELECT sum(on_hand) AS total FROM stock_levels`),
  ]);
  return {
    movements: movements[0]?.n,
    usage: usage[0]?.n,
    activity: activity[0]?.n,
    keys: keys[0]?.n,
    items: items[0]?.sig,
    onHand: Number(levels[0]?.total),
  };
}

/** The item's movements as the ledger holds them. */
async function movementsOf(itemId: string) {
  // In the order they were written: a draw's movement may be dated before the receipt's (its usedAt).
  return t.db
    .select()
    .from(schema.stockMovements)
    .where(eq(schema.stockMovements.itemId, itemId))
    .orderBy(sql`${schema.stockMovements}.rowid`);
}

async function recall(variationId: string, itemId: string) {
  const { lot } = await item(itemId);
  const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
  await t.db.insert(schema.lotRecalls).values({
    organizationId: org?.id ?? "",
    variationId,
    lot: lot ?? "",
    note: "Manufacturer recall notice",
    recalledAt: new Date(),
  });
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff", "multi", "newhire"]) {
    users.set(name, (await signedIn(t.db, name)).user);
  }
  BOTOX = await variation("Botox Cosmetic", "100 U vial");
  JUVEDERM = await variation("Juvederm Ultra XC", "1 mL syringe");
  DYSPORT = await variation("Dysport", "300 U vial");
  await t.db.run(sql`UPDATE products SET controlled = 1 WHERE name = 'Dysport'`);
});
afterAll(() => t.close());

describe("start", () => {
  it("opens a sealed vial: in use, deadline = min(end of its expiration day, now + beyond-use hours), no movement", async () => {
    const soon = await one(BOTOX, { expiresInDays: 0 }); // today's end comes before 24 h from now (most of the day)
    const later = await one(BOTOX);
    const syringe = await one(JUVEDERM, { expiresInDays: 3 });
    const now = new Date(`${day(0)}T06:00:00.000Z`);
    const before = await written();
    const started = await startVial(t.db, as("staff"), { itemId: later }, { now });
    expect(started).toMatchObject({ ok: true, vial: { id: later, state: "in_use", unitsRemaining: 100 } });
    if (!started.ok) return;
    expect(started.vial.startedAt).toEqual(now);
    expect(started.vial.expiresAt).toEqual(new Date(now.getTime() + 24 * HOUR));
    const after = await written();
    expect(after).toMatchObject({
      movements: before.movements,
      onHand: before.onHand,
      activity: (before.activity ?? 0) + 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "start_vial",
      entity: "item",
      entityId: later,
      locationId: loc.DTN,
    });

    const today = await startVial(t.db, as("staff"), { itemId: soon }, { now });
    expect(today.ok && today.vial.expiresAt).toEqual(new Date(`${day(0)}T23:59:59.999Z`));
    const filler = await startVial(t.db, as("staff"), { itemId: syringe }, { now });
    expect(filler.ok && filler.vial.expiresAt).toEqual(new Date(`${day(3)}T23:59:59.999Z`));
  });

  it("refuses a started, expired, undated or recalled vial, saying which, and writes nothing", async () => {
    const started = await one(BOTOX);
    await startVial(t.db, as("staff"), { itemId: started });
    const expired = await one(BOTOX, { expiresInDays: -3 });
    const recalled = await one(BOTOX);
    await recall(BOTOX, recalled);
    const undated = await one(BOTOX);
    await t.db.run(sql`UPDATE items SET expiration_date = NULL WHERE id = ${undated}`);
    const before = await written();
    expect(await startVial(t.db, as("staff"), { itemId: started })).toMatchObject({ ok: false, refusal: "not_sealed" });
    expect(await startVial(t.db, as("staff"), { itemId: expired })).toEqual({
      ok: false,
      refusal: "manufacturer_expired",
      message: VIAL_REFUSALS.manufacturer_expired,
    });
    expect(await startVial(t.db, as("staff"), { itemId: recalled })).toEqual({
      ok: false,
      refusal: "recalled",
      message: VIAL_REFUSALS.recalled,
    });
    expect(await startVial(t.db, as("staff"), { itemId: undated })).toEqual({
      ok: false,
      refusal: "manufacturer_expired",
      message: NO_EXPIRATION_MESSAGE,
    });
    expect(await written()).toEqual(before);
  });

  it("reaches only vials at the location in scope with WRITE_INVENTORY there", async () => {
    const west = await one(BOTOX, { where: "WST" });
    const here = await one(BOTOX);
    const before = await written();
    expect(await startVial(t.db, as("staff"), { itemId: west })).toMatchObject({ refusal: "not_found" });
    expect(await startVial(t.db, as("staff"), { itemId: "no-such-vial" })).toMatchObject({ refusal: "not_found" });
    expect(await startVial(t.db, as("staff"), { itemId: "x".repeat(10_000) })).toMatchObject({ refusal: "not_found" });
    // Standing at West, admin reaches West's vial, not Downtown's; a user without a role here is refused.
    expect(await startVial(t.db, as("admin", "WST"), { itemId: here })).toMatchObject({ refusal: "not_found" });
    expect(await startVial(t.db, as("newhire"), { itemId: here })).toMatchObject({ refusal: "forbidden" });
    expect(await written()).toEqual(before);
    // Organization mode reaches every location of the organization.
    expect(await startVial(t.db, as("owner", ORGANIZATION), { itemId: west })).toMatchObject({ ok: true });
  });
});

describe("start times", () => {
  const receivedDaysAgo = async (id: string, days: number) =>
    t.db.run(sql`UPDATE items SET received_at = ${Date.now() - days * DAY} WHERE id = ${id}`);

  it("a start named when it happened (recorded at 10:00, sent at 14:00) counts its deadline from then", async () => {
    const id = await one(BOTOX);
    await receivedDaysAgo(id, 2);
    const startedAt = new Date(Date.now() - 4 * HOUR);
    const started = await startVial(t.db, as("staff"), { itemId: id, startedAt: startedAt.toISOString() });
    expect(started).toMatchObject({
      ok: true,
      vial: { state: "in_use", startedAt, expiresAt: new Date(startedAt.getTime() + 24 * HOUR) },
    });
    expect(await item(id)).toMatchObject({ startedAt, expiresAt: new Date(startedAt.getTime() + 24 * HOUR) });
    expect(await t.lastActivity()).toMatchObject({ action: "start_vial", entityId: id });
    // A start long enough ago is past its deadline already: it happened, so it is recorded as it was.
    const late = await one(BOTOX);
    await receivedDaysAgo(late, 3);
    const longAgo = new Date(Date.now() - 30 * HOUR);
    expect(await startVial(t.db, as("staff"), { itemId: late, startedAt: longAgo })).toMatchObject({
      ok: true,
      vial: { startedAt: longAgo, expiresAt: new Date(longAgo.getTime() + 24 * HOUR) },
    });
    // A device clock a little ahead is believed.
    const ahead = await one(BOTOX);
    expect(
      await startVial(t.db, as("staff"), { itemId: ahead, startedAt: new Date(Date.now() + 30 * 1000) }),
    ).toMatchObject({ ok: true });
  });

  it("refuses a start in the future, before the vial was received, too long ago or not a time, and writes nothing", async () => {
    const id = await one(BOTOX);
    await receivedDaysAgo(id, 10);
    const fresh = await one(BOTOX);
    await receivedDaysAgo(fresh, 1);
    const before = await written();
    for (const [itemId, startedAt] of [
      [id, new Date(Date.now() + HOUR)],
      [id, new Date(Date.now() - 8 * DAY)],
      [fresh, new Date(Date.now() - 2 * DAY)],
    ] as const) {
      for (const idempotencyKey of [null, `start-window-${itemId}-${startedAt.getTime()}`]) {
        expect(await startVial(t.db, as("staff"), { itemId, startedAt, idempotencyKey })).toMatchObject({
          ok: false,
          refusal: "invalid",
          message: expect.stringMatching(
            /^Enter when the vial was started between .+ and .+: not before it was received/,
          ),
        });
      }
    }
    expect(await startVial(t.db, as("staff"), { itemId: id, startedAt: "soon" })).toEqual({
      ok: false,
      refusal: "invalid",
      message: VIAL_MESSAGES.startedAt,
    });
    expect(await written()).toEqual(before);
  });

  it("refuses a start dated after the vial's expiration day ended, as expired then", async () => {
    const id = await one(BOTOX, { expiresInDays: -1 });
    await receivedDaysAgo(id, 5);
    // Two days ago it was still good: its deadline is the end of its expiration day.
    const startedAt = new Date(`${day(-2)}T12:00:00.000Z`);
    const started = await startVial(t.db, as("staff"), { itemId: id, startedAt });
    expect(started).toMatchObject({ ok: true, vial: { startedAt, expiresAt: new Date(`${day(-1)}T12:00:00.000Z`) } });
    const expired = await one(BOTOX, { expiresInDays: -2 });
    await receivedDaysAgo(expired, 5);
    expect(
      await startVial(t.db, as("staff"), { itemId: expired, startedAt: new Date(`${day(-1)}T12:00:00.000Z`) }),
    ).toMatchObject({ ok: false, refusal: "manufacturer_expired" });
  });
});

describe("draw", () => {
  it("books a usage entry and its USE movement, converting exactly to base units, and starts a sealed vial", async () => {
    const id = await one(JUVEDERM);
    const [service] = await t.db.select().from(schema.services).where(eq(schema.services.active, true)).limit(1);
    const before = await written();
    const drawn = await drawUnits(t.db, as("staff"), {
      itemId: id,
      units: "0.25",
      serviceId: service?.id ?? null,
      provider: "Dr. Lee",
      patientRef: "CH-1042",
    });
    expect(drawn).toMatchObject({
      ok: true,
      vial: { id, state: "in_use", unitsRemaining: 75 },
      usage: {
        itemId: id,
        units: 25,
        unitsText: "0.25 mL",
        serviceName: service?.name,
        provider: "Dr. Lee",
        patientRef: "CH-1042",
      },
    });
    if (!drawn.ok) return;
    const [entry] = await t.db.select().from(schema.usageEntries).where(eq(schema.usageEntries.itemId, id));
    expect(entry).toMatchObject({ id: drawn.usage.id, units: 25, locationId: loc.DTN, variationId: JUVEDERM });
    expect((await movementsOf(id)).filter((m) => m.type === "USE")).toEqual([
      expect.objectContaining({
        quantity: -25,
        referenceType: "usage",
        referenceId: drawn.usage.id,
        locationId: loc.DTN,
      }),
    ]);
    const after = await written();
    expect(after).toMatchObject({
      movements: (before.movements ?? 0) + 1,
      usage: (before.usage ?? 0) + 1,
      activity: (before.activity ?? 0) + 2, // start_vial (it was sealed) and draw_units
      onHand: before.onHand - 25,
    });
    // Filler has no beyond-use hours: its deadline is the end of its expiration day.
    expect(drawn.vial.expiresAt).toEqual(new Date(`${day(200)}T23:59:59.999Z`));
    const again = await drawUnits(t.db, as("staff"), { itemId: id, units: 0.5 });
    expect(again).toMatchObject({ ok: true, vial: { unitsRemaining: 25, expiresAt: drawn.vial.expiresAt } });
    expect(await drawUnits(t.db, as("staff"), { itemId: id, units: "0.3" })).toEqual({
      ok: false,
      refusal: "not_enough_units",
      message: "Not enough left in this vial for that draw: 0.25 mL left. Draw at most that, or open another vial.",
    });
  });

  it.each([
    [{ units: "" }, VIAL_MESSAGES.units],
    [{ units: undefined }, VIAL_MESSAGES.units],
    [{ units: "twenty" }, VIAL_MESSAGES.units],
    [{ units: "-5" }, VIAL_MESSAGES.units],
    [{ units: -5 }, VIAL_MESSAGES.units],
    [{ units: "0" }, VIAL_MESSAGES.units],
    [{ units: "1e9" }, VIAL_MESSAGES.units],
    [{ units: "99999999999999" }, VIAL_MESSAGES.unitsScale(0, "U")],
    [{ units: "2.5" }, VIAL_MESSAGES.unitsScale(0, "U")],
    [{ units: "5", provider: "p".repeat(10_000) }, VIAL_MESSAGES.provider],
    [{ units: "5", patientRef: "c".repeat(65) }, VIAL_MESSAGES.patientRef],
    [{ units: "5", serviceId: "no-such-service" }, VIAL_MESSAGES.service],
    // Outside the vial's life (or too long ago): the message names the window a draw may be dated in.
    [
      { units: "5", usedAt: new Date(Date.now() + HOUR) },
      expect.stringMatching(/^Enter when the units were used between/),
    ],
    [
      { units: "5", usedAt: new Date(Date.now() - 8 * DAY) },
      expect.stringMatching(/^Enter when the units were used between/),
    ],
    [{ units: "5", usedAt: "yesterday-ish" }, VIAL_MESSAGES.usedAt],
  ])("refuses bad input (case %#) and writes nothing", async (input, message) => {
    const id = await one(BOTOX);
    const before = await written();
    const refused = await drawUnits(t.db, as("staff"), { itemId: id, ...(input as { units: string }) });
    expect(refused).toEqual({ ok: false, refusal: "invalid", message });
    expect(await written()).toEqual(before);
  });

  it("refuses more than is left (in the product's unit), past the deadlines, recalled, finished, elsewhere", async () => {
    const full = await one(BOTOX);
    const old = await one(BOTOX);
    await startVial(t.db, as("staff"), { itemId: old }, { now: new Date(Date.now() - 25 * HOUR) });
    const expired = await one(BOTOX, { expiresInDays: -1 });
    const recalled = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: recalled, units: "10" });
    await recall(BOTOX, recalled);
    const gone = await one(BOTOX);
    await discardVial(t.db, as("staff"), { itemId: gone, reason: "damaged" });
    const west = await one(BOTOX, { where: "WST" });
    const before = await written();
    expect(await drawUnits(t.db, as("staff"), { itemId: full, units: "101" })).toEqual({
      ok: false,
      refusal: "not_enough_units",
      message: "Not enough left in this vial for that draw: 100 U left. Draw at most that, or open another vial.",
    });
    expect(await drawUnits(t.db, as("staff"), { itemId: old, units: "1" })).toMatchObject({ refusal: "use_by_passed" });
    expect(await drawUnits(t.db, as("staff"), { itemId: expired, units: "1" })).toMatchObject({
      refusal: "manufacturer_expired",
    });
    expect(await drawUnits(t.db, as("staff"), { itemId: recalled, units: "1" })).toMatchObject({ refusal: "recalled" });
    expect(await drawUnits(t.db, as("staff"), { itemId: gone, units: "1" })).toMatchObject({ refusal: "finished" });
    expect(await drawUnits(t.db, as("staff"), { itemId: west, units: "1" })).toMatchObject({ refusal: "not_found" });
    expect(await drawUnits(t.db, as("staff"), { itemId: "unknown", units: "1" })).toMatchObject({
      refusal: "not_found",
    });
    expect(await written()).toEqual(before);
  });
});

describe("patient reference", () => {
  it("is refused as a name, too long, with a NUL or an invisible character, writing nothing", async () => {
    const id = await one(BOTOX);
    const before = await written();
    const cases: [string, string][] = [
      ["Jane Doe", VIAL_MESSAGES.patientRefName],
      ["C".repeat(65), VIAL_MESSAGES.patientRef],
      ["CH-1042\u0000hidden", TEXT_MESSAGES.unseen("\u0000")],
      ["CH-\u200b1042", TEXT_MESSAGES.unseen("\u200b")],
      ["CH-1042\u202e", TEXT_MESSAGES.unseen("\u202e")],
      ["CH:1042", VIAL_MESSAGES.patientRefCharacters],
    ];
    for (const [patientRef, message] of cases) {
      expect(await drawUnits(t.db, as("staff"), { itemId: id, units: "1", patientRef }), patientRef).toEqual({
        ok: false,
        refusal: "invalid",
        message,
      });
    }
    expect(await written()).toEqual(before);
  });

  it("is kept whole as typed, and the usage log's filter finds it", async () => {
    const id = await one(BOTOX);
    const ref = "MRN-0042/7.b_#3".padEnd(64, "9");
    const drawn = await drawUnits(t.db, as("staff"), { itemId: id, units: "1", patientRef: ` ${ref} ` });
    expect(drawn).toMatchObject({ ok: true, usage: { patientRef: ref } });
    const [entry] = await t.db.select().from(schema.usageEntries).where(eq(schema.usageEntries.itemId, id));
    expect(entry?.patientRef).toBe(ref);
    const page = await readUsage(t.db, as("staff"), UsageQuery.parse({ patientRef: ref }));
    expect(page?.items.map((r) => r.itemId)).toEqual([id]);
  });
});

describe("draw times", () => {
  it("a first draw dated in the past starts the vial then: its deadline counts from that moment, and the answer says so", async () => {
    const id = await one(BOTOX);
    const usedAt = new Date(Date.now() - 6 * HOUR);
    const drawn = await drawUnits(t.db, as("staff"), { itemId: id, units: "20", usedAt });
    expect(drawn).toMatchObject({
      ok: true,
      vial: { state: "in_use", startedAt: usedAt, expiresAt: new Date(usedAt.getTime() + 24 * HOUR) },
      started: { startedAt: usedAt, expiresAt: new Date(usedAt.getTime() + 24 * HOUR) },
    });
    expect(await item(id)).toMatchObject({ startedAt: usedAt, expiresAt: new Date(usedAt.getTime() + 24 * HOUR) });
    // The next draw finds it open: it started nothing.
    const next = await drawUnits(t.db, as("staff"), { itemId: id, units: "5" });
    expect(next).toMatchObject({ ok: true, started: null, vial: { unitsRemaining: 75 } });
  });

  it("refuses a draw dated in the future, before the vial's start or after its deadline, naming the allowed window", async () => {
    const sealed = await one(BOTOX);
    const open = await one(BOTOX);
    await startVial(t.db, as("staff"), { itemId: open }, { now: new Date(Date.now() - 2 * HOUR) });
    const lapsed = await one(BOTOX);
    await startVial(t.db, as("staff"), { itemId: lapsed }, { now: new Date(Date.now() - 30 * HOUR) });
    const before = await written();
    for (const [itemId, usedAt] of [
      [sealed, new Date(Date.now() + HOUR)],
      [open, new Date(Date.now() + 10 * 60 * 1000)],
      [open, new Date(Date.now() - 3 * HOUR)],
      [lapsed, new Date(Date.now() - 5 * HOUR)],
      [lapsed, new Date(Date.now() - 31 * HOUR)],
    ] as const) {
      const refused = await drawUnits(t.db, as("staff"), { itemId, units: "1", usedAt });
      expect(refused).toMatchObject({
        ok: false,
        refusal: "invalid",
        message: expect.stringMatching(/^Enter when the units were used between .+ and .+:/),
      });
    }
    expect(await written()).toEqual(before);
    // Inside the window: a late record of a draw made before the deadline, and a device a little ahead.
    expect(
      await drawUnits(t.db, as("staff"), { itemId: lapsed, units: "1", usedAt: new Date(Date.now() - 29 * HOUR) }),
    ).toMatchObject({ ok: true, started: null });
    expect(
      await drawUnits(t.db, as("staff"), { itemId: open, units: "1", usedAt: new Date(Date.now() + 30 * 1000) }),
    ).toMatchObject({ ok: true, started: null });
  });
});

describe("empty and discard", () => {
  it("empties an open vial, booking what is left as WASTE", async () => {
    const id = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: id, units: "30" });
    const before = await written();
    const emptied = await emptyVial(t.db, as("staff"), { itemId: id });
    expect(emptied).toMatchObject({ ok: true, vial: { state: "empty", unitsRemaining: 0, endedAt: expect.any(Date) } });
    expect((await movementsOf(id)).map((m) => [m.type, m.quantity])).toEqual([
      ["RECEIVE", 100],
      ["USE", -30],
      ["WASTE", -70],
    ]);
    expect(await written()).toMatchObject({ onHand: before.onHand - 70, activity: (before.activity ?? 0) + 1 });
    expect(await t.lastActivity()).toMatchObject({
      action: "empty_vial",
      summary: expect.objectContaining({ wasted: 70 }),
    });
    expect(await emptyVial(t.db, as("staff"), { itemId: id })).toMatchObject({ refusal: "finished" });
  });

  it("empties a vial drawn to zero with no movement, refuses a sealed one", async () => {
    const id = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: id, units: "100" });
    const sealed = await one(BOTOX);
    const before = await written();
    expect(await emptyVial(t.db, as("staff"), { itemId: sealed })).toMatchObject({ refusal: "not_in_use" });
    expect(await written()).toEqual(before);
    expect(await emptyVial(t.db, as("staff"), { itemId: id })).toMatchObject({ ok: true, vial: { state: "empty" } });
    expect(await written()).toMatchObject({ movements: before.movements, onHand: before.onHand });
  });

  it("discards a sealed or open vial with its reason and DISCARD of what was left", async () => {
    const sealed = await one(BOTOX);
    const open = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: open, units: "40" });
    const before = await written();
    const d1 = await discardVial(t.db, as("staff"), { itemId: sealed, reason: "damaged" });
    expect(d1).toMatchObject({ ok: true, vial: { state: "discarded", discardReason: "damaged", unitsRemaining: 0 } });
    const d2 = await discardVial(t.db, as("staff"), { itemId: open, reason: "other", note: "dropped on the floor" });
    expect(d2).toMatchObject({ ok: true, vial: { state: "discarded", discardReason: "other" } });
    expect((await item(open)).discardNote).toBe("dropped on the floor");
    expect((await movementsOf(sealed)).at(-1)).toMatchObject({ type: "DISCARD", quantity: -100, reason: "damaged" });
    expect((await movementsOf(open)).at(-1)).toMatchObject({ type: "DISCARD", quantity: -60, reason: "other" });
    expect(await written()).toMatchObject({ onHand: before.onHand - 160 });
  });

  it("refuses a missing reason, other without a note, a long note, a finished vial, and writes nothing", async () => {
    const id = await one(BOTOX);
    const done = await one(BOTOX);
    await discardVial(t.db, as("staff"), { itemId: done, reason: "expired" });
    const before = await written();
    const discard = (input: object) =>
      discardVial(t.db, as("staff"), { itemId: id, ...input } as Parameters<typeof discardVial>[2]);
    expect(await discard({})).toEqual({ ok: false, refusal: "invalid", message: VIAL_MESSAGES.reason });
    expect(await discard({ reason: "beyond_use_deadline" })).toMatchObject({ message: VIAL_MESSAGES.reason });
    expect(await discard({ reason: "other" })).toEqual({
      ok: false,
      refusal: "invalid",
      message: VIAL_MESSAGES.noteRequired,
    });
    expect(await discard({ reason: "other", note: "n".repeat(10_000) })).toMatchObject({ message: VIAL_MESSAGES.note });
    expect(await discardVial(t.db, as("staff"), { itemId: done, reason: "expired" })).toMatchObject({
      refusal: "finished",
    });
    expect(await written()).toEqual(before);
  });
});

describe("witnessed waste of a controlled substance", () => {
  const witness = (name: string, password = DEMO_PASSWORD) => ({ email: `${name}@demo.clinic`, password });

  it("needs a second active user of the location, confirmed by their own password, when units are left", async () => {
    const id = await one(DYSPORT);
    await drawUnits(t.db, as("staff"), { itemId: id, units: "60" });
    const before = await written();
    const empty = (w?: { email: string; password: string }) => emptyVial(t.db, as("staff"), { itemId: id, witness: w });
    expect(await empty()).toEqual({ ok: false, refusal: "witness_required", message: VIAL_REFUSALS.witness_required });
    const invalid = { ok: false, refusal: "witness_invalid", message: VIAL_REFUSALS.witness_invalid };
    const why = (message: string) => ({ ok: false, refusal: "witness_invalid", message });
    expect(await empty(witness("admin", "wrong password"))).toEqual(invalid);
    expect(await empty(witness("nobody"))).toEqual(invalid); // same words as a wrong password
    // Once the password was right, the refusal says why.
    expect(await empty(witness("staff"))).toEqual(why(WITNESS_MESSAGES.yourself));
    expect(await empty(witness("manager"))).toEqual(why("Maria Manager does not work at Downtown."));
    expect(await empty(witness("manager", "wrong password"))).toEqual(invalid); // no why without the password
    await t.db.run(sql`UPDATE users SET active = 0 WHERE email = 'multi@demo.clinic'`);
    expect(await empty(witness("multi"))).toEqual(why("Morgan Multi's account is deactivated: ask another colleague."));
    await t.db.run(sql`UPDATE users SET active = 1 WHERE email = 'multi@demo.clinic'`);
    expect({ ...(await written()), activity: 0 }).toEqual({ ...before, activity: 0 });

    const done = await empty(witness("admin"));
    expect(done).toMatchObject({ ok: true, vial: { state: "empty" } });
    expect((await item(id)).witnessUserId).toBe(users.get("admin")?.id);
    expect(await t.lastActivity()).toMatchObject({
      action: "empty_vial",
      userId: users.get("staff")?.id,
      summary: expect.objectContaining({ witness: "Adam Admin", witnessId: users.get("admin")?.id, wasted: 240 }),
    });
  });

  it("asks no witness when nothing is left, and one for a discard with units left", async () => {
    const drained = await one(DYSPORT);
    await drawUnits(t.db, as("staff"), { itemId: drained, units: "300" });
    expect(await emptyVial(t.db, as("staff"), { itemId: drained })).toMatchObject({ ok: true });
    expect((await item(drained)).witnessUserId).toBeNull();
    const sealed = await one(DYSPORT);
    expect(await discardVial(t.db, as("staff"), { itemId: sealed, reason: "damaged" })).toMatchObject({
      refusal: "witness_required",
    });
    expect(
      await discardVial(t.db, as("staff"), { itemId: sealed, reason: "damaged", witness: witness("multi") }),
    ).toMatchObject({ ok: true, vial: { state: "discarded" } });
  });

  it("counts wrong witness passwords against the sign-in throttle", async () => {
    const id = await one(DYSPORT);
    for (let n = 0; n < 5; n++) {
      expect(
        await discardVial(t.db, as("staff"), { itemId: id, reason: "damaged", witness: witness("owner", "nope") }),
      ).toMatchObject({ refusal: "witness_invalid" });
    }
    const locked = await discardVial(t.db, as("staff"), { itemId: id, reason: "damaged", witness: witness("owner") });
    expect(locked).toMatchObject({ refusal: "witness_invalid", message: expect.stringMatching(/Too many failed/) });
    expect((await item(id)).state).toBe("sealed");
  });

  it("refuses a witness whose password someone else set or reset, until they chose their own", async () => {
    const ids = await receive(DYSPORT, 2);
    const discard = (itemId: string | undefined, w: { email: string; password: string }) =>
      discardVial(t.db, as("admin"), { itemId: itemId ?? "", reason: "damaged", witness: w });
    const mustChoose = {
      ok: false,
      refusal: "witness_invalid",
      message: "Cora League must choose their own password before witnessing: ask them to sign in and change it.",
    };
    // The admin opens a colleague's account at Downtown with a password the admin chose...
    const email = "cora.league@demo.clinic";
    const created = await createUser(t.db, as("admin"), {
      email,
      firstName: "Cora",
      lastName: "League",
      password: "chosen-by-the-admin",
      role: { locationId: loc.DTN, role: "STAFF" },
    });
    if (!created.ok) throw new Error(created.message);
    // ...and cannot then witness with it.
    expect(await discard(ids[0], { email, password: "chosen-by-the-admin" })).toEqual(mustChoose);
    expect(await discard(ids[0], { email, password: "a guess" })).toMatchObject({
      message: VIAL_REFUSALS.witness_invalid,
    });

    // Cora chooses her own password: now she can witness.
    const cora = { id: created.userId, sessionId: "no-session", email };
    expect(
      await changeOwnPassword(t.db, cora, { currentPassword: "chosen-by-the-admin", newPassword: "coras-own-choice" }),
    ).toMatchObject({ ok: true });
    expect(await discard(ids[0], { email, password: "coras-own-choice" })).toMatchObject({ ok: true });

    // The admin resets it: the password is the admin's again, and witnesses nothing.
    expect(
      await resetPassword(t.db, as("admin"), { userId: created.userId, password: "reset-by-the-admin" }),
    ).toMatchObject({ ok: true });
    expect(await discard(ids[1], { email, password: "reset-by-the-admin" })).toEqual(mustChoose);
    expect((await item(ids[1] ?? "")).state).toBe("sealed");
  });

  it("lets right witness passwords through in parallel: only failures lock", async () => {
    const ids = await receive(DYSPORT, 12);
    const results = await Promise.all(
      ids.map((itemId) => discardVial(t.db, as("staff"), { itemId, reason: "damaged", witness: witness("admin") })),
    );
    expect(results.map((r) => (r.ok ? "discarded" : r.message))).toEqual(ids.map(() => "discarded"));
  });

  it("never locks the witness's own sign-in: wrong guesses lock only each guesser and that witness", async () => {
    const id = await one(DYSPORT);
    // Four colleagues at Downtown guess Nina's password five times each.
    for (const guesser of ["owner", "admin", "staff", "multi"]) {
      for (let n = 0; n < 5; n++) {
        const guess = await discardVial(t.db, as(guesser), {
          itemId: id,
          reason: "damaged",
          witness: witness("newhire", `guess-${guesser}-${n}`),
        });
        expect(guess).toMatchObject({ refusal: "witness_invalid", message: VIAL_REFUSALS.witness_invalid });
      }
      // Each guesser is now stopped from trying Nina again...
      const stopped = await discardVial(t.db, as(guesser), {
        itemId: id,
        reason: "damaged",
        witness: witness("newhire"),
      });
      expect(stopped).toMatchObject({ message: expect.stringMatching(/Too many failed/) });
    }
    // ...and Nina still signs in, from anywhere.
    expect(
      await signIn(t.db, { email: "newhire@demo.clinic", password: DEMO_PASSWORD, userAgent: null }),
    ).toMatchObject({ ok: true });
    expect(
      await signIn(t.db, {
        email: "newhire@demo.clinic",
        password: DEMO_PASSWORD,
        userAgent: null,
        clientIp: "198.51.100.8",
      }),
    ).toMatchObject({ ok: true });
  });
});

describe("idempotency", () => {
  it("writes a repeated key once and answers the first answer", async () => {
    const id = await one(BOTOX);
    const key = "draw-key-0001";
    const first = await drawUnits(t.db, as("staff"), { itemId: id, units: "10", idempotencyKey: key });
    const before = await written();
    const again = await drawUnits(t.db, as("staff"), { itemId: id, units: "10", idempotencyKey: key });
    expect(again).toEqual(first);
    expect(await written()).toEqual(before);
    // The same key for another write is refused, not replayed.
    expect(await startVial(t.db, as("staff"), { itemId: await one(BOTOX), idempotencyKey: key })).toMatchObject({
      refusal: "key_misused",
    });
    // A repeated empty after the vial ended answers the empty, not "finished".
    const emptied = await emptyVial(t.db, as("staff"), { itemId: id, idempotencyKey: "empty-key-01" });
    expect(await emptyVial(t.db, as("staff"), { itemId: id, idempotencyKey: "empty-key-01" })).toEqual(emptied);
    expect(await emptyVial(t.db, as("staff"), { itemId: id, idempotencyKey: "empty-key-02" })).toMatchObject({
      refusal: "finished",
    });
  });

  it("writes once when the same key arrives twice at the same moment", async () => {
    const id = await one(BOTOX);
    const before = await written();
    const answers = await Promise.all(
      [1, 2, 3].map(() => drawUnits(t.db, as("staff"), { itemId: id, units: "5", idempotencyKey: "double-tap-01" })),
    );
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ ok: true, vial: { unitsRemaining: 95 } });
    expect(await written()).toMatchObject({ usage: (before.usage ?? 0) + 1, keys: (before.keys ?? 0) + 1 });
  });
});

describe("concurrency", () => {
  it("20 concurrent draws leave the vial consistent and never below zero", async () => {
    const id = await one(BOTOX);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => drawUnits(t.db, as("staff"), { itemId: id, units: "7" })),
    );
    const ok = results.filter((r) => r.ok);
    for (const r of results.filter((r) => !r.ok)) {
      expect(r).toMatchObject({ refusal: expect.stringMatching(/^(not_enough_units|changed)$/) });
    }
    expect(ok).toHaveLength(14); // 14 × 7 = 98 of 100
    const vial = await item(id);
    const [uses, entries] = await t.db.batch([
      t.db.all<{ total: number }>(
        sql`SELECT coalesce(sum(quantity), 0) AS total FROM stock_movements WHERE item_id = ${id} AND type = 'USE'`,
      ),
      t.db.select({ n: count() }).from(schema.usageEntries).where(eq(schema.usageEntries.itemId, id)),
    ]);
    expect(vial.unitsRemaining).toBe(100 + Number(uses[0]?.total));
    expect(vial.unitsRemaining).toBe(2);
    expect(entries[0]?.n).toBe(ok.length);
  });

  it("two people ending one vial at once: one wins, the other is told and writes nothing", async () => {
    const id = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: id, units: "10" });
    const [a, b] = await Promise.all([
      emptyVial(t.db, as("staff"), { itemId: id }),
      discardVial(t.db, as("multi"), { itemId: id, reason: "contaminated" }),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect([a, b].find((r) => !r.ok)).toMatchObject({ refusal: expect.stringMatching(/^(finished|changed)$/) });
    expect((await movementsOf(id)).filter((m) => m.type !== "RECEIVE" && m.type !== "USE")).toHaveLength(1);
  });
});

describe("waste at the deadline", () => {
  it("wastes what is left in every in-use vial past its deadline, discards it, and a second run finds nothing", async () => {
    const past = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: past, units: "20" }, { now: new Date(Date.now() - 30 * HOUR) });
    const fresh = await one(BOTOX);
    await drawUnits(t.db, as("staff"), { itemId: fresh, units: "20" });
    const before = await written();
    const first = await wasteAtDeadline(t.db);
    expect(first.wasted).toBeGreaterThanOrEqual(1);
    expect(await item(past)).toMatchObject({
      state: "discarded",
      discardReason: "beyond_use_deadline",
      unitsRemaining: 0,
      endedAt: expect.any(Date),
    });
    expect((await item(fresh)).state).toBe("in_use");
    expect((await movementsOf(past)).at(-1)).toMatchObject({ type: "WASTE", quantity: -80, userId: null });
    const [log] = await t.db
      .select()
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.entityId, past), eq(schema.activityLog.action, "discard_vial")));
    expect(log).toMatchObject({
      userId: null,
      summary: expect.objectContaining({ reason: "beyond_use_deadline", wasted: 80 }),
    });
    expect((await written()).onHand).toBeLessThanOrEqual(before.onHand - 80);

    const after = await written();
    expect(await wasteAtDeadline(t.db)).toEqual({ wasted: 0 });
    expect(await written()).toEqual(after);
  });

  it("two runs at once waste each vial once: the second's guards find them changed, it reads again and finds none", async () => {
    const ids = await receive(BOTOX, 3);
    for (const id of ids) {
      await drawUnits(t.db, as("staff"), { itemId: id, units: "10" }, { now: new Date(Date.now() - 30 * HOUR) });
    }
    const before = await written();
    const [a, b] = await Promise.all([wasteAtDeadline(t.db), wasteAtDeadline(t.db)]);
    expect(a.wasted + b.wasted).toBe(3);
    for (const id of ids) {
      expect((await movementsOf(id)).map((m) => m.type)).toEqual(["RECEIVE", "USE", "WASTE"]);
    }
    expect(await written()).toMatchObject({ movements: (before.movements ?? 0) + 3, onHand: before.onHand - 270 });
  });
});
