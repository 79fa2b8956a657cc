// Cycle counts against a real database (issue 22 sections 2 and 3, ADR 0031): start (one open count
// per location, a second starter joins it), count (a vial once, found vials, bulk lines that add
// up, the ledger position of each line), submit, approve (COUNT movements as of the count, missing
// vials discarded, found vials brought here; the ledger still balances) and send back for a recount.
// Every refusal names its reason and writes nothing.
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { approvalQuestion, approveCount } from "../../app/counts/approve.server";
import { countStock } from "../../app/counts/count.server";
import { COUNT_REFUSALS } from "../../app/counts/outcome";
import { rejectCount } from "../../app/counts/reject.server";
import { readReport, readSessionReport } from "../../app/counts/report.server";
import {
  REVIEW_PAGE,
  readCountDocument,
  readLiveCountDocument,
  readLiveReview,
  readReview,
  workOutCountReviews,
} from "../../app/counts/review.server";
import { readSession } from "../../app/counts/session.server";
import { startCount } from "../../app/counts/start.server";
import { submitCount } from "../../app/counts/submit.server";
import { schema } from "../../app/db/client.server";
import * as reviewScreen from "../../app/routes/_app.admin.audits.$id";
import { adjustStock } from "../../app/stock/adjust.server";
import { drawUnits } from "../../app/vials/draw.server";
import { startVial } from "../../app/vials/start.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials, variationNamed } from "../support/receive";
import { loadContext, outcome, pageRequest, signedIn } from "../support/screens";

type Where = "DTN" | "WST" | "NTH" | typeof ORGANIZATION;

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();
let XEOMIN: string; // 100 U vial, scale 1, serialized; no stock in the demo (its receipt is open)
let XEOMIN_PRODUCT: string;
let GAUZE: string; // bulk, 200 each a pack
let GAUZE_PRODUCT: string;

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

function as(name: string, where: Where = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

let lots = 0;
async function receive(quantity: number, where: "DTN" | "WST" = "DTN"): Promise<string[]> {
  return receiveVials(t.db, as(where === "DTN" ? "admin" : "manager", where), {
    locationId: loc[where],
    variationId: XEOMIN,
    quantity,
    lot: `CT${++lots}`,
    expirationDate: day(200),
  });
}

async function item(id: string) {
  const [row] = await t.db.select().from(schema.items).where(eq(schema.items.id, id));
  if (!row) throw new Error(`no item ${id}`);
  return row;
}

async function level(where: "DTN" | "WST", variationId: string): Promise<number> {
  const [row] = await t.db.all<{ onHand: number }>(
    sql`SELECT on_hand AS onHand FROM stock_levels WHERE location_id = ${loc[where]} AND variation_id = ${variationId}`,
  );
  return Number(row?.onHand ?? 0);
}

/** Everything a count verb writes, read in one batch: a refusal leaves it as it was. */
async function written() {
  const [sessions, lines, movements, activity, keys, items] = await t.db.batch([
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || status || coalesce(review_note, ''), ',') AS sig
      FROM (SELECT * FROM audit_sessions ORDER BY id)`),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || quantity || ledger_position, ',') AS sig
      FROM (SELECT * FROM audit_lines ORDER BY id)`),
    t.db.select({ n: count() }).from(schema.stockMovements),
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
    t.db.all<{ sig: string }>(sql`SELECT group_concat(id || location_id || state || units_remaining, ',') AS sig
      FROM (SELECT * FROM items ORDER BY id)`),
  ]);
  return { sessions, lines, movements, activity, keys, items };
}

/** The ledger's invariants: each level is the sum of its movements, each vial's units the sum of its own. */
async function expectLedgerBalances() {
  const [levels, vials] = await t.db.batch([
    t.db.all<{ k: string }>(sql`SELECT sl.location_id || '|' || sl.variation_id AS k FROM stock_levels AS sl
      WHERE sl.on_hand IS NOT (SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m
        WHERE m.location_id = sl.location_id AND m.variation_id = sl.variation_id)`),
    t.db.all<{ id: string }>(sql`SELECT i.id FROM items AS i WHERE i.units_remaining IS NOT
      (SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m WHERE m.item_id = i.id)`),
  ]);
  expect(levels, "levels against their movements").toEqual([]);
  expect(vials, "vials against their movements").toEqual([]);
}

async function labelOf(id: string) {
  return (await item(id)).labelCode;
}

async function started(name: string, body: Parameters<typeof startCount>[2], where: Where = "DTN") {
  const outcome = await startCount(t.db, as(name, where), body);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff", "multi"]) {
    users.set(name, (await signedIn(t.db, name)).user);
  }
  XEOMIN = await variationNamed(t.db, "Xeomin", "100 U vial");
  GAUZE = await variationNamed(t.db, "Gauze 2x2", "Pack of 200");
  const products = await t.db.all<{ id: string; name: string }>(
    sql`SELECT id, name FROM products WHERE name IN ('Xeomin', 'Gauze 2x2')`,
  );
  XEOMIN_PRODUCT = products.find((p) => p.name === "Xeomin")?.id ?? "";
  GAUZE_PRODUCT = products.find((p) => p.name === "Gauze 2x2")?.id ?? "";
});
afterAll(() => t.close());

describe("a blind count at Downtown, while the clinic keeps working", () => {
  let sessionId: string;
  let a: string; // started, drawn from after it was counted
  let b: string; // sealed, scanned twice
  let c: string; // sealed, never counted: missing
  let d: string; // at Westside, found at Downtown
  let f: string; // started, counted short by 10 U
  let gaugeBefore: number;

  it("starts once: a second person starting joins the open count", async () => {
    [a, b, c, f] = (await receive(4)) as [string, string, string, string];
    [d] = (await receive(1, "WST")) as [string];
    for (const id of [a, f]) expect((await startVial(t.db, as("staff"), { itemId: id })).ok).toBe(true);
    expect((await drawUnits(t.db, as("staff"), { itemId: a, units: "20" })).ok).toBe(true);
    expect((await drawUnits(t.db, as("staff"), { itemId: f, units: "30" })).ok).toBe(true);

    const first = await started("staff", {
      locationId: loc.DTN,
      scope: { kind: "products", productIds: [XEOMIN_PRODUCT, GAUZE_PRODUCT] },
      blind: true,
    });
    expect(first).toMatchObject({ joined: false, status: "in_progress" });
    sessionId = first.sessionId;
    const activity = await t.lastActivity();
    expect(activity).toMatchObject({ action: "start_count", entityId: sessionId });
    expect(activity?.summary).toMatchObject({ location: "DTN", blind: true });

    const before = await written();
    const second = await started("admin", { locationId: loc.DTN, scope: { kind: "all" }, blind: false });
    expect(second).toEqual({ ok: true, sessionId, joined: true, status: "in_progress" });
    expect(await written()).toEqual(before);
  });

  it("counts a started vial with its units left; a draw after the scan is not a variance", async () => {
    const counted = await countStock(t.db, as("staff"), {
      sessionId,
      labelCode: await labelOf(a),
      unitsRemaining: "80",
    });
    expect(counted).toMatchObject({ ok: true, already: false, found: false, quantity: 80 });
    const [line] = await t.db.select().from(schema.auditLines).where(eq(schema.auditLines.itemId, a));
    const [top] = await t.db.all<{ top: number }>(sql`SELECT max(rowid) AS top FROM stock_movements`);
    expect(line?.ledgerPosition).toBe(Number(top?.top));
    // Someone draws from it after it was counted.
    expect((await drawUnits(t.db, as("admin"), { itemId: a, units: "10" })).ok).toBe(true);
    expect((await item(a)).unitsRemaining).toBe(70);
  });

  it("asks the units left of a started vial, and counts a vial scanned twice once", async () => {
    expect(await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(f) })).toMatchObject({
      ok: false,
      refusal: "units_needed",
    });
    expect(
      await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(f), unitsRemaining: 60 }),
    ).toMatchObject({ ok: true, quantity: 60 });
    const once = await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(b) });
    expect(once).toMatchObject({ ok: true, already: false, quantity: 100 });
    const before = await written();
    const twice = await countStock(t.db, as("admin"), { sessionId, labelCode: (await labelOf(b)).toLowerCase() });
    expect(twice).toMatchObject({ ok: true, already: true });
    expect(await written()).toEqual(before);
    const lines = await t.db.select().from(schema.auditLines).where(eq(schema.auditLines.itemId, b));
    expect(lines).toHaveLength(1);
  });

  it("records a vial the system places at another location as found, and moves nothing", async () => {
    const found = await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(d) });
    expect(found).toMatchObject({ ok: true, found: true, quantity: 100 });
    expect(await item(d)).toMatchObject({ locationId: loc.WST, state: "sealed", unitsRemaining: 100 });
  });

  it("keeps two counters' bulk counts of two shelves, which add up", async () => {
    gaugeBefore = await level("DTN", GAUZE);
    expect(gaugeBefore).toBeGreaterThan(0);
    const one = await countStock(t.db, as("staff"), { sessionId, variationId: GAUZE, quantity: "1000" });
    const two = await countStock(t.db, as("multi"), { sessionId, variationId: GAUZE, lot: null, quantity: 500 });
    expect(one.ok && two.ok).toBe(true);
    const lines = await t.db.select().from(schema.auditLines).where(eq(schema.auditLines.variationId, GAUZE));
    expect(lines.map((l) => l.quantity).sort()).toEqual([1000, 500].sort());
    // Stock used after both shelves were counted is not a variance.
    const adjusted = await adjustStock(t.db, as("admin"), {
      locationId: loc.DTN,
      variationId: GAUZE,
      quantity: "-200",
      reason: "damaged",
      note: null,
    });
    expect(adjusted.ok).toBe(true);
  });

  it("refuses bad counts and writes nothing", async () => {
    const before = await written();
    const refusals = [
      [{ sessionId, variationId: GAUZE, quantity: "-5" }, "invalid"],
      [{ sessionId, variationId: GAUZE, quantity: -5 }, "invalid"],
      [{ sessionId, variationId: GAUZE, quantity: "2.5" }, "invalid"],
      [{ sessionId, variationId: GAUZE, quantity: 2.5 }, "invalid"],
      [{ sessionId, variationId: GAUZE, quantity: "1".repeat(30) }, "invalid"],
      [{ sessionId, variationId: GAUZE, quantity: "" }, "invalid"],
      [{ sessionId, variationId: XEOMIN, quantity: "3" }, "bulk_only"],
      [{ sessionId, labelCode: "V000000000" }, "unknown_label"],
      [{ sessionId, labelCode: "x".repeat(10_000) }, "invalid"],
      [{ sessionId, labelCode: "" }, "invalid"],
      [{ sessionId, labelCode: await labelOf(f), unitsRemaining: "-1" }, "invalid"],
      [{ sessionId, labelCode: await labelOf(f), unitsRemaining: "0.5" }, "invalid"],
      [{ sessionId, labelCode: await labelOf(f), unitsRemaining: "101" }, "too_many_units"],
      [{ sessionId: "nope", variationId: GAUZE, quantity: "1" }, "not_found"],
    ] as const;
    for (const [input, refusal] of refusals) {
      const outcome = await countStock(t.db, as("staff"), input);
      expect(outcome, JSON.stringify(input).slice(0, 80)).toMatchObject({ ok: false, refusal });
    }
    // Another location's staff does not reach it.
    expect(
      await countStock(t.db, as("manager", "WST"), { sessionId, variationId: GAUZE, quantity: "1" }),
    ).toMatchObject({ ok: false, refusal: "not_found" });
    expect(await written()).toEqual(before);
  });

  it("reads expected against counted as of each line, blind or not", async () => {
    const session = await readSession(t.db, as("admin"), "READ_AUDITS", sessionId);
    if (!session) throw new Error("no session");
    const report = await readReport(t.db, session);
    const vial = (id: string) => report.vials.find((v) => v.itemId === id);
    expect(vial(a)).toMatchObject({ counted: 80, expected: 80, variance: 0, final: 70 });
    expect(vial(f)).toMatchObject({ counted: 60, expected: 70, variance: -10, valueCents: -5200 });
    expect(vial(d)).toMatchObject({ found: true, itemLocationCode: "WST", variance: 100 });
    expect(report.missing.map((m) => m.itemId)).toEqual([c]);
    // Beside it, what moved while it was counted: the draw and the gauze used.
    expect(report.during.map((m) => [m.type, m.quantity])).toEqual([
      ["ADJUST", -200],
      ["USE", -10],
    ]);
    const gauze = report.bulk.find((g) => g.variationId === GAUZE);
    expect(gauze).toMatchObject({ counted: 1500, expected: gaugeBefore, variance: 1500 - gaugeBefore });
  });

  it("submits; a closed count refuses counting with a clear message and writes nothing", async () => {
    expect(await submitCount(t.db, as("staff"), { sessionId })).toEqual({ ok: true, sessionId, status: "submitted" });
    const before = await written();
    const late = await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(c) });
    expect(late).toMatchObject({ ok: false, refusal: "closed" });
    expect(late.ok ? "" : late.message).toMatch(/submitted/);
    expect(await submitCount(t.db, as("staff"), { sessionId })).toMatchObject({ ok: false, refusal: "closed" });
    expect(await written()).toEqual(before);
  });

  it("lets staff count but not approve nor send back", async () => {
    const before = await written();
    expect(await approveCount(t.db, as("staff"), { sessionId })).toEqual({
      ok: false,
      refusal: "not_found",
      message: COUNT_REFUSALS.not_found,
    });
    expect(await rejectCount(t.db, as("staff"), { sessionId, note: "again" })).toMatchObject({
      ok: false,
      refusal: "not_found",
    });
    // A manager of another location does not reach it either.
    expect(await approveCount(t.db, as("manager", "WST"), { sessionId })).toMatchObject({ ok: false });
    expect(await written()).toEqual(before);
  });

  it("approves: books exactly the true variance as of the count, discards the missing vial, brings the found one", async () => {
    const xeominHere = await level("DTN", XEOMIN);
    const xeominThere = await level("WST", XEOMIN);
    const gauzeNow = await level("DTN", GAUZE);
    const cUnits = (await item(c)).unitsRemaining;
    const approved = await approveCount(t.db, as("admin"), { sessionId, idempotencyKey: "approve-key-1" });
    expect(approved).toMatchObject({ ok: true, status: "approved", discarded: 1, found: 1 });

    // a: counted 80 then drawn 10 → 70, no variance. f: 70 → 60. c: discarded. d: 100 here.
    expect(await item(a)).toMatchObject({ unitsRemaining: 70, state: "in_use" });
    expect(await item(f)).toMatchObject({ unitsRemaining: 60, state: "in_use" });
    expect(await item(c)).toMatchObject({ unitsRemaining: 0, state: "discarded", discardReason: "missing_in_count" });
    expect(await item(d)).toMatchObject({ unitsRemaining: 100, state: "sealed", locationId: loc.DTN });
    expect(await level("DTN", XEOMIN)).toBe(xeominHere - 10 - cUnits + 100);
    expect(await level("WST", XEOMIN)).toBe(xeominThere - 100);
    // Gauze: 1500 counted before 200 were used → 1300 now.
    expect(await level("DTN", GAUZE)).toBe(1300);
    expect(gauzeNow).toBe(gaugeBefore - 200);

    const moves = await t.db
      .select()
      .from(schema.stockMovements)
      .where(eq(schema.stockMovements.referenceId, sessionId));
    expect(moves.every((m) => m.referenceType === "audit")).toBe(true);
    expect(moves.filter((m) => m.itemId === a)).toEqual([]);
    expect(moves.filter((m) => m.itemId === f).map((m) => [m.type, m.quantity])).toEqual([["COUNT", -10]]);
    expect(moves.filter((m) => m.itemId === c).map((m) => [m.type, m.quantity, m.reason])).toEqual([
      ["DISCARD", -cUnits, "missing_in_count"],
    ]);
    expect(
      moves
        .filter((m) => m.itemId === d)
        .map((m) => [m.type, m.quantity, m.locationId])
        .sort(),
    ).toEqual(
      [
        ["COUNT", -100, loc.WST],
        ["COUNT", 100, loc.DTN],
      ].sort(),
    );
    expect(moves.filter((m) => m.variationId === GAUZE).map((m) => m.quantity)).toEqual([1500 - gaugeBefore]);
    await expectLedgerBalances();

    const session = await readSession(t.db, as("admin"), "READ_AUDITS", sessionId);
    expect(session).toMatchObject({ status: "approved", reviewedByName: "Adam Admin" });
    // Read again once approved, the review says what it said before: its own bookings are not "moved since".
    if (!session) throw new Error("no session");
    const report = await readReport(t.db, session);
    expect(report.vials.find((v) => v.itemId === f)).toMatchObject({ expected: 70, variance: -10, after: 0 });
    expect(report.vials.find((v) => v.itemId === a)).toMatchObject({ expected: 80, variance: 0, after: -10 });
    expect(report.missing.map((m) => [m.itemId, m.unitsNow])).toEqual([[c, cUnits]]);
    expect(report.bulk.find((g) => g.variationId === GAUZE)).toMatchObject({ variance: 1500 - gaugeBefore });
    expect(await t.lastActivity()).toMatchObject({ action: "audit_complete", entityId: sessionId });

    // The same key answers the same, writing nothing more; another approve is refused.
    const before = await written();
    expect(await approveCount(t.db, as("admin"), { sessionId, idempotencyKey: "approve-key-1" })).toEqual(approved);
    expect(await approveCount(t.db, as("admin"), { sessionId })).toMatchObject({ ok: false, refusal: "not_submitted" });
    expect(await written()).toEqual(before);
  });
});

describe("sent back for a recount", () => {
  let sessionId: string;
  let v: string;

  it("refuses bad starts and writes nothing", async () => {
    const before = await written();
    const bad = [
      [as("staff"), { locationId: loc.WST, scope: { kind: "all" }, blind: false }, "forbidden"],
      [
        as("owner", ORGANIZATION),
        { locationId: "another-orgs-location", scope: { kind: "all" }, blind: false },
        "location_unavailable",
      ],
      [
        as("staff"),
        { locationId: loc.DTN, scope: { kind: "category", category: "Spaceships" }, blind: false },
        "category_unknown",
      ],
      [
        as("staff"),
        { locationId: loc.DTN, scope: { kind: "products", productIds: ["nope"] }, blind: false },
        "products_unknown",
      ],
      [as("staff"), { locationId: loc.DTN, scope: { kind: "products", productIds: [] }, blind: false }, "invalid"],
      [as("staff"), { locationId: loc.DTN, scope: { kind: "shelf" }, blind: false }, "invalid"],
      [as("staff"), { locationId: loc.DTN, scope: { kind: "all" } }, "invalid"],
    ] as const;
    for (const [actor, input, refusal] of bad) {
      const outcome = await startCount(t.db, actor, input as Parameters<typeof startCount>[2]);
      expect(outcome, JSON.stringify(input)).toMatchObject({ ok: false, refusal });
    }
    expect(await written()).toEqual(before);
  });

  it("sends back with a required note; the count reopens when counted again", async () => {
    [v] = (await receive(1)) as [string];
    ({ sessionId } = await started("multi", {
      locationId: loc.DTN,
      scope: { kind: "category", category: "Neurotoxin" },
      blind: false,
    }));
    expect(await submitCount(t.db, as("multi"), { sessionId })).toMatchObject({
      ok: false,
      refusal: "nothing_counted",
    });
    expect((await countStock(t.db, as("multi"), { sessionId, labelCode: await labelOf(v) })).ok).toBe(true);
    expect((await submitCount(t.db, as("multi"), { sessionId })).ok).toBe(true);

    const before = await written();
    for (const note of ["", "   ", "x".repeat(10_000)]) {
      expect(await rejectCount(t.db, as("admin"), { sessionId, note })).toMatchObject({
        ok: false,
        refusal: "invalid",
      });
    }
    expect(await written()).toEqual(before);

    expect(await rejectCount(t.db, as("admin"), { sessionId, note: "Recount the fridge, top shelf" })).toEqual({
      ok: true,
      sessionId,
      status: "rejected",
    });
    expect(await t.lastActivity()).toMatchObject({ action: "reject_count" });
    expect(await submitCount(t.db, as("multi"), { sessionId })).toMatchObject({
      ok: false,
      refusal: "not_in_progress",
    });
    // Starting at Downtown now joins the count sent back.
    expect(
      await startCount(t.db, as("staff"), { locationId: loc.DTN, scope: { kind: "all" }, blind: true }),
    ).toMatchObject({ ok: true, sessionId, joined: true, status: "rejected" });
    // Counting again reopens it; the note stays for the counters.
    expect(
      (await countStock(t.db, as("multi"), { sessionId, labelCode: await labelOf(v), unitsRemaining: "100" })).ok,
    ).toBe(true);
    const reopened = await readSession(t.db, as("multi"), "WRITE_INVENTORY", sessionId);
    expect(reopened).toMatchObject({ status: "in_progress", reviewNote: "Recount the fridge, top shelf" });
    expect((await submitCount(t.db, as("multi"), { sessionId })).ok).toBe(true);
    const approved = await approveCount(t.db, as("admin"), { sessionId });
    expect(approved.ok).toBe(true);
    await expectLedgerBalances();
  });

  it("books a vial drawn between the submit and the approval from what was counted, not on top of it", async () => {
    const [w] = (await receive(1)) as [string];
    const { sessionId: id } = await started("staff", {
      locationId: loc.DTN,
      scope: { kind: "products", productIds: [XEOMIN_PRODUCT] },
      blind: true,
    });
    // Every Xeomin vial on the shelf here is counted as the system has it, w with 10 U less.
    const shelf = await t.db.all<{ labelCode: string; state: string; units: number; id: string }>(sql`SELECT id,
        label_code AS labelCode, state, units_remaining AS units FROM items
      WHERE location_id = ${loc.DTN} AND variation_id = ${XEOMIN} AND state IN ('sealed', 'in_use')`);
    for (const s of shelf) {
      const units = s.id === w ? "90" : String(s.units);
      expect(
        (await countStock(t.db, as("staff"), { sessionId: id, labelCode: s.labelCode, unitsRemaining: units })).ok,
      ).toBe(true);
    }
    expect((await submitCount(t.db, as("staff"), { sessionId: id })).ok).toBe(true);
    // Drawn after the count, before the approval.
    expect((await drawUnits(t.db, as("staff"), { itemId: w, units: "5" })).ok).toBe(true);
    const here = await level("DTN", XEOMIN);
    const approved = await approveCount(t.db, as("admin"), { sessionId: id });
    expect(approved).toMatchObject({ ok: true, booked: 1, discarded: 0, found: 0 });
    expect((await item(w)).unitsRemaining).toBe(85);
    expect(await level("DTN", XEOMIN)).toBe(here - 10);
    await expectLedgerBalances();
  });
});

describe("races and vials the system has ended", () => {
  it("counts a vial scanned by two counters at once once, and approves once when two reviewers approve at once", async () => {
    const [x] = (await receive(1)) as [string];
    const { sessionId } = await started("staff", {
      locationId: loc.DTN,
      scope: { kind: "products", productIds: [XEOMIN_PRODUCT] },
      blind: true,
    });
    const label = await labelOf(x);
    const both = await Promise.all([
      countStock(t.db, as("staff"), { sessionId, labelCode: label }),
      countStock(t.db, as("multi"), { sessionId, labelCode: label }),
    ]);
    expect(both.every((o) => o.ok)).toBe(true);
    expect(both.filter((o) => o.ok && !o.already)).toHaveLength(1);
    const lines = await t.db.select().from(schema.auditLines).where(eq(schema.auditLines.itemId, x));
    expect(lines).toHaveLength(1);
    // The rest of the shelf, as the system has it.
    const shelf = await t.db.all<{ labelCode: string; units: number; id: string }>(sql`SELECT id,
        label_code AS labelCode, units_remaining AS units FROM items
      WHERE location_id = ${loc.DTN} AND variation_id = ${XEOMIN} AND state IN ('sealed', 'in_use') AND id <> ${x}`);
    for (const s of shelf) {
      const counted = await countStock(t.db, as("staff"), {
        sessionId,
        labelCode: s.labelCode,
        unitsRemaining: String(s.units),
      });
      expect(counted.ok).toBe(true);
    }
    expect((await submitCount(t.db, as("staff"), { sessionId })).ok).toBe(true);
    const activityBefore = await t.activityCount();
    const approvals = await Promise.all([
      approveCount(t.db, as("admin"), { sessionId }),
      approveCount(t.db, as("owner", ORGANIZATION), { sessionId }),
    ]);
    expect(approvals.filter((o) => o.ok)).toHaveLength(1);
    expect(approvals.find((o) => !o.ok)).toMatchObject({ refusal: "not_submitted" });
    expect(await t.activityCount()).toBe(activityBefore + 1);
    await expectLedgerBalances();
  });

  it("records a vial the system has as emptied as found, and leaves it finished: a finished vial never changes again", async () => {
    const [y] = (await receive(1)) as [string];
    expect((await drawUnits(t.db, as("staff"), { itemId: y, units: "60" })).ok).toBe(true);
    const { emptyVial } = await import("../../app/vials/empty.server");
    expect((await emptyVial(t.db, as("staff"), { itemId: y })).ok).toBe(true);
    expect(await item(y)).toMatchObject({ state: "empty", unitsRemaining: 0 });
    const { sessionId } = await started("staff", {
      locationId: loc.DTN,
      scope: { kind: "products", productIds: [XEOMIN_PRODUCT] },
      blind: false,
    });
    expect(await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(y) })).toMatchObject({
      ok: false,
      refusal: "units_needed",
    });
    expect(
      await countStock(t.db, as("staff"), { sessionId, labelCode: await labelOf(y), unitsRemaining: "40" }),
    ).toMatchObject({ ok: true, found: true, quantity: 40 });
    // Everything else on the shelf, as the system has it.
    const shelf = await t.db.all<{ labelCode: string; units: number }>(sql`SELECT label_code AS labelCode,
        units_remaining AS units FROM items
      WHERE location_id = ${loc.DTN} AND variation_id = ${XEOMIN} AND state IN ('sealed', 'in_use')`);
    for (const s of shelf) {
      await countStock(t.db, as("staff"), { sessionId, labelCode: s.labelCode, unitsRemaining: String(s.units) });
    }
    expect((await submitCount(t.db, as("staff"), { sessionId })).ok).toBe(true);
    const session = await readSession(t.db, as("admin"), "READ_AUDITS", sessionId);
    if (!session) throw new Error("no session");
    expect((await readReport(t.db, session)).vials.find((v) => v.itemId === y)).toMatchObject({
      found: true,
      finished: true,
      variance: 0,
    });
    const here = await level("DTN", XEOMIN);
    expect(await approveCount(t.db, as("admin"), { sessionId })).toMatchObject({ ok: true, found: 0, discarded: 0 });
    // A finished vial never changes again: it stays emptied, nothing booked for it.
    expect(await item(y)).toMatchObject({ state: "empty", unitsRemaining: 0 });
    expect(await level("DTN", XEOMIN)).toBe(here);
    await expectLedgerBalances();
  });
});

describe("a count sent back while another is open at the location", () => {
  it("is refused with why, and nothing is written (found by the ledger property)", async () => {
    const [v] = (await receive(1, "WST")) as [string];
    const first = await started("owner", { locationId: loc.WST, scope: { kind: "all" }, blind: false }, "WST");
    expect(
      (await countStock(t.db, as("owner", "WST"), { sessionId: first.sessionId, labelCode: await labelOf(v) })).ok,
    ).toBe(true);
    expect((await submitCount(t.db, as("owner", "WST"), { sessionId: first.sessionId })).ok).toBe(true);
    // The submitted count is not open: a new count starts beside it.
    const second = await started("owner", { locationId: loc.WST, scope: { kind: "all" }, blind: false }, "WST");
    expect(second.sessionId).not.toBe(first.sessionId);
    const before = await written();
    expect(
      await rejectCount(t.db, as("owner", "WST"), { sessionId: first.sessionId, note: "Count again" }),
    ).toMatchObject({
      ok: false,
      refusal: "another_count_open",
    });
    expect(await written()).toEqual(before);
    // Approving it is still possible.
    expect((await approveCount(t.db, as("owner", "WST"), { sessionId: first.sessionId })).ok).toBe(true);
    await expectLedgerBalances();
  });
});

describe("a bulk recount after a send-back", () => {
  it("replaces the product's earlier shelves, and keeps what was not counted again", async () => {
    const { sessionId } = await started("staff", {
      locationId: loc.DTN,
      scope: { kind: "products", productIds: [GAUZE_PRODUCT] },
      blind: true,
    });
    for (const quantity of ["300", "200"]) {
      expect((await countStock(t.db, as("staff"), { sessionId, variationId: GAUZE, quantity })).ok).toBe(true);
    }
    expect((await submitCount(t.db, as("staff"), { sessionId })).ok).toBe(true);
    expect((await rejectCount(t.db, as("admin"), { sessionId, note: "Gauze: count both shelves again" })).ok).toBe(
      true,
    );
    const session = async () => {
      const s = await readSession(t.db, as("admin"), "READ_AUDITS", sessionId);
      if (!s) throw new Error("no session");
      return s;
    };
    // Nothing counted again yet: the earlier shelves still count.
    expect((await readReport(t.db, await session())).bulk[0]?.counted).toBe(500);
    // Ensure the recount is later than the send-back, to the millisecond.
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const quantity of ["310", "190", "5"]) {
      expect((await countStock(t.db, as("multi"), { sessionId, variationId: GAUZE, quantity })).ok).toBe(true);
    }
    const report = await readReport(t.db, await session());
    expect(report.bulk[0]?.counted).toBe(505);
    expect(report.bulk[0]?.lines.map((l) => l.quantity)).toEqual([310, 190, 5]);
    expect((await submitCount(t.db, as("multi"), { sessionId })).ok).toBe(true);
    const onHand = await level("DTN", GAUZE);
    expect((await approveCount(t.db, as("admin"), { sessionId })).ok).toBe(true);
    expect(await level("DTN", GAUZE)).toBe(505);
    expect(onHand).not.toBe(505);
    await expectLedgerBalances();
  });
});

describe("what a review lists of what was not counted", () => {
  it("names the bulk sizes in the count's scope with stock and no line, and pages the missing vials with their totals", async () => {
    // North: nothing counted there yet. Its bulk levels with stock, by category, read plainly.
    const bulkHere = async (category: string | null) =>
      (
        await t.db.all<{ id: string }>(sql`SELECT v.id FROM stock_levels AS sl
          JOIN product_variations AS v ON v.id = sl.variation_id JOIN products AS p ON p.id = v.product_id
          WHERE sl.location_id = ${loc.NTH} AND sl.on_hand > 0 AND p.tracking = 'bulk'
            AND (${category} IS NULL OR p.category = ${category}) ORDER BY v.id`)
      ).map((r) => r.id);
    const [gauze] = await t.db.all<{ category: string }>(
      sql`SELECT category FROM products WHERE id = ${GAUZE_PRODUCT}`,
    );
    const category = gauze?.category ?? "";
    const inCategory = await bulkHere(category);
    expect(inCategory.length).toBeGreaterThan(0);
    expect((await bulkHere(null)).length).toBeGreaterThan(inCategory.length);
    const [vialA, vialB, vialC] = await receiveVials(t.db, as("owner", "NTH"), {
      locationId: loc.NTH,
      variationId: XEOMIN,
      quantity: 3,
      lot: "NOTCOUNTED",
      expirationDate: day(300),
    });
    const reviewOf = async (sessionId: string, page?: Parameters<typeof readSessionReport>[4]) => {
      const read = await readSessionReport(t.db, as("owner", "NTH"), "READ_AUDITS", sessionId, page);
      if (!read) throw new Error("no count");
      return read.report;
    };
    const category_ = await started(
      "owner",
      { locationId: loc.NTH, scope: { kind: "category", category }, blind: false },
      "NTH",
    );
    const byCategory = await reviewOf(category_.sessionId);
    expect(byCategory.notCounted.map((n) => n.variationId).sort()).toEqual(inCategory);
    expect(byCategory.totals.notCounted).toBe(inCategory.length);
    // A page names the first of them and still counts them all.
    const named = await reviewOf(category_.sessionId, {
      vialOffset: 0,
      vialLimit: 1,
      missingOffset: 0,
      missingLimit: 1,
      notCountedLimit: 1,
    });
    expect(named.notCounted).toHaveLength(1);
    expect(named.totals.notCounted).toBe(inCategory.length);
    // One size counted as it stands, so the count can be submitted and approved with nothing to book.
    const [counted] = inCategory as [string];
    const [standing] = await t.db.all<{ onHand: number }>(
      sql`SELECT on_hand AS onHand FROM stock_levels WHERE location_id = ${loc.NTH} AND variation_id = ${counted}`,
    );
    expect(
      (
        await countStock(t.db, as("owner", "NTH"), {
          sessionId: category_.sessionId,
          variationId: counted,
          quantity: String(standing?.onHand ?? 0),
        })
      ).ok,
    ).toBe(true);
    expect((await reviewOf(category_.sessionId)).totals.notCounted).toBe(inCategory.length - 1);
    expect((await submitCount(t.db, as("owner", "NTH"), { sessionId: category_.sessionId })).ok).toBe(true);
    expect((await approveCount(t.db, as("owner", "NTH"), { sessionId: category_.sessionId })).ok).toBe(true);

    // Chosen products, Gauze and Xeomin: Gauze's sizes not counted, Xeomin's three new vials missing.
    const chosen = await started(
      "owner",
      { locationId: loc.NTH, scope: { kind: "products", productIds: [GAUZE_PRODUCT, XEOMIN_PRODUCT] }, blind: false },
      "NTH",
    );
    const whole = await reviewOf(chosen.sessionId);
    expect(whole.notCounted.map((n) => n.variationId)).toEqual((await bulkHere(null)).filter((id) => id === GAUZE));
    expect(whole.missing.map((m) => m.itemId).sort()).toEqual([vialA, vialB, vialC].sort());
    const cents = whole.missing.reduce((sum, m) => sum + m.valueCents, 0);
    expect(whole.totals).toMatchObject({ missingVials: 3, missingCents: cents });
    // Pages of two: every page carries the totals of all three.
    const first = await reviewOf(chosen.sessionId, {
      vialOffset: 0,
      vialLimit: 2,
      missingOffset: 0,
      missingLimit: 2,
      notCountedLimit: 30,
    });
    const second = await reviewOf(chosen.sessionId, {
      vialOffset: 0,
      vialLimit: 2,
      missingOffset: 2,
      missingLimit: 2,
      notCountedLimit: 30,
    });
    expect([...first.missing, ...second.missing].map((m) => m.itemId)).toEqual(whole.missing.map((m) => m.itemId));
    for (const page of [first, second]) expect(page.totals).toEqual(whole.totals);
    // Past the end: the first page.
    const past = await reviewOf(chosen.sessionId, {
      vialOffset: 0,
      vialLimit: 2,
      missingOffset: 40,
      missingLimit: 2,
      notCountedLimit: 30,
    });
    expect(past.missing.map((m) => m.itemId)).toEqual(first.missing.map((m) => m.itemId));
    // The approval's question counts all three.
    expect(approvalQuestion(first)).toMatch(/3 missing vials discarded/);
  });
});

describe("a review's page of vials", () => {
  it("puts what differs first exactly as the report judges it, for every count of this file", async () => {
    const sessions = await t.db.all<{ id: string }>(sql`SELECT id FROM audit_sessions ORDER BY id`);
    let differing = 0;
    for (const { id } of sessions) {
      const full = await readSessionReport(t.db, as("owner", ORGANIZATION), "READ_AUDITS", id);
      const paged = await readSessionReport(t.db, as("owner", ORGANIZATION), "READ_AUDITS", id, {
        vialOffset: 0,
        vialLimit: 1000,
        missingOffset: 0,
        missingLimit: 1000,
        notCountedLimit: 1000,
      });
      if (!full || !paged) throw new Error(`no count ${id}`);
      const differs = (v: { variance: number; found: boolean; movedOn: boolean }) =>
        v.variance !== 0 || v.found || v.movedOn;
      const expected = [...full.report.vials.filter(differs), ...full.report.vials.filter((v) => !differs(v))];
      differing += full.report.vials.filter(differs).length;
      expect(paged.report.vialPage ?? [], id).toEqual(expected);
      expect(paged.report.totals).toEqual(full.report.totals);
    }
    // The counts above have vials that differ and vials that do not.
    expect(differing).toBeGreaterThan(0);
  });
});

describe("a review's figures as the jobs worker works them out", () => {
  const firstPages = { vials: 1, bulk: 1, missing: 1, during: 1 };
  const owner = () => as("owner", ORGANIZATION);
  /** Runs the worker until every count it works out has its figures (it takes a few a run). */
  async function workedOutAll() {
    for (let run = 0; run < 10; run++) {
      await workOutCountReviews(t.db);
      const [left] = await t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_sessions AS s
        LEFT JOIN worked_out_counts AS w ON w.session_id = s.id
        WHERE s.status IN ('submitted', 'approved') AND (w.session_id IS NULL OR w.status <> s.status)`);
      if (Number(left?.n) === 0) return;
    }
    throw new Error("the worker did not work out every count");
  }

  it("reads every count of this file as the live report reads it, page by page", async () => {
    // A count with more vials than a page shows, awaiting review.
    const vials = await receive(REVIEW_PAGE.rows + 5);
    const { sessionId } = await started(
      "owner",
      { locationId: loc.DTN, scope: { kind: "products", productIds: [XEOMIN_PRODUCT] }, blind: false },
      "DTN",
    );
    for (const vial of vials.slice(0, REVIEW_PAGE.rows + 3))
      expect((await countStock(t.db, as("owner"), { sessionId, labelCode: await labelOf(vial) })).ok).toBe(true);
    expect((await submitCount(t.db, as("owner"), { sessionId })).ok).toBe(true);
    await workedOutAll();
    const sessions = await t.db.all<{ id: string; status: string }>(
      sql`SELECT id, status FROM audit_sessions ORDER BY id`,
    );
    let worked = 0;
    for (const { id, status } of sessions) {
      for (const page of [
        firstPages,
        { vials: 2, bulk: 2, missing: 2, during: 2 },
        { vials: 9, bulk: 1, missing: 9, during: 1 },
      ]) {
        const read = await readReview(t.db, owner(), "READ_AUDITS", id, page);
        const live = await readLiveReview(t.db, owner(), "READ_AUDITS", id, page);
        if (!read || !live) throw new Error(`no count ${id}`);
        // Only counts awaiting review or approved are worked out; the others are read live.
        expect(read.review.asOf !== null, id).toBe(status === "submitted" || status === "approved");
        expect({ ...read.review, asOf: null }, id).toEqual(live.review);
      }
      // The JSON API's whole count, likewise.
      const whole = await readCountDocument(t.db, owner(), "READ_AUDITS", id);
      const wholeLive = await readLiveCountDocument(t.db, owner(), "READ_AUDITS", id);
      expect(whole?.document.asOf !== null, id).toBe(status === "submitted" || status === "approved");
      expect({ ...whole?.document, asOf: null }, id).toEqual(wholeLive?.document);
      if (status === "submitted" || status === "approved") worked++;
    }
    expect(worked).toBeGreaterThan(1);
    // The second page of the long count holds its last three vials.
    const second = await readReview(t.db, owner(), "READ_AUDITS", sessionId, { ...firstPages, vials: 2 });
    expect(second?.review.asOf).toEqual(expect.any(Number));
    expect(second?.review.vials).toMatchObject({ total: REVIEW_PAGE.rows + 3 });
    expect(second?.review.vials.rows).toHaveLength(3);
  });

  it("stands while it is of the count as it stands: recent while it waits, for good once approved", async () => {
    const [first, second] = await receive(2);
    const { sessionId } = await started(
      "owner",
      { locationId: loc.DTN, scope: { kind: "products", productIds: [XEOMIN_PRODUCT] }, blind: false },
      "DTN",
    );
    const labelCode = await labelOf(first ?? "");
    expect((await countStock(t.db, as("owner"), { sessionId, labelCode })).ok).toBe(true);
    expect((await submitCount(t.db, as("owner"), { sessionId })).ok).toBe(true);
    const review = (now?: Date) => readReview(t.db, owner(), "READ_AUDITS", sessionId, firstPages, now);
    // Submitted, not yet worked out: read live.
    expect((await review())?.review.asOf).toBeNull();
    // The review page asked for a page far past the end (or no number at all) shows the first.
    const { cookie } = await signedIn(t.db, "owner");
    for (const query of ["?vials=1e20&missing=99999999999999999999&bulk=-3&during=x", "?vials=9999"]) {
      const shown = await outcome(() =>
        reviewScreen.loader({
          request: pageRequest(`/admin/audits/${sessionId}${query}`, cookie),
          context: loadContext(t.db),
          params: { id: sessionId },
        }),
      );
      expect(shown.status, query).toBe(200);
      expect(
        (shown.data as { vials: { itemId: string }[] }).vials.map((v) => v.itemId),
        query,
      ).toEqual((await review())?.review.vials.rows.map((v) => v.itemId));
    }
    await workOutCountReviews(t.db);
    const asOf = (await review())?.review.asOf;
    expect(asOf).toEqual(expect.any(Number));
    // Four minutes on, with no run since (the worker stopped): read live again.
    expect((await review(new Date((asOf ?? 0) + 4 * 60_000)))?.review.asOf).toBeNull();
    // Sent back: read live, whatever was worked out.
    expect((await rejectCount(t.db, as("owner"), { sessionId, note: "Recount the top shelf" })).ok).toBe(true);
    expect((await review())?.review.asOf).toBeNull();
    // Counted again, submitted again: the figures of the first submission no longer stand.
    expect((await countStock(t.db, as("owner"), { sessionId, labelCode: await labelOf(second ?? "") })).ok).toBe(true);
    expect((await submitCount(t.db, as("owner"), { sessionId })).ok).toBe(true);
    expect((await review())?.review.asOf).toBeNull();
    expect((await approveCount(t.db, as("owner"), { sessionId })).ok).toBe(true);
    await workOutCountReviews(t.db);
    const approved = await review(new Date(Date.now() + 30 * 86_400_000));
    // Approved: worked out once after its approval, standing a month later.
    expect(approved?.review.asOf).toEqual(expect.any(Number));
    expect({ ...approved?.review, asOf: null }).toEqual(
      (await readLiveReview(t.db, owner(), "READ_AUDITS", sessionId, firstPages))?.review,
    );
  });

  it("is not read by someone who cannot reach the count's location", async () => {
    const [row] = await t.db.all<{ id: string }>(
      sql`SELECT session_id AS id FROM worked_out_counts AS w JOIN audit_sessions AS s ON s.id = w.session_id
        WHERE s.location_id = ${loc.DTN} LIMIT 1`,
    );
    expect(row).toBeDefined();
    expect(await readReview(t.db, as("manager", "WST"), "READ_AUDITS", row?.id ?? "", firstPages)).toBeNull();
  });
});
