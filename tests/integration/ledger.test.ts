// The stock ledger against a real database: after any sequence of stock adjustments every level
// equals the sum of its movements and none is negative; a refused command leaves no movement, no
// level change and no activity row; movements cannot be edited or deleted; an adjustment is one
// round trip; WRITE_INVENTORY at THAT location is required.
import { asc, count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../app/access/actor";
import { schema } from "../../app/db/client.server";
import { constraintFailed } from "../../app/db/sql.server";
import {
  ADJUST_MESSAGES,
  adjustStock,
  isNotEnoughStock,
  recordMovements,
  STOCK_REFUSALS,
} from "../../app/stock/ledger.server";
import { freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let variations: string[];
let actors: Record<"owner" | "staff" | "manager", Actor>;

const MESSAGES = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  notFound: "That product variation or location does not exist in your organization.",
  notEnough: (n: number) => `Not enough stock: removing ${n} would leave less than zero on hand at this location.`,
  quantity: "Enter the change as a whole number of base units, positive to add or negative to remove, not zero.",
  reason: "Enter a reason of 3 to 200 characters.",
};

async function actor(email: string): Promise<Actor> {
  const [user] = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
  if (!user) throw new Error(`no user ${email}`);
  const roles = await t.db
    .select({ locationId: schema.userLocationRoles.locationId, role: schema.userLocationRoles.role })
    .from(schema.userLocationRoles)
    .where(eq(schema.userLocationRoles.userId, user.id));
  return { id: user.id, organizationRole: user.organizationRole ?? null, locationRoles: roles };
}

beforeAll(async () => {
  t = await freshDatabase();
  const locations = await t.db.select({ id: schema.locations.id, code: schema.locations.code }).from(schema.locations);
  loc = Object.fromEntries(locations.map((l) => [l.code, l.id])) as typeof loc;
  // Three variations of the seeded demo catalogue.
  const rows = await t.db
    .select({ id: schema.productVariations.id })
    .from(schema.productVariations)
    .where(eq(schema.productVariations.active, true))
    .orderBy(asc(schema.productVariations.id))
    .limit(3);
  variations = rows.map((r) => r.id);
  expect(variations).toHaveLength(3);
  actors = {
    owner: await actor("owner@demo.clinic"),
    staff: await actor("staff@demo.clinic"),
    manager: await actor("manager@demo.clinic"),
  };
});
afterAll(() => t.close());

/** Everything the invariant looks at, read in one batch. */
async function ledgerState() {
  const [levels, sums, movements, activity] = await t.db.batch([
    t.db.select().from(schema.stockLevels),
    t.db.all<{ locationId: string; variationId: string; total: number }>(
      sql`SELECT location_id AS locationId, variation_id AS variationId, SUM(quantity) AS total
        FROM stock_movements GROUP BY location_id, variation_id`,
    ),
    t.db.select({ n: count() }).from(schema.stockMovements),
    t.db.select({ n: count() }).from(schema.activityLog),
  ]);
  const key = (l: string, v: string) => `${l}|${v}`;
  return {
    levels: new Map(levels.map((l) => [key(l.locationId, l.variationId), l.onHand])),
    sums: new Map(sums.map((s) => [key(s.locationId, s.variationId), Number(s.total)])),
    movements: movements[0]?.n ?? 0,
    activity: activity[0]?.n ?? 0,
    onHand: (l: string, v: string) => levels.find((x) => x.locationId === l && x.variationId === v)?.onHand ?? 0,
  };
}

/** Whether an error, or one it wraps, is the append-only trigger's refusal. */
function appendOnlyRefusal(error: unknown): boolean {
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (/stock_movements is append-only/.test(String(e.message))) return true;
  }
  return false;
}

type State = Awaited<ReturnType<typeof ledgerState>>;

function expectLevelsMatchMovements(state: State) {
  expect(Object.fromEntries(state.levels)).toEqual(Object.fromEntries(state.sums));
  for (const onHand of state.levels.values()) expect(onHand).toBeGreaterThanOrEqual(0);
}

describe("the ledger invariant", () => {
  it("keeps every level equal to the sum of its movements, never negative, and refusals leave nothing", async () => {
    const who = fc.constantFrom("owner" as const, "staff" as const, "manager" as const);
    const command = fc.record({
      who,
      location: fc.constantFrom("DTN" as const, "WST" as const),
      variation: fc.integer({ min: 0, max: 2 }),
      quantity: fc.integer({ min: -40, max: 40 }).filter((q) => q !== 0),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        for (const c of commands) {
          const locationId = loc[c.location];
          const variationId = variations[c.variation] as string;
          const before = await ledgerState();
          const allowed =
            c.who === "owner" ||
            (c.who === "staff" && c.location === "DTN") ||
            (c.who === "manager" && c.location === "WST");
          const enough = before.onHand(locationId, variationId) + c.quantity >= 0;

          const outcome = await adjustStock(t.db, actors[c.who], {
            locationId,
            variationId,
            quantity: c.quantity,
            reason: "Property test",
          });
          const after = await ledgerState();
          expectLevelsMatchMovements(after);

          if (!allowed) {
            expect(outcome).toEqual({ ok: false, refusal: "forbidden", message: MESSAGES.forbidden });
          } else if (!enough) {
            expect(outcome).toEqual({
              ok: false,
              refusal: "not_enough_stock",
              message: MESSAGES.notEnough(-c.quantity),
            });
          } else {
            expect(outcome.ok).toBe(true);
          }
          if (outcome.ok) {
            expect(after.movements).toBe(before.movements + 1);
            expect(after.activity).toBe(before.activity + 1);
            expect(after.onHand(locationId, variationId)).toBe(before.onHand(locationId, variationId) + c.quantity);
          } else {
            expect(after.movements).toBe(before.movements);
            expect(after.activity).toBe(before.activity);
            expect(Object.fromEntries(after.levels)).toEqual(Object.fromEntries(before.levels));
          }
        }
      }),
      { numRuns: 30 },
    );
  }, 60_000);
});

describe("adjustStock", () => {
  it("appends one ADJUST movement, moves the level and logs stock_adjust, in one round trip", async () => {
    const [variationId] = variations as [string];
    const locationId = loc.NTH;
    t.resetRoundTrips();
    const outcome = await adjustStock(t.db, actors.owner, {
      locationId,
      variationId,
      quantity: 25,
      reason: "  Found a box in the back  ",
      lot: " L-123 ",
    });
    expect(t.roundTrips()).toBe(1);
    if (!outcome.ok) throw new Error(outcome.message);

    const [movement] = await t.db
      .select()
      .from(schema.stockMovements)
      .where(eq(schema.stockMovements.id, outcome.movementId));
    expect(movement).toMatchObject({
      locationId,
      variationId,
      quantity: 25,
      type: "ADJUST",
      reason: "Found a box in the back",
      lot: "L-123",
      itemId: null,
      referenceType: null,
      referenceId: null,
      userId: actors.owner.id,
    });
    expect(movement?.occurredAt).toBeInstanceOf(Date);
    const state = await ledgerState();
    expect(state.onHand(locationId, variationId)).toBe(25);

    const [activity] = await t.db
      .select()
      .from(schema.activityLog)
      .where(
        sql`${schema.activityLog.action} = 'stock_adjust' AND json_extract(summary, '$.movementId') = ${outcome.movementId}`,
      );
    expect(activity).toMatchObject({
      userId: actors.owner.id,
      locationId,
      action: "stock_adjust",
      entity: "variation",
      entityId: variationId,
      summary: { movementId: outcome.movementId, quantity: 25, reason: "Found a box in the back", lot: "L-123" },
    });
  });

  it("refuses taking more than is on hand in one round trip, leaving nothing behind", async () => {
    const variationId = variations[1] as string;
    const locationId = loc.NTH;
    await adjustStock(t.db, actors.owner, { locationId, variationId, quantity: 3, reason: "Opening count" });
    const before = await ledgerState();
    t.resetRoundTrips();
    const outcome = await adjustStock(t.db, actors.owner, { locationId, variationId, quantity: -4, reason: "Broken" });
    expect(t.roundTrips()).toBe(1);
    expect(outcome).toEqual({ ok: false, refusal: "not_enough_stock", message: MESSAGES.notEnough(4) });
    const after = await ledgerState();
    expect(after.movements).toBe(before.movements);
    expect(after.activity).toBe(before.activity);
    expect(after.onHand(locationId, variationId)).toBe(3);
    // Taking exactly what is there is fine.
    expect(await adjustStock(t.db, actors.owner, { locationId, variationId, quantity: -3, reason: "Broken" })).toEqual({
      ok: true,
      movementId: expect.any(String),
    });
    expect((await ledgerState()).onHand(locationId, variationId)).toBe(0);
  });

  it("refuses a removal where there has never been stock (no level row yet)", async () => {
    const variationId = variations[2] as string;
    const before = await ledgerState();
    const outcome = await adjustStock(t.db, actors.owner, {
      locationId: loc.NTH,
      variationId,
      quantity: -1,
      reason: "Miscount",
    });
    expect(outcome).toEqual({ ok: false, refusal: "not_enough_stock", message: MESSAGES.notEnough(1) });
    const after = await ledgerState();
    expect(after.levels.has(`${loc.NTH}|${variationId}`)).toBe(before.levels.has(`${loc.NTH}|${variationId}`));
    expect(after.movements).toBe(before.movements);
  });

  it("requires WRITE_INVENTORY at that location: staff at Downtown, the Westside manager at Westside", async () => {
    const variationId = variations[0] as string;
    const input = { variationId, quantity: 1, reason: "Permission check" };
    expect((await adjustStock(t.db, actors.staff, { ...input, locationId: loc.DTN })).ok).toBe(true);
    expect((await adjustStock(t.db, actors.manager, { ...input, locationId: loc.WST })).ok).toBe(true);

    const before = await ledgerState();
    t.resetRoundTrips();
    for (const [who, locationId] of [
      [actors.staff, loc.WST],
      [actors.staff, loc.NTH],
      [actors.manager, loc.DTN],
      [actors.manager, loc.NTH],
    ] as const) {
      expect(await adjustStock(t.db, who, { ...input, locationId })).toEqual({
        ok: false,
        refusal: "forbidden",
        message: MESSAGES.forbidden,
      });
    }
    // Refused before touching the database.
    expect(t.roundTrips()).toBe(0);
    expect((await ledgerState()).movements).toBe(before.movements);
  });

  it("refuses a variation or location outside the organization, writing nothing", async () => {
    const before = await ledgerState();
    const input = { quantity: 5, reason: "Not ours" };
    expect(await adjustStock(t.db, actors.owner, { ...input, locationId: loc.DTN, variationId: uuidv7() })).toEqual({
      ok: false,
      refusal: "not_found",
      message: MESSAGES.notFound,
    });
    // An organization admin may act anywhere, so only the SQL guard stops an unknown location.
    expect(
      await adjustStock(t.db, actors.owner, {
        ...input,
        locationId: uuidv7(),
        variationId: variations[0] as string,
      }),
    ).toEqual({ ok: false, refusal: "not_found", message: MESSAGES.notFound });
    const after = await ledgerState();
    expect(after.movements).toBe(before.movements);
    expect(after.activity).toBe(before.activity);
    expect(Object.fromEntries(after.levels)).toEqual(Object.fromEntries(before.levels));
  });

  it("refuses a zero or fractional quantity and a reason outside 3 to 200 characters", async () => {
    const base = { locationId: loc.DTN, variationId: variations[0] as string, quantity: 1, reason: "Fine reason" };
    t.resetRoundTrips();
    for (const quantity of [0, 1.5, Number.NaN]) {
      expect(await adjustStock(t.db, actors.owner, { ...base, quantity })).toEqual({
        ok: false,
        refusal: "invalid",
        message: MESSAGES.quantity,
      });
    }
    for (const reason of ["", "  ab  ", "x".repeat(201)]) {
      expect(await adjustStock(t.db, actors.owner, { ...base, reason })).toEqual({
        ok: false,
        refusal: "invalid",
        message: MESSAGES.reason,
      });
    }
    expect(t.roundTrips()).toBe(0);
    expect((await adjustStock(t.db, actors.owner, { ...base, reason: "abc" })).ok).toBe(true);
    expect((await adjustStock(t.db, actors.owner, { ...base, reason: "y".repeat(200) })).ok).toBe(true);
    expect(ADJUST_MESSAGES.quantity).toBe(MESSAGES.quantity);
    expect(STOCK_REFUSALS.forbidden).toBe(MESSAGES.forbidden);
  });
});

describe("recordMovements", () => {
  it("applies several movements in order in one batch, or none when one would go below zero", async () => {
    const variationId = variations[2] as string;
    const at = new Date();
    const move = (locationId: string, quantity: number) =>
      ({
        locationId,
        variationId,
        quantity,
        type: "ADJUST",
        reason: "Batch test",
        userId: null,
        occurredAt: at,
      }) as const;
    await t.db.batch(recordMovements(t.db, [move(loc.NTH, 10), move(loc.NTH, -4), move(loc.WST, 2)]));
    let state = await ledgerState();
    expectLevelsMatchMovements(state);
    const nth = state.onHand(loc.NTH, variationId);
    const wst = state.onHand(loc.WST, variationId);

    // A transfer-like pair whose second half would go negative: the first half is rolled back too.
    const failing = t.db.batch(recordMovements(t.db, [move(loc.WST, 1), move(loc.NTH, -(nth + 1))]));
    await expect(failing).rejects.toSatisfy(isNotEnoughStock);
    state = await ledgerState();
    expectLevelsMatchMovements(state);
    expect(state.onHand(loc.NTH, variationId)).toBe(nth);
    expect(state.onHand(loc.WST, variationId)).toBe(wst);
  });

  it("refuses a zero quantity and an unknown type through CHECK constraints", async () => {
    const base = { locationId: loc.DTN, variationId: variations[0] as string, userId: null };
    await expect(t.db.batch(recordMovements(t.db, [{ ...base, quantity: 0, type: "ADJUST" }]))).rejects.toSatisfy((e) =>
      constraintFailed(e, /stock_movements_quantity_not_zero/),
    );
    await expect(
      t.db.batch(recordMovements(t.db, [{ ...base, quantity: 1, type: "BOGUS" as "ADJUST" }])),
    ).rejects.toSatisfy((e) => constraintFailed(e, /stock_movements_type/));
  });
});

describe("stock_movements is append-only", () => {
  it("refuses UPDATE and DELETE", async () => {
    const outcome = await adjustStock(t.db, actors.owner, {
      locationId: loc.DTN,
      variationId: variations[0] as string,
      quantity: 7,
      reason: "Trigger test",
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const m = schema.stockMovements;
    await expect(t.db.update(m).set({ quantity: 700 }).where(eq(m.id, outcome.movementId))).rejects.toSatisfy(
      appendOnlyRefusal,
    );
    await expect(t.db.delete(m).where(eq(m.id, outcome.movementId))).rejects.toSatisfy(appendOnlyRefusal);
    const [row] = await t.db.select().from(m).where(eq(m.id, outcome.movementId));
    expect(row?.quantity).toBe(7);
  });
});
