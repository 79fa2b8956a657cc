// Sales imports on the jobs worker against a real database and a real local R2 (issue 24 items 2, 3
// and 7): Square and Zenoti files processed chunk by chunk; the same file or an overlapping export
// imported again changes nothing; identical rows kept, also across chunks; a run killed half way and
// resumed leaves exactly the state of one uninterrupted run; retail lines booked from stock (never
// below zero), refunds returned; unknown items mapped later; runs stay bounded; a lost file fails.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import type { SessionUser } from "../../app/auth/session.server";
import type { Database } from "../../app/db/client.server";
import { bookRetailSales } from "../../app/imports/bookings.server";
import { type ChunkJob, processChunk } from "../../app/imports/chunk.server";
import { mapSaleItem, unknownItems } from "../../app/imports/map-item.server";
import { advanceImports, IMPORT_LEASE_MS, type ImportWorkOptions } from "../../app/imports/work.server";
import { runScheduledJobs } from "../../app/jobs/scheduled.server";
import { recordMovements } from "../../app/stock/ledger.server";
import { localR2 } from "../support/backups";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { importState, jobRow, queueSalesImport } from "../support/imports";
import { ownVariation } from "../support/own-variation";
import { variationFacts } from "../support/receive";
import { squareCsv, zenotiCsv } from "../support/sales-files";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let r2: Awaited<ReturnType<typeof localR2>>;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
const users = new Map<string, SessionUser>();
/** A retail serum of the test's own: 2 base units a package, GTIN below, SKU SERUM-30. */
let SERUM: string;
const SERUM_GTIN = "00012345678905";
/** A second one, never stocked: sold with nothing on hand. */
let BALM: string;
const BALM_GTIN = "00098765432105";

function as(name: string, where: "DTN" | "WST" | "all" = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === "all" ? "all" : loc[where] };
}

const one = async <T>(db: Database, query: ReturnType<typeof sql>) => (await db.all<T>(query))[0] as T;

async function onHand(db: Database, where: string, variationId: string): Promise<number> {
  const row = await one<{ n: number } | undefined>(
    db,
    sql`SELECT on_hand AS n FROM stock_levels WHERE location_id = ${where} AND variation_id = ${variationId}`,
  );
  return Number(row?.n ?? 0);
}

/** Runs the worker until it finds nothing to do; answers the runs that did something. */
async function runUntilIdle(db: Database, files: R2Bucket, options: ImportWorkOptions & { at?: Date } = {}) {
  for (let runs = 0; runs < 400; runs++) {
    if ((await advanceImports(db, files, options.at ?? new Date(), options)) === undefined) return runs;
  }
  throw new Error("the imports never went idle");
}

const adminId = () => as("admin").id;

function square(rows: Record<string, string>[]) {
  return squareCsv(rows);
}

const sale = (tx: string, item: string, extra: Record<string, string> = {}) => ({
  Date: "2026-03-02",
  Time: "10:15:00",
  Item: item,
  Qty: "1",
  "Net Sales": "$10.00",
  "Transaction ID": tx,
  Location: "Downtown",
  Employee: "Dr. Reyes",
  ...extra,
});

beforeAll(async () => {
  t = await freshDatabase();
  r2 = await localR2();
  ({ loc, organizationId } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "staff"]) users.set(name, (await signedIn(t.db, name)).user);
  SERUM = (await ownVariation(t.db, "bulk", "Test Serum", { variationName: "30 mL" })).id;
  BALM = (await ownVariation(t.db, "bulk", "Test Balm", { variationName: "15 mL" })).id;
  await t.db.run(sql`UPDATE product_variations SET gtin = ${SERUM_GTIN}, sku = 'SERUM-30', units_per_package = 2
    WHERE id = ${SERUM}`);
  await t.db.run(sql`UPDATE product_variations SET gtin = ${BALM_GTIN}, units_per_package = 3 WHERE id = ${BALM}`);
  await t.db.batch(
    recordMovements(t.db, [
      { locationId: loc.DTN, variationId: SERUM, quantity: 10, type: "RECEIVE", userId: adminId() },
    ]),
  );
}, 60_000);

afterAll(async () => {
  await r2?.close();
  await t?.close();
});

describe("a Square export end to end", () => {
  const rows = [
    sale("T1", "Glabella Botox", { SKU: "TOX-GLAB", "Net Sales": "$280.00" }),
    sale("T2", "Serum 30 mL", { GTIN: SERUM_GTIN, Qty: "2", "Net Sales": "$100.00" }),
    sale("T3", "Serum 30 mL", { GTIN: SERUM_GTIN, Qty: "1", "Net Sales": "$50.00", "Event Type": "Refund" }),
    sale("T4", "Gift card $50", { "Itemization Type": "Gift Card", "Net Sales": "$50.00" }),
    sale("T5", "Mystery Mask", { "Net Sales": "$35.00" }),
    sale("T6", "Lip filler", { "Net Sales": "abc" }),
    // Two identical lines of one transaction: two masks sold on two lines, both kept.
    sale("T7", "Mystery Mask", { "Net Sales": "$35.00" }),
    sale("T7", "Mystery Mask", { "Net Sales": "$35.00" }),
  ];
  let jobId: string;

  it("imports the rows, books the retail lines and counts everything", async () => {
    jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.DTN,
      csv: square(rows),
      source: "square",
      fileName: "square-march.csv",
    });
    const detail = await advanceImports(t.db, r2.files, new Date());
    expect(detail).toMatch(/completed: 8 rows; booked 2 retail lines/);
    const job = await jobRow(t.db, jobId);
    expect(job).toMatchObject({
      status: "completed",
      imported: 6,
      duplicates: 0,
      skipped: 1,
      unmapped: 3,
      errors: 1,
      rows_done: 8,
      attempts: 0,
      lease_until: null,
    });
    expect(job.byte_offset).toBe(job.rows_bytes);
    const lines = await t.db.all<{ row: number; kind: string; quantity: number; net: number; provider: string }>(sql`
      SELECT l.row_number AS row, i.kind, l.quantity, l.net_cents AS net, l.provider FROM sales_lines AS l
      JOIN sale_items AS i ON i.id = l.sale_item_id WHERE l.job_id = ${jobId} ORDER BY l.row_number`);
    expect(lines.map((l) => [l.row, l.kind, l.quantity, l.net])).toEqual([
      [2, "service", 1, 28000],
      [3, "retail", 2, 10000],
      [4, "retail", -1, -5000],
      [6, "unmapped", 1, 3500],
      [8, "unmapped", 1, 3500],
      [9, "unmapped", 1, 3500],
    ]);
    expect(lines[0]?.provider).toBe("Dr. Reyes");
    // The error names its row, column and value; nothing else of the row is kept.
    const errors = await t.db.all(
      sql`SELECT row_number AS row, "column", value FROM import_row_errors WHERE job_id = ${jobId}`,
    );
    expect(errors).toEqual([{ row: 7, column: "Net Sales", value: "abc" }]);
    // 2 packages of 2 units sold, 1 returned: 10 - 4 + 2.
    expect(await onHand(t.db, loc.DTN, SERUM)).toBe(8);
    const bookings = await t.db.all(sql`SELECT booked_units AS booked, short_units AS short FROM sale_bookings AS b
      JOIN sales_lines AS l ON l.id = b.line_id WHERE l.job_id = ${jobId} ORDER BY l.row_number`);
    expect(bookings).toEqual([
      { booked: -4, short: 0 },
      { booked: 2, short: 0 },
    ]);
    const movements = await t.db.all(sql`SELECT quantity, reference_id AS ref FROM stock_movements
      WHERE type = 'SALE' AND variation_id = ${SERUM} ORDER BY quantity`);
    expect(movements).toEqual([
      { quantity: -4, ref: jobId },
      { quantity: 2, ref: jobId },
    ]);
    const activity = await t.db.all<{ action: string; user: string | null; summary: string }>(sql`
      SELECT action, user_id AS user, summary FROM activity_log WHERE entity_id = ${jobId} ORDER BY action`);
    expect(activity.map((a) => [a.action, a.user, JSON.parse(a.summary)])).toEqual([
      ["book_sales", null, { lines: 2 }],
      ["import_sales", adminId(), { fileName: "square-march.csv", lines: 6 }],
    ]);
    // Customer names, notes and card data are never stored anywhere.
    const everything = JSON.stringify(await importState(t.db));
    for (const secret of ["Jane Customer", "private note", "4242", "Visa"]) expect(everything).not.toContain(secret);
  });

  it("recognises items by service code, GTIN and name, once per organization", async () => {
    const items = await t.db.all<{ key: string; kind: string; service: string | null; variation: string | null }>(sql`
      SELECT item_key AS key, kind, service_id AS service, variation_id AS variation FROM sale_items
      WHERE organization_id = ${organizationId} ORDER BY item_key`);
    const glab = await one<{ id: string }>(t.db, sql`SELECT id FROM services WHERE code = 'TOX-GLAB'`);
    expect(items).toEqual([
      { key: `gtin:${SERUM_GTIN}`, kind: "retail", service: null, variation: SERUM },
      { key: "name:mystery mask", kind: "unmapped", service: null, variation: null },
      { key: "sku:TOX-GLAB", kind: "service", service: glab.id, variation: null },
    ]);
  });

  it("the same file again changes nothing: every valid row is a duplicate", async () => {
    const before = await importState(t.db);
    const again = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.DTN,
      csv: square(rows),
      source: "square",
    });
    await runUntilIdle(t.db, r2.files);
    expect(await jobRow(t.db, again)).toMatchObject({
      status: "completed",
      imported: 0,
      duplicates: 6,
      unmapped: 0,
      skipped: 1,
      errors: 1,
    });
    const after = await importState(t.db);
    for (const table of ["sales_lines", "sale_items", "sale_bookings", "sale_movements", "stock_levels"])
      expect(after[table], table).toEqual(before[table]);
    expect(await onHand(t.db, loc.DTN, SERUM)).toBe(8);
  });

  it("an overlapping export imports only its new rows", async () => {
    const later = [
      ...rows.slice(4),
      sale("T8", "Glabella Botox", { SKU: "TOX-GLAB", "Net Sales": "$280.00" }),
      sale("T9", "Serum 30 mL", { GTIN: SERUM_GTIN, "Net Sales": "$50.00" }),
    ];
    const overlap = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.DTN,
      csv: square(later),
      source: "square",
    });
    await runUntilIdle(t.db, r2.files);
    expect(await jobRow(t.db, overlap)).toMatchObject({ imported: 2, duplicates: 3, unmapped: 0, errors: 1 });
    const mine = await t.db.all(
      sql`SELECT transaction_ref AS tx FROM sales_lines WHERE job_id = ${overlap} ORDER BY row_number`,
    );
    expect(mine).toEqual([{ tx: "T8" }, { tx: "T9" }]);
    expect(await onHand(t.db, loc.DTN, SERUM)).toBe(6);
  });
});

describe("identical rows", () => {
  // No transaction id: rows are keyed by their content and their occurrence in the file.
  const plain = (n: number) =>
    Array.from({ length: n }, () => sale("", "Hydration facial", { "Transaction ID": "", "Net Sales": "$90.00" }));

  it("are all kept when they fall in different chunks, and not doubled on re-import", async () => {
    const csv = square([...plain(3), sale("", "Other", { "Transaction ID": "" }), ...plain(2)]);
    const first = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.WST,
      csv,
      source: "square",
    });
    // Some 300 bytes a chunk: about one row each.
    await runUntilIdle(t.db, r2.files, { chunkBytes: 300 });
    expect(await jobRow(t.db, first)).toMatchObject({ status: "completed", imported: 6, duplicates: 0 });
    const count = async () =>
      Number(
        (
          await one<{ n: number }>(
            t.db,
            sql`SELECT count(*) AS n FROM sales_lines AS l JOIN sale_items AS i
        ON i.id = l.sale_item_id WHERE i.item_key = 'name:hydration facial'`,
          )
        ).n,
      );
    expect(await count()).toBe(5);
    // The same file in one chunk, then in other chunk sizes: the same five.
    for (const chunkBytes of [1 << 20, 700]) {
      const again = await queueSalesImport(t.db, r2.files, {
        organizationId,
        createdBy: adminId(),
        locationId: loc.WST,
        csv,
        source: "square",
      });
      await runUntilIdle(t.db, r2.files, { chunkBytes });
      expect(await jobRow(t.db, again)).toMatchObject({ imported: 0, duplicates: 6 });
      expect(await count()).toBe(5);
    }
    // A longer export of the same day: one more identical row is one more line.
    const more = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.WST,
      csv: square([...plain(3), sale("", "Other", { "Transaction ID": "" }), ...plain(3)]),
      source: "square",
    });
    await runUntilIdle(t.db, r2.files, { chunkBytes: 500 });
    expect(await jobRow(t.db, more)).toMatchObject({ imported: 1, duplicates: 6 });
    expect(await count()).toBe(6);
    // The occurrences are working data: gone once each job completed.
    expect(await one<{ n: number }>(t.db, sql`SELECT count(*) AS n FROM import_row_occurrences`)).toEqual({ n: 0 });
  });
});

describe("a Zenoti report with its location column mapped", () => {
  it("finds the header under the title rows, drops the totals row, and maps each center", async () => {
    const z = (invoice: string, item: string, extra: Record<string, string> = {}) => ({
      "Item Type": "Service",
      "Item Name": item,
      "Invoice Closed Date": "03/05/2026",
      "Sales (Exc. Tax)": "120.00",
      "Invoice No": invoice,
      Center: "Downtown",
      Employee: "Dr. Kim",
      Qty: "1",
      ...extra,
    });
    const csv = zenotiCsv([
      z("IN-1", "Crow's feet – toxin"),
      z("IN-2", "Test Serum · 30 mL", { "Item Type": "Product", Center: "Westside", "Sales (Exc. Tax)": "55.00" }),
      z("IN-3", "Lip augmentation – filler", { Center: "Uptown" }),
      z("IN-4", "Membership fee", { "Item Type": "Membership" }),
      z("IN-5", "Crow's feet – toxin", { Status: "Open" }),
      z("IN-6", "Crow's feet – toxin", { "Sale Type": "Refund", "Sales (Exc. Tax)": "120.00" }),
    ]);
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: null,
      locationMap: { Downtown: loc.DTN, westside: loc.WST },
      csv,
      source: "zenoti",
    });
    // Chunks of 64 bytes: the first grows until it holds the header row, each later one a row.
    await runUntilIdle(t.db, r2.files, { chunkBytes: 64 });
    expect(await jobRow(t.db, jobId)).toMatchObject({
      status: "completed",
      imported: 3,
      skipped: 2,
      errors: 1,
      unmapped: 0,
    });
    const lines = await t.db.all<Record<string, unknown>>(sql`SELECT l.row_number AS row, l.location_id AS location,
        i.kind, l.quantity, l.net_cents AS net, l.sold_at AS at FROM sales_lines AS l
      JOIN sale_items AS i ON i.id = l.sale_item_id WHERE l.job_id = ${jobId} ORDER BY l.row_number`);
    // Three title rows (a blank line is no row), the header row 4: the first data row is row 5.
    expect(lines.map((l) => [l.row, l.location, l.kind, l.quantity, l.net])).toEqual([
      [5, loc.DTN, "service", 1, 12000],
      [6, loc.WST, "retail", 1, 5500],
      [10, loc.DTN, "service", -1, -12000],
    ]);
    const errors = await t.db.all(sql`SELECT row_number AS row, "column", value, message FROM import_row_errors
      WHERE job_id = ${jobId}`);
    expect(errors).toEqual([
      {
        row: 7,
        column: "Center",
        value: "Uptown",
        message: 'The location "Uptown" is not mapped to one of your locations.',
      },
    ]);
    // Sold at Westside with none on hand there: booked 0, 2 units short, no movement, no negative level.
    const booking = await one<{ booked: number; short: number }>(
      t.db,
      sql`SELECT booked_units AS booked,
      short_units AS short FROM sale_bookings AS b JOIN sales_lines AS l ON l.id = b.line_id WHERE l.job_id = ${jobId}`,
    );
    expect(booking).toEqual({ booked: 0, short: 2 });
    expect(await onHand(t.db, loc.WST, SERUM)).toBe(0);
    expect(
      await one(t.db, sql`SELECT count(*) AS n FROM stock_movements WHERE type = 'SALE' AND location_id = ${loc.WST}`),
    ).toEqual({ n: 0 });
  });
});

describe("unknown items, mapped later", () => {
  it("lists them with their lines and units; mapping one retail books its earlier lines on the next run", async () => {
    const csv = square([
      sale("U1", "Balm 15 mL", { Qty: "2", Location: "" }),
      sale("U2", "Balm 15 mL", { Qty: "1" }),
      sale("U3", "Cheek consult", {}),
      sale("U4", "Cheek consult", { Qty: "-1", "Event Type": "Refund" }),
    ]);
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.DTN,
      csv,
      source: "square",
    });
    await runUntilIdle(t.db, r2.files);
    expect(await jobRow(t.db, jobId)).toMatchObject({ imported: 4, unmapped: 4 });
    const listed = await unknownItems(t.db, as("admin"), 1);
    const balm = listed.items.find((i) => i.name === "Balm 15 mL");
    const consult = listed.items.find((i) => i.name === "Cheek consult");
    expect(balm).toMatchObject({ lines: 2, units: 3, sku: null, gtin: null });
    expect(consult).toMatchObject({ lines: 2, units: 0 });
    expect(listed.total).toBe(listed.items.length);
    if (!balm || !consult) throw new Error("not listed");

    // Stock some balm, then map the item to it: the next run books both lines.
    await t.db.batch(
      recordMovements(t.db, [
        { locationId: loc.DTN, variationId: BALM, quantity: 5, type: "RECEIVE", userId: adminId() },
      ]),
    );
    const mapped = await mapSaleItem(t.db, as("admin"), { saleItemId: balm.id, kind: "retail", variationId: BALM });
    expect(mapped).toEqual({ ok: true, saleItemId: balm.id });
    expect(await t.lastActivity()).toMatchObject({
      action: "map_sale_item",
      entity: "sale_item",
      entityId: String(balm.id),
      summary: { name: "Balm 15 mL", target: "Test Balm · 15 mL", was: "unmapped" },
    });
    expect(await advanceImports(t.db, r2.files, new Date())).toBe("booked 2 retail lines");
    // 2 packages of 3 units (5 on hand: takes 5, 1 short), then 1 package (none left: 3 short).
    const bookings = await t.db.all(sql`SELECT booked_units AS booked, short_units AS short FROM sale_bookings AS b
      JOIN sales_lines AS l ON l.id = b.line_id WHERE l.job_id = ${jobId} ORDER BY l.row_number`);
    expect(bookings).toEqual([
      { booked: -5, short: 1 },
      { booked: 0, short: 3 },
    ]);
    expect(await onHand(t.db, loc.DTN, BALM)).toBe(0);
    // Booked once: another run books nothing.
    expect(await advanceImports(t.db, r2.files, new Date())).toBeUndefined();

    // A service: its lines count as that service from now on (reconciliation joins through the item).
    const crow = await one<{ id: string }>(t.db, sql`SELECT id FROM services WHERE code = 'TOX-CROW'`);
    expect(
      await mapSaleItem(t.db, as("owner", "all"), { saleItemId: consult.id, kind: "service", serviceId: crow.id }),
    ).toEqual({
      ok: true,
      saleItemId: consult.id,
    });
    const sold = await one<{ n: number; units: number }>(
      t.db,
      sql`SELECT count(*) AS n, sum(l.quantity) AS units
      FROM sales_lines AS l JOIN sale_items AS i ON i.id = l.sale_item_id
      WHERE i.kind = 'service' AND i.service_id = ${crow.id} AND l.job_id = ${jobId}`,
    );
    expect(sold).toEqual({ n: 2, units: 0 });
    // The job's count stays what it was at import.
    expect(await jobRow(t.db, jobId)).toMatchObject({ unmapped: 4 });
    const after = await unknownItems(t.db, as("admin"), 1);
    expect(after.items.map((i) => i.name)).not.toContain("Balm 15 mL");
    expect(after.total).toBe(listed.total - 2);
  });

  it("refuses a vial-tracked product, another organization's or an archived target, and a user without the permission", async () => {
    const [item] = (await unknownItems(t.db, as("admin"), 1)).items;
    if (!item) throw new Error("no unknown item left");
    const botox = (await variationFacts(t.db, "Botox Cosmetic", "100 U vial")).id;
    const refused = await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "retail", variationId: botox });
    expect(refused).toMatchObject({ ok: false, refusal: "tracked_by_vial" });
    expect(refused.ok === false && refused.message).toMatch(
      /^Botox Cosmetic is tracked vial by vial: draw its vials at the cart/,
    );
    expect(
      await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "service", serviceId: "nope" }),
    ).toMatchObject({
      refusal: "service_unavailable",
    });
    await t.db.run(sql`UPDATE product_variations SET active = 0 WHERE id = ${BALM}`);
    expect(
      await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "retail", variationId: BALM }),
    ).toMatchObject({
      refusal: "variation_unavailable",
    });
    await t.db.run(sql`UPDATE product_variations SET active = 1 WHERE id = ${BALM}`);
    expect(await mapSaleItem(t.db, as("staff"), { saleItemId: item.id, kind: "ignored" })).toMatchObject({
      refusal: "forbidden",
    });
    expect(await mapSaleItem(t.db, as("admin"), { saleItemId: 999_999, kind: "ignored" })).toMatchObject({
      refusal: "not_found",
    });
    expect(await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "retail" })).toMatchObject({
      refusal: "invalid",
    });
    expect(await unknownItems(t.db, as("staff"), 1)).toEqual({ items: [], total: 0 });
    const kind = await one<{ kind: string }>(t.db, sql`SELECT kind FROM sale_items WHERE id = ${item.id}`);
    expect(kind).toEqual({ kind: "unmapped" });
    expect(await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "ignored" })).toEqual({
      ok: true,
      saleItemId: item.id,
    });
  });
});

describe("booking retail lines", () => {
  it("writes nothing when a level moved between its read and its write, and books on the next try", async () => {
    const csv = square([sale("S1", "Serum travel size", { Qty: "3" })]);
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.DTN,
      csv,
      source: "square",
    });
    await runUntilIdle(t.db, r2.files);
    const item = await one<{ id: number }>(
      t.db,
      sql`SELECT sale_item_id AS id FROM sales_lines WHERE job_id = ${jobId}`,
    );
    expect(
      await mapSaleItem(t.db, as("admin"), { saleItemId: item.id, kind: "retail", variationId: SERUM }),
    ).toMatchObject({ ok: true });
    const level = await onHand(t.db, loc.DTN, SERUM);
    // A receipt lands while the batch is being worked out: its batch is refused whole.
    const racing = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop !== "batch") return Reflect.get(target, prop, receiver);
        return async (statements: Parameters<Database["batch"]>[0]) => {
          await target.batch(
            recordMovements(target, [
              { locationId: loc.DTN, variationId: SERUM, quantity: 1, type: "RECEIVE", userId: adminId() },
            ]),
          );
          return target.batch(statements);
        };
      },
    });
    expect(await bookRetailSales(racing, new Date(), () => true)).toBe(0);
    const none = await one<{ n: number }>(
      t.db,
      sql`SELECT count(*) AS n FROM sale_bookings AS b
      JOIN sales_lines AS l ON l.id = b.line_id WHERE l.job_id = ${jobId}`,
    );
    expect(none.n).toBe(0);
    expect(await onHand(t.db, loc.DTN, SERUM)).toBe(level + 1);
    // The next run reads the level as it is now: 3 packages of 2 units.
    expect(await bookRetailSales(t.db, new Date(), () => true)).toBe(1);
    const booked = await one(
      t.db,
      sql`SELECT booked_units AS booked, short_units AS short FROM sale_bookings AS b
      JOIN sales_lines AS l ON l.id = b.line_id WHERE l.job_id = ${jobId}`,
    );
    const take = Math.min(6, level + 1);
    expect(booked).toEqual({ booked: -take, short: 6 - take });
    expect(await onHand(t.db, loc.DTN, SERUM)).toBe(level + 1 - take);
  });
});

describe("the worker's runs", () => {
  it("stay bounded: a run commits at most its chunks, then lets the job go for the next run", async () => {
    const csv = square(Array.from({ length: 40 }, (_, i) => sale(`B${i}`, "Glabella Botox", { SKU: "TOX-GLAB" })));
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.NTH,
      csv,
      source: "square",
    });
    const detail = await advanceImports(t.db, r2.files, new Date(), { chunkBytes: 1024, maxChunks: 3 });
    expect(detail).toMatch(/paused/);
    const job = await jobRow(t.db, jobId);
    expect(job.status).toBe("processing");
    expect(job.lease_until).toBeNull();
    expect(Number(job.byte_offset)).toBeGreaterThan(0);
    expect(Number(job.byte_offset)).toBeLessThan(Number(job.rows_bytes));
    expect(Number(job.rows_done)).toBeGreaterThan(2);
    expect(Number(job.rows_done)).toBeLessThan(15);
    expect(Number(job.imported)).toBe(Number(job.rows_done));
    // Through the scheduled handler, as the work cron runs it (its own budget: the rest in one run).
    await runScheduledJobs(t.db, { cron: "* * * * *", at: new Date() }, { files: r2.files, report: () => {} });
    expect(await jobRow(t.db, jobId)).toMatchObject({ status: "completed", imported: 40, rows_done: 40 });
    const runs = await t.db.all(sql`SELECT status, detail FROM job_runs WHERE job = 'sales_imports'`);
    expect(runs).toEqual([{ status: "succeeded", detail: expect.stringMatching(/completed/) }]);
  });

  it("apply a chunk once, however many runs read it from the same mark", async () => {
    const csv = square(Array.from({ length: 12 }, (_, i) => sale(`R${i}`, "Serum 30 mL", { GTIN: SERUM_GTIN })));
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.NTH,
      csv,
      source: "square",
    });
    const row = await jobRow(t.db, jobId);
    const job: ChunkJob = {
      id: jobId,
      organizationId,
      locationId: loc.NTH,
      fileName: "sales.csv",
      rowsKey: String(row.rows_key),
      rowsBytes: Number(row.rows_bytes),
      headers: JSON.parse(String(row.headers)),
      mapping: JSON.parse(String(row.mapping)),
      locationMap: null,
      timeZone: "America/New_York",
      byteOffset: 0,
      rowsDone: 0,
      createdBy: adminId(),
    };
    const context = () => ({ headerIndex: null, locations: new Set(Object.values(loc)) });
    const options = { chunkBytes: 1500, leaseMs: IMPORT_LEASE_MS };
    // Two runs that both read the job at mark 0 (a lease lapsed under a slow run): one wins.
    const results = await Promise.all([
      processChunk(t.db, r2.files, { ...job }, context(), new Date(), options),
      processChunk(t.db, r2.files, { ...job }, context(), new Date(), options),
    ]);
    expect(results.filter((r) => r.byteOffset === null)).toHaveLength(1);
    const won = results.find((r) => r.byteOffset !== null);
    const after = await jobRow(t.db, jobId);
    expect(after.byte_offset).toBe(won?.byteOffset);
    expect(after.imported).toBe(won?.rows);
    const lines = await one<{ n: number }>(t.db, sql`SELECT count(*) AS n FROM sales_lines WHERE job_id = ${jobId}`);
    expect(lines.n).toBe(won?.rows);
    // And a run that read it before that chunk, late: nothing.
    expect(await processChunk(t.db, r2.files, { ...job }, context(), new Date(), options)).toMatchObject({
      byteOffset: null,
    });
    expect(await jobRow(t.db, jobId)).toEqual(after);
    // The winner holds the lease its chunk set; once it lapses, the rest.
    await runUntilIdle(t.db, r2.files, { at: new Date(Date.now() + IMPORT_LEASE_MS + 1000) });
    expect(await jobRow(t.db, jobId)).toMatchObject({ status: "completed", imported: 12, duplicates: 0 });
  });

  it("fails a job whose file is gone after three runs, with the reason in words", async () => {
    const jobId = await queueSalesImport(t.db, r2.files, {
      organizationId,
      createdBy: adminId(),
      locationId: loc.NTH,
      csv: square([sale("G1", "Glabella Botox")]),
      source: "square",
    });
    const { rows_key: key } = await jobRow(t.db, jobId);
    await r2.files.delete(String(key));
    await expect(advanceImports(t.db, r2.files, new Date())).rejects.toThrow(/no longer in storage/);
    expect(await jobRow(t.db, jobId)).toMatchObject({ status: "processing", attempts: 1, lease_until: null });
    await expect(advanceImports(t.db, r2.files, new Date())).rejects.toThrow(/no longer in storage/);
    expect(await advanceImports(t.db, r2.files, new Date())).toMatch(/failed/);
    expect(await jobRow(t.db, jobId)).toMatchObject({
      status: "failed",
      last_error: "The import stopped 3 times: The uploaded file is no longer in storage: upload it again.",
    });
    expect(await advanceImports(t.db, r2.files, new Date())).toBeUndefined();
  });
});

describe("an import killed half way", () => {
  /** A file of many rows: services, retail sales beyond the stock, refunds, identical rows, errors, skips. */
  function bigFile(): string {
    const rows: Record<string, string>[] = [];
    for (let i = 0; i < 120; i++) {
      const kind = i % 6;
      if (kind === 0) rows.push(sale(`K${i}`, "Glabella lines – toxin"));
      else if (kind === 1) rows.push(sale(`K${i}`, "CE Ferulic", { GTIN: "3635047310156", Qty: String(1 + (i % 3)) }));
      else if (kind === 2)
        rows.push(sale(`K${i - 1}`, "CE Ferulic", { GTIN: "3635047310156", Qty: "-1", "Event Type": "Refund" }));
      else if (kind === 3) rows.push(sale("", "Hydration facial", { "Transaction ID": "", Time: "11:00:00" }));
      else if (kind === 4) rows.push(sale(`K${i}`, "Gift card", { "Itemization Type": "Gift Card" }));
      else rows.push(sale(`K${i}`, "Glabella lines – toxin", { Date: i % 4 === 1 ? "31/31/2026" : "2026-03-03" }));
    }
    return square(rows);
  }

  async function twin(): Promise<{ t: TestDatabase; r2: Awaited<ReturnType<typeof localR2>>; jobId: string }> {
    const db = await freshDatabase();
    const files = await localR2();
    const { loc: here, organizationId: org } = await demoLocations(db.db);
    const admin = await one<{ id: string }>(db.db, sql`SELECT id FROM users WHERE email = 'admin@demo.clinic'`);
    const jobId = await queueSalesImport(db.db, files.files, {
      id: "0190a000-0000-7000-8000-000000000001",
      organizationId: org,
      createdBy: admin.id,
      locationId: here.DTN,
      csv: bigFile(),
      source: "square",
      queuedAt: 1_770_000_000_000,
    });
    return { t: db, r2: files, jobId };
  }

  it("and resumed leaves exactly the state of one uninterrupted run", async () => {
    const killed = await twin();
    const whole = await twin();
    try {
      const at = new Date();
      // Killed after its first chunk, lease still held: the next run within the lease finds nothing.
      expect(await advanceImports(killed.t.db, killed.r2.files, at, { chunkBytes: 2048, stopAfter: 1 })).toMatch(
        /stopped after 1 chunks/,
      );
      const mark = Number((await jobRow(killed.t.db, killed.jobId)).byte_offset);
      expect(mark).toBeGreaterThan(0);
      // (It books the retail lines the first chunk brought, as every run does.)
      expect(await advanceImports(killed.t.db, killed.r2.files, at, { chunkBytes: 2048 })).toMatch(
        /^booked \d+ retail lines$/,
      );
      expect(Number((await jobRow(killed.t.db, killed.jobId)).byte_offset)).toBe(mark);
      // After the lease, a run whose R2 read fails once between chunks: its first chunk (two reads:
      // the chunk, the file's head for the header row) and second commit, the third chunk's read fails.
      let reads = 0;
      const flaky = {
        get: (key: string, options?: R2GetOptions) => {
          reads++;
          if (reads === 4) throw new Error("R2 is unreachable");
          return killed.r2.files.get(key, options);
        },
      } as unknown as R2Bucket;
      const later = new Date(at.getTime() + IMPORT_LEASE_MS + 1000);
      await expect(advanceImports(killed.t.db, flaky, later, { chunkBytes: 2048 })).rejects.toThrow(/unreachable/);
      const broken = await jobRow(killed.t.db, killed.jobId);
      expect(Number(broken.byte_offset)).toBeGreaterThan(mark);
      expect(broken).toMatchObject({ status: "processing", last_error: "R2 is unreachable", lease_until: null });
      await runUntilIdle(killed.t.db, killed.r2.files, { chunkBytes: 2048, at: later });

      await runUntilIdle(whole.t.db, whole.r2.files, { chunkBytes: 2048 });
      const a = await importState(killed.t.db);
      const b = await importState(whole.t.db);
      expect(a).toEqual(b);
      const job = await jobRow(whole.t.db, whole.jobId);
      expect(job).toMatchObject({ status: "completed", rows_done: 120, skipped: 20, errors: 10 });
      expect(Number(job.imported) + Number(job.duplicates)).toBe(90);
      expect(b.sale_bookings?.length).toBeGreaterThan(0);
      // Refunds net out the sales they return: the lines of the serum sum to what was sold net.
      const net = await one<{ q: number }>(
        whole.t.db,
        sql`SELECT sum(l.quantity) AS q FROM sales_lines AS l
        JOIN sale_items AS i ON i.id = l.sale_item_id WHERE i.item_key = 'gtin:03635047310156'`,
      );
      expect(Number(net.q)).toBe(20 * 2 - 20);
    } finally {
      for (const x of [killed, whole]) {
        await x.r2.close();
        await x.t.close();
      }
    }
  }, 120_000);

  it("in any chunk size, and after a kill at any chunk, ends in the same state", async () => {
    const reference = await twin();
    await runUntilIdle(reference.t.db, reference.r2.files);
    const expected = await importState(reference.t.db);
    await reference.r2.close();
    await reference.t.close();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 300, max: 8000 }),
        fc.integer({ min: 1, max: 6 }),
        async (chunkBytes, stopAfter) => {
          const x = await twin();
          try {
            const at = new Date();
            await advanceImports(x.t.db, x.r2.files, at, { chunkBytes, stopAfter });
            await runUntilIdle(x.t.db, x.r2.files, { chunkBytes, at: new Date(at.getTime() + IMPORT_LEASE_MS + 1) });
            expect(await importState(x.t.db)).toEqual(expected);
          } finally {
            await x.r2.close();
            await x.t.close();
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 240_000);
});
