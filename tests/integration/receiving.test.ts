import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { type Database, schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { addReceiptLine } from "../../app/receiving/add-line.server";
import { attachGtin } from "../../app/receiving/attach-gtin.server";
import { cancelReceipt } from "../../app/receiving/cancel.server";
import { completeReceipt } from "../../app/receiving/complete.server";
import { LINE_MESSAGES } from "../../app/receiving/constants";
import { ReceiptLineForm, type ReceiptLineInput } from "../../app/receiving/forms";
import { listReceipts, receiptDetail } from "../../app/receiving/list.server";
import { openReceipt } from "../../app/receiving/open.server";
import { RECEIVING_REFUSALS } from "../../app/receiving/outcome";
import { removeReceiptLine } from "../../app/receiving/remove-line.server";
import { readScan } from "../../app/receiving/scan.server";
import * as receivingScreen from "../../app/routes/_app.receiving._index";
import * as receiptScreen from "../../app/routes/_app.receiving.$receiptId.add-products";
import { GS } from "../../app/stock/gs1";
import { LABEL_CODE_PATTERN } from "../../app/stock/label-code";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { variationFacts } from "../support/receive";
import { formRequest, loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

type Where = "DTN" | "WST" | "NTH" | typeof ORGANIZATION;

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();

/** Seeded variations the tests receive. */
let BOTOX_100: { id: string; units: number; costCents: number };
let XEOMIN: { id: string; units: number; costCents: number };
let PADS: { id: string; units: number; costCents: number };

const variation = (product: string, name: string) => variationFacts(t.db, product, name);

/** Signs in for real: the session user and its cookie, exactly what a route sees. */
const session = (name: string) => signedIn(t.db, name, env);

/** The actor a route hands a receiving verb: the user and the location in scope. */
function as(name: string, where: Where): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff", "multi", "newhire"]) {
    users.set(name, (await session(name)).user);
  }
  BOTOX_100 = await variation("Botox Cosmetic", "100 U vial");
  XEOMIN = await variation("Xeomin", "100 U vial");
  PADS = await variation("Alcohol prep pads", "Box of 200");
});
afterAll(() => t.close());

/** Counts of everything a completion writes, and the ledger's balance, in one batch. */
async function stockState() {
  const [items, barcodes, movements, activity, levels, sums] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.items),
    t.db.select({ n: count() }).from(schema.barcodes),
    t.db.select({ n: count() }).from(schema.stockMovements),
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.select().from(schema.stockLevels),
    t.db.all<{ key: string; total: number }>(
      sql`SELECT location_id || '|' || variation_id AS key, SUM(quantity) AS total FROM stock_movements
        GROUP BY location_id, variation_id`,
    ),
  ]);
  return {
    items: items[0]?.n ?? 0,
    barcodes: barcodes[0]?.n ?? 0,
    movements: movements[0]?.n ?? 0,
    activity: activity[0]?.n ?? 0,
    levels: Object.fromEntries(levels.map((l) => [`${l.locationId}|${l.variationId}`, l.onHand])),
    sums: Object.fromEntries(sums.map((s) => [s.key, Number(s.total)])),
    onHand: (locationId: string, variationId: string) =>
      levels.find((l) => l.locationId === locationId && l.variationId === variationId)?.onHand ?? 0,
  };
}

async function expectNothingWritten<T>(work: () => Promise<T>): Promise<T> {
  const before = await stockState();
  const result = await work();
  const after = await stockState();
  expect({ ...after, onHand: null }).toEqual({ ...before, onHand: null });
  return result;
}

async function receiptRow(id: string) {
  const [row] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, id));
  return row;
}

async function newReceipt(where: "DTN" | "WST" | "NTH" = "DTN", name = "owner") {
  const result = await openReceipt(t.db, as(name, where), {
    locationId: loc[where],
    vendorId: null,
    reference: null,
    notes: null,
  });
  if (!result.ok) throw new Error(result.message);
  return result.receiptId;
}

/** A line as typed; serialized products need a lot and an expiry, so every line has them unless told. */
const line = (variationId: string, overrides: Partial<ReceiptLineInput> = {}): ReceiptLineInput => ({
  variationId,
  quantity: 1,
  lot: "T-1",
  serial: null,
  expirationDate: "2028-01-31",
  unitCostCents: null,
  ...overrides,
});

async function addLine(receiptId: string, input: ReceiptLineInput, actor = as("owner", "DTN")) {
  const result = await addReceiptLine(t.db, actor, { receiptId, ...input });
  if (!result.ok) throw new Error(result.message);
  return result.lineId;
}

/** The database as a verb sees it, with `meanwhile` run right after its first round trip (its read). */
function interleaved(db: Database, meanwhile: () => Promise<unknown>): Database {
  let first = true;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: Parameters<Database["batch"]>[0]) => {
          const result = await target.batch(statements);
          if (first) {
            first = false;
            await meanwhile();
          }
          return result;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function foreignCatalogue() {
  const organizationId = uuidv7();
  const productId = uuidv7();
  const variationId = uuidv7();
  const vendorId = uuidv7();
  const locationId = uuidv7();
  await t.db.batch([
    t.db.insert(schema.organizations).values({ id: organizationId, name: `Other Clinics ${organizationId}` }),
    t.db.insert(schema.locations).values({ id: locationId, organizationId, name: "Elsewhere", code: "ELS" }),
    t.db.insert(schema.vendors).values({ id: vendorId, organizationId, name: "Their vendor" }),
    t.db.insert(schema.products).values({
      id: productId,
      organizationId,
      name: "Their toxin",
      category: "Neurotoxin",
      tracking: "serialized",
      baseUnit: "U",
    }),
    t.db.insert(schema.productVariations).values({ id: variationId, productId, name: "50 U", unitsPerPackage: 50 }),
  ]);
  return { organizationId, productId, variationId, vendorId, locationId };
}

/** A new active variation without a GTIN on a seeded product. */
async function variationWithoutGtin(product = "Botox Cosmetic") {
  const [p] = await t.db.select().from(schema.products).where(eq(schema.products.name, product));
  const id = uuidv7();
  await t.db.insert(schema.productVariations).values({
    id,
    productId: p?.id ?? "",
    name: `Sample ${id.slice(-6)}`,
    unitsPerPackage: 20,
    costCents: 9900,
  });
  return id;
}

describe("openReceipt", () => {
  it("opens a receipt at the location with a vendor and reference, logging open_receipt, in one round trip", async () => {
    const [vendor] = await t.db.select().from(schema.vendors).where(eq(schema.vendors.name, "Allergan Aesthetics"));
    const staff = as("staff", "DTN");
    t.resetRoundTrips();
    const result = await openReceipt(t.db, staff, {
      locationId: loc.DTN,
      vendorId: vendor?.id ?? null,
      reference: "PS-1001",
      notes: "Cold pack intact",
    });
    expect(t.roundTrips()).toBe(1);
    if (!result.ok) throw new Error(result.message);
    expect(await receiptRow(result.receiptId)).toMatchObject({
      locationId: loc.DTN,
      vendorId: vendor?.id,
      purchaseOrderId: null,
      reference: "PS-1001",
      notes: "Cold pack intact",
      status: "open",
      version: 1,
      openedBy: staff.id,
      completedAt: null,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "open_receipt",
      entity: "receipt",
      entityId: result.receiptId,
      userId: staff.id,
      locationId: loc.DTN,
      summary: { vendor: "Allergan Aesthetics", reference: "PS-1001", notes: "Cold pack intact" },
    });
  });

  it("needs WRITE_INVENTORY at that location and an active vendor and location of the organization", async () => {
    const foreign = await foreignCatalogue();
    const [archived] = await t.db
      .insert(schema.vendors)
      .values({ organizationId: (await receiptOrganization()) ?? "", name: `Gone ${uuidv7()}`, active: false })
      .returning();
    const base = { vendorId: null, reference: null, notes: null };
    const refusals = await expectNothingWritten(async () => [
      await openReceipt(t.db, as("staff", "DTN"), { ...base, locationId: loc.WST }),
      await openReceipt(t.db, as("manager", "WST"), { ...base, locationId: loc.DTN }),
      await openReceipt(t.db, as("newhire", "DTN"), { ...base, locationId: loc.DTN }),
      await openReceipt(t.db, as("owner", "DTN"), { ...base, locationId: loc.DTN, vendorId: foreign.vendorId }),
      await openReceipt(t.db, as("owner", "DTN"), { ...base, locationId: loc.DTN, vendorId: archived?.id ?? "" }),
      await openReceipt(t.db, as("owner", ORGANIZATION), { ...base, locationId: foreign.locationId }),
      await openReceipt(t.db, as("owner", ORGANIZATION), { ...base, locationId: uuidv7() }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual([
      "forbidden",
      "forbidden",
      "forbidden",
      "vendor_unavailable",
      "vendor_unavailable",
      "location_unavailable",
      "location_unavailable",
    ]);
    expect(refusals[3]).toMatchObject({ message: RECEIVING_REFUSALS.vendor_unavailable });
  });
});

async function receiptOrganization() {
  const [row] = await t.db.select().from(schema.locations).where(eq(schema.locations.id, loc.DTN));
  return row?.organizationId;
}

describe("addReceiptLine and removeReceiptLine", () => {
  it("adds a line (the cost defaults to the variation's), bumping the receipt's version, and logs it", async () => {
    const receiptId = await newReceipt("DTN", "staff");
    const staff = as("staff", "DTN");
    t.resetRoundTrips();
    const first = await addReceiptLine(t.db, staff, {
      receiptId,
      ...line(BOTOX_100.id, { quantity: 3, lot: "C1234", expirationDate: "2027-03-31" }),
    });
    expect(t.roundTrips()).toBe(1);
    expect(first).toEqual({ ok: true, lineId: expect.any(String), label: "Botox Cosmetic · 100 U vial" });
    const second = await addReceiptLine(t.db, staff, {
      receiptId,
      ...line(PADS.id, { quantity: 2, unitCostCents: 1250, lot: null, expirationDate: null }),
    });
    if (!first.ok || !second.ok) throw new Error("refused");
    const lines = await t.db
      .select()
      .from(schema.receiptLines)
      .where(eq(schema.receiptLines.receiptId, receiptId))
      .orderBy(asc(schema.receiptLines.createdAt), asc(schema.receiptLines.id));
    expect(lines).toMatchObject([
      { id: first.lineId, variationId: BOTOX_100.id, quantity: 3, lot: "C1234", expirationDate: "2027-03-31" },
      { id: second.lineId, variationId: PADS.id, quantity: 2, unitCostCents: 1250, lot: null },
    ]);
    expect(lines[0]?.unitCostCents).toBe(BOTOX_100.costCents);
    expect((await receiptRow(receiptId))?.version).toBe(3);
    expect(await t.lastActivity()).toMatchObject({
      action: "add_receipt_line",
      entity: "receipt",
      entityId: receiptId,
      locationId: loc.DTN,
      summary: { lineId: second.lineId, product: "Alcohol prep pads", variation: "Box of 200", quantity: 2 },
    });

    t.resetRoundTrips();
    expect(await removeReceiptLine(t.db, staff, { receiptId, lineId: first.lineId })).toEqual({
      ok: true,
      label: "Botox Cosmetic · 100 U vial",
    });
    expect(t.roundTrips()).toBe(1);
    expect(await t.lastActivity()).toMatchObject({
      action: "remove_receipt_line",
      entityId: receiptId,
      summary: { lineId: first.lineId, quantity: 3, lot: "C1234" },
    });
    expect((await receiptRow(receiptId))?.version).toBe(4);
    // Gone already, or a line of another receipt: not on this receipt.
    const other = await newReceipt("DTN");
    const otherLine = await addLine(other, line(PADS.id));
    const refusals = await expectNothingWritten(async () => [
      await removeReceiptLine(t.db, staff, { receiptId, lineId: first.lineId }),
      await removeReceiptLine(t.db, staff, { receiptId, lineId: otherLine }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["line_not_found", "line_not_found"]);
  });

  it("refuses a vial without its lot or expiration date, but takes a bulk line without them", async () => {
    const receiptId = await newReceipt();
    const owner = as("owner", "DTN");
    for (const missing of [{ lot: null }, { expirationDate: null }, { lot: null, expirationDate: null }]) {
      expect(await addReceiptLine(t.db, owner, { receiptId, ...line(BOTOX_100.id, missing) })).toEqual({
        ok: false,
        refusal: "untraced",
        message: RECEIVING_REFUSALS.untraced,
      });
    }
    expect(await t.db.select().from(schema.receiptLines).where(eq(schema.receiptLines.receiptId, receiptId))).toEqual(
      [],
    );
    const bulk = await addReceiptLine(t.db, owner, {
      receiptId,
      ...line(PADS.id, { lot: null, expirationDate: null }),
    });
    expect(bulk.ok).toBe(true);
  });

  it("refuses a line that breaks a rule, with the message for that field, writing nothing", async () => {
    const receiptId = await newReceipt();
    const owner = as("owner", "DTN");
    const cases: [Partial<ReceiptLineInput>, string][] = [
      [{ quantity: 0 }, LINE_MESSAGES.quantity],
      [{ quantity: 1001 }, LINE_MESSAGES.quantity],
      [{ quantity: 1.5 }, LINE_MESSAGES.quantity],
      [{ quantity: 2, serial: "SN-1" }, LINE_MESSAGES.serialOne],
      [{ lot: "L".repeat(101) }, LINE_MESSAGES.lot],
      // GS1 AI (10) and (21): "X..20" in character set 82.
      [{ lot: "L".repeat(21) }, LINE_MESSAGES.lot],
      [{ lot: "LOT💉1" }, LINE_MESSAGES.lotCharacters],
      [{ lot: "C8123 C3" }, LINE_MESSAGES.lotCharacters],
      [{ lot: "C8123\u0000C3" }, LINE_MESSAGES.lotCharacters],
      [{ quantity: 1, serial: "SN\u200b1" }, LINE_MESSAGES.serialCharacters],
      [{ quantity: 1, serial: "S".repeat(21) }, LINE_MESSAGES.serial],
      [{ expirationDate: "2027-02-30" }, LINE_MESSAGES.expirationDate],
      [{ expirationDate: "31/03/2027" }, LINE_MESSAGES.expirationDate],
      [{ unitCostCents: -1 }, LINE_MESSAGES.unitCost],
    ];
    t.resetRoundTrips();
    for (const [overrides, message] of cases) {
      expect(await addReceiptLine(t.db, owner, { receiptId, ...line(BOTOX_100.id, overrides) })).toEqual({
        ok: false,
        refusal: "invalid",
        message,
      });
    }
    expect(t.roundTrips()).toBe(0);
    // The same rules on the form, where the cost is typed in dollars.
    const parsed = ReceiptLineForm.safeParse({
      variationId: BOTOX_100.id,
      quantity: "3",
      serial: "SN-9",
      unitCost: "12.505",
      expirationDate: "2027-13-01",
    });
    expect(parsed.success).toBe(false);
    const issues = Object.fromEntries((parsed.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(issues).toMatchObject({ unitCost: LINE_MESSAGES.unitCost, expirationDate: LINE_MESSAGES.expirationDate });
    expect(
      ReceiptLineForm.parse({ variationId: BOTOX_100.id, quantity: "1", serial: "SN-9", unitCost: "$1,250.5" }),
    ).toEqual({
      variationId: BOTOX_100.id,
      quantity: 1,
      lot: null,
      serial: "SN-9",
      expirationDate: null,
      unitCostCents: 125050,
      expiryConfirmed: false,
      expiryReason: null,
      idempotencyKey: null,
    });
    expect(
      ReceiptLineForm.safeParse({ variationId: BOTOX_100.id, quantity: "2", serial: "SN-9" }).error?.issues,
    ).toEqual([expect.objectContaining({ path: ["serial"], message: LINE_MESSAGES.serialOne })]);
    // The form says the same of a lot a GS1 barcode could not carry, and of a long one, instead of cutting it.
    expect(
      ReceiptLineForm.safeParse({ variationId: BOTOX_100.id, quantity: "1", lot: "LOT😀", serial: "S".repeat(21) })
        .error?.issues,
    ).toEqual([
      expect.objectContaining({ path: ["lot"], message: LINE_MESSAGES.lotCharacters }),
      expect.objectContaining({ path: ["serial"], message: LINE_MESSAGES.serial }),
    ]);
  });

  it("refuses another organization's or an archived variation, and receipts of another location", async () => {
    const foreign = await foreignCatalogue();
    const archived = await variationWithoutGtin();
    await t.db.update(schema.productVariations).set({ active: false }).where(eq(schema.productVariations.id, archived));
    const westside = await newReceipt("WST");
    const downtown = await newReceipt("DTN");
    const refusals = await expectNothingWritten(async () => [
      await addReceiptLine(t.db, as("owner", "DTN"), { receiptId: downtown, ...line(foreign.variationId) }),
      await addReceiptLine(t.db, as("owner", "DTN"), { receiptId: downtown, ...line(archived) }),
      await addReceiptLine(t.db, as("owner", "DTN"), { receiptId: downtown, ...line(uuidv7()) }),
      // Staff work at Downtown: a Westside receipt is not there for them…
      await addReceiptLine(t.db, as("staff", "DTN"), { receiptId: westside, ...line(PADS.id) }),
      // …and naming Westside as their place does not give them the right to receive there.
      await addReceiptLine(t.db, as("staff", "WST"), { receiptId: westside, ...line(PADS.id) }),
      await addReceiptLine(t.db, as("owner", "DTN"), { receiptId: uuidv7(), ...line(PADS.id) }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual([
      "variation_unavailable",
      "variation_unavailable",
      "variation_unavailable",
      "not_found",
      "forbidden",
      "not_found",
    ]);
    // An organization admin in organization mode reaches every location's receipts.
    expect((await addReceiptLine(t.db, as("owner", ORGANIZATION), { receiptId: westside, ...line(PADS.id) })).ok).toBe(
      true,
    );
  });

  it("refuses changes to a completed or cancelled receipt in the database (triggers), with a clear message", async () => {
    const completed = await newReceipt();
    const lineId = await addLine(completed, line(PADS.id));
    expect((await completeReceipt(t.db, as("owner", "DTN"), { receiptId: completed })).ok).toBe(true);
    const cancelled = await newReceipt();
    const cancelledLine = await addLine(cancelled, line(PADS.id));
    expect(await cancelReceipt(t.db, as("owner", "DTN"), { receiptId: cancelled })).toEqual({ ok: true, lines: 1 });

    const owner = as("owner", "DTN");
    const refusals = await expectNothingWritten(async () => [
      await addReceiptLine(t.db, owner, { receiptId: completed, ...line(BOTOX_100.id) }),
      await removeReceiptLine(t.db, owner, { receiptId: completed, lineId }),
      await addReceiptLine(t.db, owner, { receiptId: cancelled, ...line(BOTOX_100.id) }),
      await removeReceiptLine(t.db, owner, { receiptId: cancelled, lineId: cancelledLine }),
      await cancelReceipt(t.db, owner, { receiptId: completed }),
      await cancelReceipt(t.db, owner, { receiptId: cancelled }),
      await completeReceipt(t.db, owner, { receiptId: cancelled }),
      await completeReceipt(t.db, owner, { receiptId: completed }),
    ]);
    expect(refusals).toEqual([
      {
        ok: false,
        refusal: "completed",
        message: "This receipt is already completed; correct stock with an adjustment.",
      },
      { ok: false, refusal: "completed", message: RECEIVING_REFUSALS.completed },
      { ok: false, refusal: "cancelled", message: RECEIVING_REFUSALS.cancelled },
      { ok: false, refusal: "cancelled", message: RECEIVING_REFUSALS.cancelled },
      { ok: false, refusal: "completed", message: RECEIVING_REFUSALS.completed },
      { ok: false, refusal: "cancelled", message: RECEIVING_REFUSALS.cancelled },
      { ok: false, refusal: "cancelled", message: RECEIVING_REFUSALS.cancelled },
      { ok: false, refusal: "completed", message: RECEIVING_REFUSALS.completed },
    ]);
    // Whoever writes to the tables directly meets the same triggers.
    const closed = /receipt is closed/;
    await expect(
      t.db
        .insert(schema.receiptLines)
        .values({ receiptId: completed, variationId: PADS.id, quantity: 1, unitsPerPackage: PADS.units }),
    ).rejects.toSatisfy((e: Error) => closed.test(`${e.message} ${String(e.cause)}`));
    await expect(
      t.db.update(schema.receiptLines).set({ quantity: 5 }).where(eq(schema.receiptLines.id, lineId)),
    ).rejects.toSatisfy((e: Error) => closed.test(`${e.message} ${String(e.cause)}`));
    await expect(
      t.db.update(schema.receipts).set({ status: "open" }).where(eq(schema.receipts.id, completed)),
    ).rejects.toSatisfy((e: Error) => closed.test(`${e.message} ${String(e.cause)}`));
  });
});

describe("cancelReceipt", () => {
  it("cancels an open receipt with or without lines, logging cancel_receipt; nothing is received", async () => {
    const empty = await newReceipt("WST", "manager");
    const manager = as("manager", "WST");
    t.resetRoundTrips();
    expect(await cancelReceipt(t.db, manager, { receiptId: empty })).toEqual({ ok: true, lines: 0 });
    expect(t.roundTrips()).toBe(1);
    expect(await receiptRow(empty)).toMatchObject({ status: "cancelled", completedAt: null, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "cancel_receipt",
      entityId: empty,
      locationId: loc.WST,
      userId: manager.id,
      summary: { lines: 0 },
    });
    expect(await cancelReceipt(t.db, as("staff", "DTN"), { receiptId: empty })).toMatchObject({
      refusal: "not_found",
    });
    expect(await cancelReceipt(t.db, as("newhire", "DTN"), { receiptId: empty })).toMatchObject({
      refusal: "forbidden",
    });
  });
});

describe("completeReceipt", () => {
  it("receives serialized packages as sealed labelled items and bulk ones as quantities, all in one batch", async () => {
    const [vendor] = await t.db.select().from(schema.vendors).where(eq(schema.vendors.name, "Allergan Aesthetics"));
    const staff = as("staff", "DTN");
    const opened = await openReceipt(t.db, staff, {
      locationId: loc.DTN,
      vendorId: vendor?.id ?? null,
      reference: "INV-77",
      notes: null,
    });
    if (!opened.ok) throw new Error(opened.message);
    const receiptId = opened.receiptId;
    const vials = await addLine(
      receiptId,
      line(BOTOX_100.id, { quantity: 3, lot: "C1234", expirationDate: "2027-03-31", unitCostCents: 60000 }),
      staff,
    );
    const serialVial = await addLine(
      receiptId,
      line(XEOMIN.id, { quantity: 1, lot: "X9", serial: "SN-0001", expirationDate: "2026-12-31" }),
      staff,
    );
    await addLine(receiptId, line(PADS.id, { quantity: 4, lot: "P-1" }), staff);
    const before = await stockState();
    const version = (await receiptRow(receiptId))?.version ?? 0;

    t.resetRoundTrips();
    const result = await completeReceipt(t.db, staff, { receiptId });
    expect(t.roundTrips()).toBe(2); // the read, then the one batch
    expect(result).toEqual({ ok: true, receiptId, location: "Downtown", lines: 3, items: 4, bulkPackages: 4 });

    const receipt = await receiptRow(receiptId);
    expect(receipt).toMatchObject({ status: "completed", completedBy: staff.id, version: version + 1 });
    expect(receipt?.completedAt).toBeInstanceOf(Date);

    const items = await t.db
      .select()
      .from(schema.items)
      .where(inArray(schema.items.receiptLineId, [vials, serialVial]))
      .orderBy(asc(schema.items.id));
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item.labelCode).toMatch(LABEL_CODE_PATTERN);
      expect(item).toMatchObject({ locationId: loc.DTN, state: "sealed", startedAt: null, expiresAt: null });
      expect(item.receivedAt).toEqual(receipt?.completedAt);
    }
    expect(new Set(items.map((i) => i.labelCode)).size).toBe(4);
    const botox = items.filter((i) => i.variationId === BOTOX_100.id);
    expect(botox).toHaveLength(3);
    for (const item of botox) {
      expect(item).toMatchObject({
        receiptLineId: vials,
        lot: "C1234",
        serial: null,
        expirationDate: "2027-03-31",
        unitsRemaining: 100,
        costCents: 60000,
      });
    }
    expect(items.find((i) => i.variationId === XEOMIN.id)).toMatchObject({
      serial: "SN-0001",
      lot: "X9",
      unitsRemaining: XEOMIN.units,
      costCents: XEOMIN.costCents,
    });

    // Each label code is a barcode that names its item, so a scan of the label finds it.
    const barcodes = await t.db
      .select()
      .from(schema.barcodes)
      .where(
        inArray(
          schema.barcodes.itemId,
          items.map((i) => i.id),
        ),
      );
    expect(barcodes.map((b) => [b.code, b.itemId, b.variationId]).sort()).toEqual(
      items.map((i) => [i.labelCode, i.id, null]).sort(),
    );

    // One RECEIVE movement per item, one per bulk line, all pointing at the receipt.
    const movements = await t.db
      .select()
      .from(schema.stockMovements)
      .where(and(eq(schema.stockMovements.referenceType, "receipt"), eq(schema.stockMovements.referenceId, receiptId)));
    expect(movements).toHaveLength(5);
    for (const m of movements) expect(m).toMatchObject({ type: "RECEIVE", locationId: loc.DTN, userId: staff.id });
    expect(
      movements
        .filter((m) => m.itemId !== null)
        .map((m) => m.itemId)
        .sort(),
    ).toEqual(items.map((i) => i.id).sort());
    expect(movements.find((m) => m.variationId === PADS.id)).toMatchObject({ quantity: 800, lot: "P-1", itemId: null });

    const after = await stockState();
    expect(after.sums).toEqual(after.levels);
    expect(after.onHand(loc.DTN, BOTOX_100.id)).toBe(before.onHand(loc.DTN, BOTOX_100.id) + 300);
    expect(after.onHand(loc.DTN, XEOMIN.id)).toBe(before.onHand(loc.DTN, XEOMIN.id) + XEOMIN.units);
    expect(after.onHand(loc.DTN, PADS.id)).toBe(before.onHand(loc.DTN, PADS.id) + 800);
    expect(after.activity).toBe(before.activity + 1);

    const [activity] = await t.db
      .select()
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.action, "receive_vials"), eq(schema.activityLog.entityId, receiptId)));
    expect(activity).toMatchObject({
      userId: staff.id,
      locationId: loc.DTN,
      entity: "receipt",
      summary: {
        lines: 3,
        items: 4,
        reference: "INV-77",
        vendor: "Allergan Aesthetics",
        received: [
          { product: "Botox Cosmetic", variation: "100 U vial", packages: 3, units: 300, lot: "C1234" },
          { product: "Xeomin", packages: 1, units: XEOMIN.units, lot: "X9" },
          { product: "Alcohol prep pads", tracking: "bulk", packages: 4, units: 800, baseUnit: "each" },
        ],
      },
    });

    // The receipt's page shows the lines and the items it made.
    const detail = await receiptDetail(t.db, staff, receiptId);
    expect(detail?.items).toBe(4);
    expect(detail?.lines.map((l) => [l.product, l.quantity])).toEqual([
      ["Botox Cosmetic", 3],
      ["Xeomin", 1],
      ["Alcohol prep pads", 4],
    ]);
  });

  it("refuses an empty receipt, an unknown one and one out of reach, writing nothing", async () => {
    const empty = await newReceipt("WST");
    const refusals = await expectNothingWritten(async () => [
      await completeReceipt(t.db, as("manager", "WST"), { receiptId: empty }),
      await completeReceipt(t.db, as("manager", "WST"), { receiptId: uuidv7() }),
      await completeReceipt(t.db, as("admin", "DTN"), { receiptId: empty }),
      await completeReceipt(t.db, as("staff", "WST"), { receiptId: empty }),
    ]);
    expect(refusals).toEqual([
      { ok: false, refusal: "empty", message: "This receipt has no lines yet. Add what arrived before completing it." },
      { ok: false, refusal: "not_found", message: RECEIVING_REFUSALS.not_found },
      { ok: false, refusal: "not_found", message: RECEIVING_REFUSALS.not_found },
      { ok: false, refusal: "forbidden", message: RECEIVING_REFUSALS.forbidden },
    ]);
    expect((await receiptRow(empty))?.status).toBe("open");
  });

  it("receives nothing when a line changed between its read and its write", async () => {
    const receiptId = await newReceipt();
    await addLine(receiptId, line(BOTOX_100.id, { quantity: 2 }));
    let added = "";
    const before = await stockState();
    const db = interleaved(t.db, async () => {
      added = await addLine(receiptId, line(PADS.id, { quantity: 1 }));
    });
    const result = await completeReceipt(db, as("owner", "DTN"), { receiptId });
    expect(result).toEqual({
      ok: false,
      refusal: "changed",
      message:
        "This receipt changed while you were completing it (another user may have completed it). Reload and check it.",
    });
    const after = await stockState();
    // Only the line added meanwhile (and its activity row) was written; nothing was received.
    expect([after.items, after.movements, after.barcodes]).toEqual([before.items, before.movements, before.barcodes]);
    expect(after.activity).toBe(before.activity + 1);
    expect(after.levels).toEqual(before.levels);
    expect((await receiptRow(receiptId))?.status).toBe("open");

    // Completing again receives both lines.
    expect(await completeReceipt(t.db, as("owner", "DTN"), { receiptId })).toMatchObject({ ok: true, items: 2 });
    expect(added).not.toBe("");
  });

  it("receives once when two people complete the same receipt, whichever order their requests take", async () => {
    // Someone else completes it after this request read it (same version): this one must not receive again.
    const receiptId = await newReceipt();
    await addLine(receiptId, line(BOTOX_100.id, { quantity: 2 }));
    let theirs: Awaited<ReturnType<typeof completeReceipt>> | null = null;
    const db = interleaved(t.db, async () => {
      theirs = await completeReceipt(t.db, as("admin", "DTN"), { receiptId });
    });
    const mine = await completeReceipt(db, as("staff", "DTN"), { receiptId });
    expect(theirs).toMatchObject({ ok: true, items: 2 });
    expect(mine).toMatchObject({ ok: false, refusal: "changed" });
    const items = await t.db
      .select({ n: count() })
      .from(schema.items)
      .innerJoin(schema.receiptLines, eq(schema.receiptLines.id, schema.items.receiptLineId))
      .where(eq(schema.receiptLines.receiptId, receiptId));
    expect(items[0]?.n).toBe(2);
    const movements = await t.db
      .select({ n: count() })
      .from(schema.stockMovements)
      .where(eq(schema.stockMovements.referenceId, receiptId));
    expect(movements[0]?.n).toBe(2);

    // Truly concurrent: exactly one of them receives.
    const other = await newReceipt();
    await addLine(other, line(PADS.id, { quantity: 3 }));
    const before = await stockState();
    const outcomes = await Promise.all([
      completeReceipt(t.db, as("staff", "DTN"), { receiptId: other }),
      completeReceipt(t.db, as("admin", "DTN"), { receiptId: other }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ refusal: expect.stringMatching(/^(changed|completed)$/) });
    const after = await stockState();
    expect(after.onHand(loc.DTN, PADS.id)).toBe(before.onHand(loc.DTN, PADS.id) + 3 * PADS.units);
    expect(after.movements).toBe(before.movements + 1);
  });

  it("retries once with fresh label codes when a code is taken, and gives up without receiving anything", async () => {
    const [taken] = await t.db.select({ code: schema.items.labelCode }).from(schema.items).limit(1);
    if (!taken) throw new Error("no items yet");
    const receiptId = await newReceipt();
    await addLine(receiptId, line(BOTOX_100.id, { quantity: 2 }));

    // Always the taken code: both attempts fail, nothing is received and the receipt stays open.
    const stuck = await expectNothingWritten(() =>
      completeReceipt(t.db, as("owner", "DTN"), { receiptId }, { labelCode: () => taken.code }),
    );
    expect(stuck).toEqual({ ok: false, refusal: "label_codes", message: RECEIVING_REFUSALS.label_codes });
    expect((await receiptRow(receiptId))?.status).toBe("open");

    // Taken on the first attempt only: the retry receives.
    let calls = 0;
    const codes = () => (++calls === 1 ? taken.code : `V${String(calls).padStart(9, "0")}`);
    const result = await completeReceipt(t.db, as("owner", "DTN"), { receiptId }, { labelCode: codes });
    expect(result).toMatchObject({ ok: true, items: 2 });
    const items = await t.db
      .select({ code: schema.items.labelCode })
      .from(schema.items)
      .innerJoin(schema.receiptLines, eq(schema.receiptLines.id, schema.items.receiptLineId))
      .where(eq(schema.receiptLines.receiptId, receiptId));
    expect(items.map((i) => i.code).sort()).toEqual(["V000000003", "V000000004"]);
  });
});

describe("receipt line integrity (issue 9)", () => {
  const owner = () => as("owner", "DTN");
  async function lineRow(id: string) {
    const [row] = await t.db.select().from(schema.receiptLines).where(eq(schema.receiptLines.id, id));
    return row;
  }

  it("keeps the variation's units per package on the line, and completion counts with the line's", async () => {
    const variationId = await variationWithoutGtin();
    const receiptId = await newReceipt();
    const added = await addLine(receiptId, line(variationId, { quantity: 2 }));
    expect(await lineRow(added)).toMatchObject({ unitsPerPackage: 20 });
    // A line whose package size differs from the variation's today (kept from when it was added).
    const kept = uuidv7();
    await t.db.insert(schema.receiptLines).values({
      id: kept,
      receiptId,
      variationId,
      quantity: 1,
      unitsPerPackage: 100,
      lot: "OLD-1",
      expirationDate: "2028-01-31",
    });
    const before = await stockState();
    expect(await completeReceipt(t.db, owner(), { receiptId })).toMatchObject({ ok: true, items: 3 });
    const items = await t.db
      .select({ line: schema.items.receiptLineId, units: schema.items.unitsRemaining })
      .from(schema.items)
      .where(inArray(schema.items.receiptLineId, [added, kept]));
    expect(items.map((i) => [i.line, i.units]).sort()).toEqual(
      [
        [added, 20],
        [added, 20],
        [kept, 100],
      ].sort(),
    );
    expect((await stockState()).onHand(loc.DTN, variationId)).toBe(before.onHand(loc.DTN, variationId) + 140);
  });

  it("refuses a serial already on this receipt, on another open receipt, or received, naming where", async () => {
    const variationId = XEOMIN.id;
    const serial = `SN-${uuidv7().slice(-6)}`;
    const first = await newReceipt();
    await addLine(first, line(PADS.id));
    await addLine(first, line(variationId, { lot: "L1", serial }));
    const again = await expectNothingWritten(() =>
      addReceiptLine(t.db, owner(), { receiptId: first, ...line(variationId, { lot: "L1", serial }) }),
    );
    expect(again).toEqual({
      ok: false,
      refusal: "serial_taken",
      message: `Serial ${serial} of lot L1 is already on this receipt (line 2). Check the package, or remove that line.`,
    });
    // Another lot, or no serial: fine.
    expect(
      (await addReceiptLine(t.db, owner(), { receiptId: first, ...line(variationId, { lot: "L2", serial }) })).ok,
    ).toBe(true);
    const [opened] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, first));
    // The day it was at Downtown, in Downtown's zone: between midnight UTC and midnight there the
    // runtime's own (UTC) day is already the next one.
    const [downtown] = await t.db.select().from(schema.locations).where(eq(schema.locations.id, loc.DTN));
    const started = new Intl.DateTimeFormat("en-US", {
      timeZone: downtown?.timezone,
      month: "short",
      day: "numeric",
      year: "numeric",
    }).format(opened?.createdAt ?? new Date());
    const second = await openReceipt(t.db, owner(), {
      locationId: loc.DTN,
      vendorId: null,
      reference: "PS-42",
      notes: null,
    });
    if (!second.ok) throw new Error(second.message);
    expect(
      await addReceiptLine(t.db, owner(), { receiptId: second.receiptId, ...line(variationId, { lot: "L1", serial }) }),
    ).toEqual({
      ok: false,
      refusal: "serial_taken",
      message: `Serial ${serial} of lot L1 is already on an open receipt at Downtown, started ${started}. Check the package, or remove the line there.`,
    });
    expect((await completeReceipt(t.db, owner(), { receiptId: first })).ok).toBe(true);
    const [item] = await t.db
      .select()
      .from(schema.items)
      .where(and(eq(schema.items.serial, serial), eq(schema.items.lot, "L1")));
    const refused = await expectNothingWritten(() =>
      addReceiptLine(t.db, owner(), { receiptId: second.receiptId, ...line(variationId, { lot: "L1", serial }) }),
    );
    expect(refused).toMatchObject({
      refusal: "serial_taken",
      message: `Serial ${serial} of lot L1 was already received at Downtown on ${started} (label ${item?.labelCode}). A serial is one unit: check the package.`,
    });
  });

  it("never makes two items with one serial, even from a line that slipped past the check", async () => {
    const serial = `SN-${uuidv7().slice(-6)}`;
    const a = await newReceipt();
    const b = await newReceipt();
    await addLine(a, line(XEOMIN.id, { lot: "R1", serial }));
    // As if added in a race, or before serials were checked: straight into the table.
    await addLine(b, line(PADS.id));
    await t.db.insert(schema.receiptLines).values({
      receiptId: b,
      variationId: XEOMIN.id,
      quantity: 1,
      unitsPerPackage: XEOMIN.units,
      lot: "R1",
      serial,
      expirationDate: "2028-01-31",
    });
    expect((await completeReceipt(t.db, owner(), { receiptId: a })).ok).toBe(true);
    const refused = await expectNothingWritten(() => completeReceipt(t.db, owner(), { receiptId: b }));
    expect(refused).toMatchObject({
      ok: false,
      refusal: "serial_taken",
      message: expect.stringMatching(
        new RegExp(
          `^Serial ${serial} of lot R1 \\(line 2\\) was already received at Downtown on .+ Nothing was received\\.$`,
        ),
      ),
    });
    expect((await receiptRow(b))?.status).toBe("open");
    const items = await t.db.select({ n: count() }).from(schema.items).where(eq(schema.items.serial, serial));
    expect(items[0]?.n).toBe(1);
  });

  it("takes an expired or far-future lot only with a confirmation and a reason, kept on the line and in its activity row", async () => {
    const receiptId = await newReceipt();
    const now = new Date("2026-11-22T23:30:00Z");
    const add = (overrides: Partial<ReceiptLineInput>) =>
      addReceiptLine(t.db, owner(), { receiptId, ...line(BOTOX_100.id, overrides) }, { now });
    const refusals = await expectNothingWritten(async () => [
      await add({ expirationDate: "2024-05-31" }),
      await add({ expirationDate: "2026-11-21", expiryReason: "Return to vendor" }),
      await add({ expirationDate: "2024-05-31", expiryConfirmed: true, expiryReason: " ab " }),
      await add({ expirationDate: "2036-11-23" }),
    ]);
    expect(refusals).toEqual([
      {
        ok: false,
        refusal: "expiry_unconfirmed",
        message:
          "This lot expired on May 31, 2024. To receive it anyway (for example to return it to the vendor), tick the confirmation and give the reason.",
      },
      expect.objectContaining({ refusal: "expiry_unconfirmed" }),
      { ok: false, refusal: "expiry_reason", message: LINE_MESSAGES.expiryReason },
      {
        ok: false,
        refusal: "expiry_unconfirmed",
        message:
          "This expiration date (Nov 23, 2036) is more than 10 years away: check it for a typo. If it is right, tick the confirmation and give the reason.",
      },
    ]);
    // Today (UTC) and exactly ten years ahead need nothing; a reason given then is not kept.
    const today = await add({ expirationDate: "2026-11-22", expiryConfirmed: true, expiryReason: "Not needed" });
    const decade = await add({ expirationDate: "2036-11-22" });
    if (!today.ok || !decade.ok) throw new Error("refused");
    expect(await lineRow(today.lineId)).toMatchObject({ expiryReason: null });
    const expired = await add({
      expirationDate: "2024-05-31",
      expiryConfirmed: true,
      expiryReason: " Received for return to vendor ",
    });
    if (!expired.ok) throw new Error(expired.message);
    expect(await lineRow(expired.lineId)).toMatchObject({
      expirationDate: "2024-05-31",
      expiryReason: "Received for return to vendor",
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "add_receipt_line",
      summary: { lineId: expired.lineId, expiryReason: "Received for return to vendor" },
    });
    // The database refuses such a line without a reason, whoever writes it.
    await expect(
      t.db.insert(schema.receiptLines).values({
        receiptId,
        variationId: PADS.id,
        quantity: 1,
        unitsPerPackage: PADS.units,
        expirationDate: "2024-05-31",
      }),
    ).rejects.toSatisfy((e: Error) => /receipt_lines_expiry_confirmed/.test(`${e.message} ${String(e.cause)}`));
  });

  it("caps a receipt at 200 lines and 1,000 labelled items, saying to split the delivery", async () => {
    const receiptId = await newReceipt();
    await addLine(receiptId, line(BOTOX_100.id, { quantity: 1000 }));
    const tooMany = await expectNothingWritten(() =>
      addReceiptLine(t.db, owner(), { receiptId, ...line(XEOMIN.id, { quantity: 1 }) }),
    );
    expect(tooMany).toEqual({
      ok: false,
      refusal: "too_many_items",
      message:
        "One receipt makes at most 1,000 labelled items, and this one already has 1,000. Complete it, and put the rest of the delivery on a new receipt (a large delivery is split into several receipts).",
    });
    // Bulk packages are not items: still room for them.
    expect((await addReceiptLine(t.db, owner(), { receiptId, ...line(PADS.id, { quantity: 5 }) })).ok).toBe(true);

    const full = await newReceipt();
    await t.db.insert(schema.receiptLines).values(
      Array.from({ length: 200 }, (_, n) => ({
        receiptId: full,
        variationId: PADS.id,
        quantity: 1,
        unitsPerPackage: PADS.units,
        lot: `B-${n}`,
      })),
    );
    expect(
      await expectNothingWritten(() => addReceiptLine(t.db, owner(), { receiptId: full, ...line(PADS.id) })),
    ).toEqual({ ok: false, refusal: "too_many_lines", message: RECEIVING_REFUSALS.too_many_lines });
    expect(RECEIVING_REFUSALS.too_many_lines).toBe(
      "A receipt holds at most 200 lines. Complete this one and put the rest of the delivery on a new receipt.",
    );

    // Lines that got past the cap some other way: completion refuses rather than time out.
    const big = await newReceipt();
    await t.db.insert(schema.receiptLines).values(
      [1, 2].map((n) => ({
        receiptId: big,
        variationId: BOTOX_100.id,
        quantity: 600,
        unitsPerPackage: BOTOX_100.units,
        lot: `BIG-${n}`,
        expirationDate: "2028-01-31",
      })),
    );
    expect(await expectNothingWritten(() => completeReceipt(t.db, owner(), { receiptId: big }))).toEqual({
      ok: false,
      refusal: "too_many_items",
      message:
        "This receipt would make 1,200 labelled items; one receipt makes at most 1,000. Remove lines and put them on a new receipt (a large delivery is split into several receipts).",
    });
  });

  it("adds a line once per form key: a repeat answers the same and writes nothing; another user's key is their own", async () => {
    const receiptId = await newReceipt();
    const key = uuidv7();
    const input = { receiptId, idempotencyKey: key, ...line(BOTOX_100.id, { quantity: 2 }) };
    const first = await addReceiptLine(t.db, owner(), input);
    expect(first).toMatchObject({ ok: true, label: "Botox Cosmetic · 100 U vial" });
    const repeat = await expectNothingWritten(async () => {
      t.resetRoundTrips();
      const answer = await addReceiptLine(t.db, owner(), input);
      expect(t.roundTrips()).toBe(1);
      return answer;
    });
    expect(repeat).toEqual(first);
    const lines = async () =>
      (await t.db.select().from(schema.receiptLines).where(eq(schema.receiptLines.receiptId, receiptId))).length;
    expect(await lines()).toBe(1);
    // The same key from someone else is not a replay of the owner's answer: it is their own line.
    const theirs = await addReceiptLine(t.db, as("admin", "DTN"), input);
    expect(theirs).toMatchObject({ ok: true });
    expect(theirs.ok && first.ok && theirs.lineId !== first.lineId).toBe(true);
    expect(await lines()).toBe(2);
    // The owner's key, sent for another receipt, replays nothing and adds nothing.
    const other = await newReceipt();
    expect(
      await expectNothingWritten(() => addReceiptLine(t.db, owner(), { ...input, receiptId: other })),
    ).toMatchObject({ ok: false, refusal: "key_misused" });
    // A refusal is not remembered: once fixed, the same key adds the line.
    const fixKey = uuidv7();
    expect(
      await addReceiptLine(t.db, owner(), { ...input, idempotencyKey: fixKey, expirationDate: "2020-01-01" }),
    ).toMatchObject({ refusal: "expiry_unconfirmed" });
    expect((await addReceiptLine(t.db, owner(), { ...input, idempotencyKey: fixKey })).ok).toBe(true);
    expect(await lines()).toBe(3);
  });
});

describe("readScan", () => {
  const today = new Date("2026-11-22T12:00:00Z");
  let receiptId: string;
  beforeAll(async () => {
    receiptId = await newReceipt();
  });
  const scan = (text: string, actor = as("staff", "DTN")) => readScan(t.db, actor, { receiptId, scan: text }, today);

  it("fills product, lot, expiry and serial from the raw, bracketed and symbology-prefixed forms", async () => {
    const found = {
      kind: "found",
      gtin: "00300239211001",
      label: "Botox Cosmetic · 100 U vial",
      prefill: {
        variationId: BOTOX_100.id,
        quantity: "",
        lot: "C1234",
        expirationDate: "2027-03-31",
        unitCost: "",
        serial: "",
      },
    };
    t.resetRoundTrips();
    expect(await scan(`]d20100300239211001172703001${"0"}C1234`)).toEqual({ ok: true, reading: found });
    expect(t.roundTrips()).toBe(1);
    expect(await scan("(01)00300239211001(17)270300(10)C1234")).toEqual({ ok: true, reading: found });
    expect(await scan(`]C101003002392110011727033110C1234${GS}`)).toEqual({ ok: true, reading: found });
    // A serial means one package; a GTIN-14 finds the GTIN-12 the catalogue keeps.
    expect(await scan(`0100076137602202${"21"}SN-77${GS}10P-9`)).toEqual({
      ok: true,
      reading: {
        kind: "found",
        gtin: "00076137602202",
        label: "Alcohol prep pads · Box of 200",
        prefill: { variationId: PADS.id, quantity: "1", lot: "P-9", expirationDate: "", unitCost: "", serial: "SN-77" },
      },
    });
  });

  it("says what is wrong with a scan it cannot use, and names an unknown GTIN", async () => {
    expect(await scan("BTX-100U")).toEqual({
      ok: true,
      reading: {
        kind: "unreadable",
        message: 'This does not read as a GS1 code: no application identifier at "BTX-100U".',
      },
    });
    expect(await scan("(10)LOT-5(17)270331")).toEqual({
      ok: true,
      reading: {
        kind: "unreadable",
        message:
          "That scan is not a GS1 barcode: no GTIN (01) found. Scan the manufacturer's barcode on the package, or choose the product below.",
      },
    });
    expect(await scan("(01)09999999999994(10)L1(21)S1")).toEqual({
      ok: true,
      reading: {
        kind: "unknown",
        gtin: "09999999999994",
        prefill: { variationId: "", quantity: "1", lot: "L1", expirationDate: "", unitCost: "", serial: "S1" },
      },
    });
    expect((await scan("(01)00300239211001(17)271399")).ok && "reading").toBe("reading");
    expect(await scan("(01)00300239211001(17)271399")).toMatchObject({
      reading: { kind: "unreadable", message: expect.stringContaining("not a valid YYMMDD date") },
    });
    // Out of reach or without the right: no reading at all.
    expect(await scan("(01)00300239211001", as("manager", "WST"))).toMatchObject({ refusal: "not_found" });
    expect(await scan("(01)00300239211001", as("newhire", "DTN"))).toMatchObject({ refusal: "forbidden" });
  });
});

describe("attachGtin", () => {
  it("attaches an unknown GTIN to a variation without one, moving its version and logging update_variation", async () => {
    const variationId = await variationWithoutGtin();
    const manager = as("manager", "WST");
    t.resetRoundTrips();
    const result = await attachGtin(t.db, manager, { variationId, gtin: "0999 9999 9999 94" });
    expect(t.roundTrips()).toBe(1);
    expect(result).toEqual({ ok: true, label: expect.stringMatching(/^Botox Cosmetic · Sample/) });
    const [row] = await t.db
      .select()
      .from(schema.productVariations)
      .where(eq(schema.productVariations.id, variationId));
    expect(row).toMatchObject({ gtin: "09999999999994", version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_variation",
      entity: "variation",
      entityId: variationId,
      userId: manager.id,
      locationId: loc.WST,
      summary: { product: "Botox Cosmetic", before: { gtin: null }, after: { gtin: "09999999999994" } },
    });
    // The scan that was unknown now fills the form.
    const receiptId = await newReceipt("WST");
    expect(await readScan(t.db, manager, { receiptId, scan: "(01)09999999999994" })).toMatchObject({
      reading: { kind: "found", prefill: { variationId } },
    });
  });

  it("refuses a bad check digit, a GTIN already in the catalogue, a variation that has one, and staff", async () => {
    const variationId = await variationWithoutGtin();
    const stale = await variationWithoutGtin();
    const foreign = await foreignCatalogue();
    // Someone gave it a GTIN since the form was shown.
    await t.db
      .update(schema.productVariations)
      .set({ gtin: "09999999999987", version: 2 })
      .where(eq(schema.productVariations.id, stale));
    await t.db
      .update(schema.productVariations)
      .set({ gtin: "09999999999970" })
      .where(eq(schema.productVariations.id, foreign.variationId));
    const manager = as("manager", "WST");
    const refusals = await expectNothingWritten(async () => [
      await attachGtin(t.db, manager, { variationId, gtin: "09999999999995" }),
      await attachGtin(t.db, manager, { variationId, gtin: "00300239211001" }),
      // The catalogue keeps the pads' GTIN as GTIN-12; the same number as GTIN-14 is the same GTIN.
      await attachGtin(t.db, manager, { variationId, gtin: "00076137602202" }),
      await attachGtin(t.db, manager, { variationId: stale, gtin: "09999999999963" }),
      await attachGtin(t.db, manager, { variationId: foreign.variationId, gtin: "09999999999963" }),
      // Another organization already uses it: the catalogue-wide unique index says no.
      await attachGtin(t.db, manager, { variationId, gtin: "09999999999970" }),
      await attachGtin(t.db, as("staff", "DTN"), { variationId, gtin: "09999999999963" }),
    ]);
    expect(refusals).toEqual([
      {
        ok: false,
        refusal: "gtin_invalid",
        message: "This GTIN's check digit is wrong: with these digits it should end in 4. Check the number for a typo.",
      },
      {
        ok: false,
        refusal: "gtin_taken",
        message: "GTIN 00300239211001 is already used by Botox Cosmetic — 100 U vial.",
      },
      {
        ok: false,
        refusal: "gtin_taken",
        message: "GTIN 00076137602202 is already used by Alcohol prep pads — Box of 200.",
      },
      {
        ok: false,
        refusal: "variation_has_gtin",
        message: expect.stringMatching(/^Botox Cosmetic · Sample \w+ already has GTIN 09999999999987\./),
      },
      { ok: false, refusal: "variation_unavailable", message: RECEIVING_REFUSALS.variation_unavailable },
      { ok: false, refusal: "gtin_taken", message: "GTIN 09999999999970 is already used by another variation." },
      { ok: false, refusal: "forbidden", message: RECEIVING_REFUSALS.forbidden },
    ]);
  });
});

describe("listReceipts", () => {
  it("lists the receipts at the location in scope, open first then newest; organization mode shows all", async () => {
    const older = await newReceipt("NTH");
    const completed = await newReceipt("NTH");
    await addLine(completed, line(PADS.id), as("owner", "NTH"));
    expect((await completeReceipt(t.db, as("owner", "NTH"), { receiptId: completed })).ok).toBe(true);
    const newer = await newReceipt("NTH");
    const multi = as("multi", "NTH");
    // The demo seed's receipts at North were all completed before these.
    const list = await listReceipts(t.db, multi, { status: "all", page: 1 });
    expect(list.receipts.map((r) => r.id).slice(0, 3)).toEqual([newer, older, completed]);
    expect(list.receipts.every((r) => r.locationId === loc.NTH)).toBe(true);
    expect(list.receipts[2]).toMatchObject({ status: "completed", lines: 1, packages: 1, location: "North" });
    const done = (await listReceipts(t.db, multi, { status: "completed", page: 1 })).receipts;
    expect(done[0]?.id).toBe(completed);
    expect(done.every((r) => r.status === "completed")).toBe(true);
    const everywhere = await listReceipts(t.db, as("owner", ORGANIZATION), { status: "all", page: 1 });
    expect(everywhere.organizationMode).toBe(true);
    expect(new Set(everywhere.receipts.map((r) => r.locationId))).toEqual(new Set([loc.DTN, loc.WST, loc.NTH]));
    expect(everywhere.vendors.map((v) => v.name)).toContain("Galderma");
  });
});

// ---- The screens: loaders and actions as the worker runs them ----

const context = () => loadContext(t.db, env);

async function cookieFor(name: string, where?: Where) {
  const { cookie } = await session(name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : where && loc[where]);
}

const get = pageRequest;
const post = formRequest;

/** What a loader or action answered (or threw): its status, data, redirect and cookie. */

const receiptPage = (receiptId: string, cookie: string) =>
  outcome(() =>
    receiptScreen.loader({
      request: get(`/receiving/${receiptId}/add-products`, cookie),
      context: context(),
      params: { receiptId },
    }),
  );
const receiptAction = (receiptId: string, cookie: string, form: Record<string, string>) =>
  outcome(() =>
    receiptScreen.action({
      request: post(`/receiving/${receiptId}/add-products`, cookie, form),
      context: context(),
      params: { receiptId },
    }),
  );

describe("the receiving screens", () => {
  it("start, scan, add, complete: each page costs one round trip beyond the session", async () => {
    const cookie = await cookieFor("staff", "DTN");
    t.resetRoundTrips();
    const list = await outcome(() =>
      receivingScreen.loader({ request: get("/receiving", cookie), context: context(), params: {} }),
    );
    expect(t.roundTrips()).toBe(2);
    expect(list).toMatchObject({
      status: 200,
      data: { organizationMode: false, here: "Downtown", receivingAt: [{ id: loc.DTN, name: "Downtown (DTN)" }] },
    });

    const started = await outcome(() =>
      receivingScreen.action({
        request: post("/receiving", cookie, { reference: "PS-9", vendorId: "", notes: "", locationId: loc.WST }),
        context: context(),
        params: {},
      }),
    );
    expect(started.status).toBe(302);
    const receiptId = started.location?.match(/^\/receiving\/([^/]+)\/add-products$/)?.[1] ?? "";
    // At a location, the receipt is for that location, whatever the form says.
    expect(await receiptRow(receiptId)).toMatchObject({ locationId: loc.DTN, reference: "PS-9" });

    t.resetRoundTrips();
    const page = await receiptPage(receiptId, cookie);
    expect(t.roundTrips()).toBe(2);
    expect(page).toMatchObject({
      status: 200,
      data: {
        receipt: { status: "open", location: "Downtown (DTN)", reference: "PS-9" },
        canWrite: true,
        canAttach: false,
      },
    });

    const scanned = await receiptAction(receiptId, cookie, {
      intent: "scan",
      scan: `]d201003002392110011727033110C1234${GS}21SN-5`,
    });
    expect(scanned).toMatchObject({
      status: 200,
      data: {
        intent: "scan",
        line: { variationId: BOTOX_100.id, quantity: "1", lot: "C1234", expirationDate: "2027-03-31", serial: "SN-5" },
      },
    });
    const unknown = await receiptAction(receiptId, cookie, { intent: "scan", scan: "(01)09999999999956" });
    expect(unknown).toMatchObject({ status: 200, data: { reading: { kind: "unknown", gtin: "09999999999956" } } });
    // Staff may not teach the catalogue a GTIN.
    expect(
      (await receiptAction(receiptId, cookie, { intent: "attach-gtin", gtin: "09999999999956", variationId: PADS.id }))
        .status,
    ).toBe(403);

    const invalid = await receiptAction(receiptId, cookie, {
      intent: "add-line",
      variationId: BOTOX_100.id,
      quantity: "0",
      unitCost: "abc",
    });
    expect(invalid).toMatchObject({
      status: 400,
      data: {
        fieldErrors: { quantity: LINE_MESSAGES.quantity, unitCost: LINE_MESSAGES.unitCost },
        line: { quantity: "0", unitCost: "abc" },
      },
    });
    const added = await receiptAction(receiptId, cookie, {
      intent: "add-line",
      variationId: BOTOX_100.id,
      quantity: "1",
      lot: "C1234",
      expirationDate: "2027-03-31",
      unitCost: "612.50",
      serial: "SN-5",
    });
    expect(added).toMatchObject({ status: 302, location: `/receiving/${receiptId}/add-products` });
    expect(added.cookie).toMatch(/^flash=/);

    const completed = await receiptAction(receiptId, cookie, { intent: "complete" });
    expect(completed).toMatchObject({ status: 302, location: `/receiving/${receiptId}/print-labels` });
    expect(completed.cookie).toMatch(/^flash=/);
    const [item] = await t.db
      .select()
      .from(schema.items)
      .innerJoin(schema.receiptLines, eq(schema.receiptLines.id, schema.items.receiptLineId))
      .where(eq(schema.receiptLines.receiptId, receiptId));
    expect(item?.items).toMatchObject({ serial: "SN-5", lot: "C1234", costCents: 61250, state: "sealed" });

    const after = await receiptPage(receiptId, cookie);
    expect(after).toMatchObject({ data: { receipt: { status: "completed" }, canWrite: false, items: 1 } });
    // A completed receipt refuses more lines with the clinic's words.
    expect(
      await receiptAction(receiptId, cookie, { intent: "add-line", variationId: PADS.id, quantity: "1" }),
    ).toMatchObject({
      status: 409,
      data: { formError: "This receipt is already completed; correct stock with an adjustment." },
    });
  });

  it("asks for the expiry confirmation, shows a taken serial under its field, and adds a double-submitted line once", async () => {
    const cookie = await cookieFor("staff", "DTN");
    const receiptId = await newReceipt("DTN", "staff");
    const page = await receiptPage(receiptId, cookie);
    const key = (page.data as { lineKey: string }).lineKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect((await receiptPage(receiptId, cookie)).data).not.toMatchObject({ lineKey: key });
    const form = {
      intent: "add-line",
      idempotencyKey: key,
      variationId: BOTOX_100.id,
      quantity: "1",
      lot: "EXP-1",
      expirationDate: "2024-05-31",
      serial: "",
      unitCost: "",
    };
    // No JavaScript: the answer re-renders the form with the warning and the confirmation fields.
    const warned = await receiptAction(receiptId, cookie, form);
    expect(warned).toMatchObject({
      status: 409,
      data: {
        expiry: { check: "expired", warning: expect.stringMatching(/^This lot expired on May 31, 2024\./) },
        fieldErrors: { expirationDate: expect.stringMatching(/^This lot expired on May 31, 2024\./) },
        line: { lot: "EXP-1", expirationDate: "2024-05-31", expiryConfirmed: false },
      },
    });
    const noReason = await receiptAction(receiptId, cookie, { ...form, expiryConfirmed: "on" });
    expect(noReason).toMatchObject({
      status: 409,
      data: { expiry: { check: "expired" }, fieldErrors: { expiryReason: LINE_MESSAGES.expiryReason } },
    });
    const confirmed = { ...form, expiryConfirmed: "on", expiryReason: "Received for return to vendor" };
    const added = await receiptAction(receiptId, cookie, confirmed);
    expect(added).toMatchObject({ status: 302, location: `/receiving/${receiptId}/add-products` });
    // The same form sent again (a double click, a retry): the same answer, still one line.
    expect(await receiptAction(receiptId, cookie, confirmed)).toMatchObject({ status: 302, location: added.location });
    const lines = await t.db.select().from(schema.receiptLines).where(eq(schema.receiptLines.receiptId, receiptId));
    expect(lines).toMatchObject([{ lot: "EXP-1", expiryReason: "Received for return to vendor" }]);
    expect(await receiptPage(receiptId, cookie)).toMatchObject({
      data: { lines: [{ expiryReason: "Received for return to vendor" }] },
    });

    const serial = { ...form, idempotencyKey: uuidv7(), lot: "S-1", expirationDate: "2028-01-31", serial: "SN-X" };
    expect((await receiptAction(receiptId, cookie, serial)).status).toBe(302);
    expect(await receiptAction(receiptId, cookie, { ...serial, idempotencyKey: uuidv7() })).toMatchObject({
      status: 409,
      data: {
        fieldErrors: {
          serial: "Serial SN-X of lot S-1 is already on this receipt (line 2). Check the package, or remove that line.",
        },
        formError: null,
      },
    });
  });

  it("answers 404 for a receipt of another location or organization, and 403 without READ_INVENTORY", async () => {
    const westside = await newReceipt("WST");
    const staff = await cookieFor("staff", "DTN");
    expect((await receiptPage(westside, staff)).status).toBe(404);
    expect((await receiptPage("sample-id", staff)).status).toBe(404);
    expect((await receiptAction(westside, staff, { intent: "cancel" })).status).toBe(404);
    expect((await receiptAction(westside, staff, { intent: "scan", scan: "(01)00300239211001" })).status).toBe(404);
    expect((await receiptPage(westside, await cookieFor("newhire"))).status).toBe(403);
    // The owner at Downtown does not see it either; in organization mode they do.
    expect((await receiptPage(westside, await cookieFor("owner", "DTN"))).status).toBe(404);
    expect(await receiptPage(westside, await cookieFor("owner", ORGANIZATION))).toMatchObject({
      status: 200,
      data: { receipt: { location: "Westside (WST)" }, canWrite: true, canAttach: true },
    });
    // The admin works at Downtown (ADMIN) and Westside (MANAGER): at Westside they receive there.
    expect(await receiptPage(westside, await cookieFor("admin", "WST"))).toMatchObject({
      status: 200,
      data: { canWrite: true },
    });
    expect((await receiptAction(westside, await cookieFor("owner", "DTN"), { intent: "cancel" })).status).toBe(404);
    expect(await receiptRow(westside)).toMatchObject({ status: "open" });
  });

  it("organization mode asks for the location and lists every location's receipts", async () => {
    const cookie = await cookieFor("owner", ORGANIZATION);
    const list = await outcome(() =>
      receivingScreen.loader({ request: get("/receiving?status=open", cookie), context: context(), params: {} }),
    );
    expect(list).toMatchObject({ status: 200, data: { organizationMode: true, status: "open" } });
    const data = list.data as { receivingAt: { id: string }[]; receipts: { status: string }[] };
    expect(data.receivingAt.map((l) => l.id).sort()).toEqual([loc.DTN, loc.NTH, loc.WST].sort());
    expect(data.receipts.every((r) => r.status === "open")).toBe(true);

    const missing = await outcome(() =>
      receivingScreen.action({
        request: post("/receiving", cookie, { locationId: "", vendorId: "" }),
        context: context(),
        params: {},
      }),
    );
    expect(missing).toMatchObject({
      status: 400,
      data: { fieldErrors: { locationId: "Choose the location receiving this delivery." } },
    });
    const opened = await outcome(() =>
      receivingScreen.action({
        request: post("/receiving", cookie, { locationId: loc.NTH, vendorId: "" }),
        context: context(),
        params: {},
      }),
    );
    expect(opened.status).toBe(302);
    const receiptId = opened.location?.split("/")[2] ?? "";
    expect(await receiptRow(receiptId)).toMatchObject({ locationId: loc.NTH });

    // A vendor of another organization is refused; someone without a role cannot start receiving.
    const manager = await cookieFor("manager", "WST");
    const foreign = await foreignCatalogue();
    expect(
      await outcome(() =>
        receivingScreen.action({
          request: post("/receiving", manager, { vendorId: foreign.vendorId }),
          context: context(),
          params: {},
        }),
      ),
    ).toMatchObject({ status: 409, data: { fieldErrors: { vendorId: RECEIVING_REFUSALS.vendor_unavailable } } });
    const newhire = await cookieFor("newhire");
    expect(
      (
        await outcome(() =>
          receivingScreen.action({ request: post("/receiving", newhire, {}), context: context(), params: {} }),
        )
      ).status,
    ).toBe(403);
  });

  it("attaches an unknown GTIN from the scan (managers) and fills the line form with the scan", async () => {
    const variationId = await variationWithoutGtin("Xeomin");
    const receiptId = await newReceipt("WST");
    const cookie = await cookieFor("manager", "WST");
    const attached = await receiptAction(receiptId, cookie, {
      intent: "attach-gtin",
      gtin: "09999999999949",
      variationId,
      lot: "L-77",
      expirationDate: "2027-01-31",
      serial: "",
    });
    expect(attached).toMatchObject({
      status: 200,
      data: {
        intent: "attach-gtin",
        reading: { kind: "found", gtin: "09999999999949" },
        line: { variationId, lot: "L-77", expirationDate: "2027-01-31", quantity: "" },
        note: expect.stringMatching(/^GTIN 09999999999949 now identifies Xeomin · Sample/),
      },
    });
    const unchosen = await receiptAction(receiptId, cookie, {
      intent: "attach-gtin",
      gtin: "09999999999932",
      variationId: "",
      lot: "L-78",
    });
    expect(unchosen).toMatchObject({
      status: 400,
      data: {
        formError: "Choose the variation this GTIN belongs to.",
        reading: { kind: "unknown", gtin: "09999999999932" },
        line: { lot: "L-78" },
      },
    });
    const again = await receiptAction(receiptId, cookie, {
      intent: "attach-gtin",
      gtin: "09999999999949",
      variationId: await variationWithoutGtin("Xeomin"),
    });
    expect(again).toMatchObject({
      status: 409,
      data: { formError: expect.stringMatching(/^GTIN 09999999999949 is already used by Xeomin — Sample/) },
    });
  });
});
