// The demo stock every test and local run starts from: a balanced ledger, items made the way
// receiving makes them (label code, label barcode, RECEIVE movement), lots expiring soon and
// expired at every location, an open receipt to continue, and one default printer profile each.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../app/db/client.server";
import { expirationUrgency } from "../../app/stock/expiry";
import { LABEL_CODE_PATTERN } from "../../app/stock/label-code";
import { deadlineWhenStarted } from "../../app/vials/rules";
import { IN_USE_AT_DOWNTOWN } from "../../scripts/seed/stock";
import { freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
let codeOf: Map<string, string>;

beforeAll(async () => {
  t = await freshDatabase();
  const locations = await t.db.select({ id: schema.locations.id, code: schema.locations.code }).from(schema.locations);
  codeOf = new Map(locations.map((l) => [l.id, l.code]));
});
afterAll(() => t.close());

const key = (locationId: string, variationId: string) => `${locationId}|${variationId}`;

describe("the demo stock", () => {
  it("balances: every level is the sum of its movements, none negative, at every location", async () => {
    const [levels, sums] = await t.db.batch([
      t.db.select().from(schema.stockLevels),
      t.db.all<{ locationId: string; variationId: string; total: number }>(
        sql`SELECT location_id AS locationId, variation_id AS variationId, SUM(quantity) AS total
          FROM stock_movements GROUP BY location_id, variation_id`,
      ),
    ]);
    expect(levels.length).toBeGreaterThan(20);
    expect(Object.fromEntries(levels.map((l) => [key(l.locationId, l.variationId), l.onHand]))).toEqual(
      Object.fromEntries(sums.map((s) => [key(s.locationId, s.variationId), Number(s.total)])),
    );
    for (const level of levels) expect(level.onHand).toBeGreaterThanOrEqual(0);
    expect(new Set(levels.map((l) => codeOf.get(l.locationId)))).toEqual(new Set(["DTN", "WST", "NTH"]));
  });

  it("gives every item a label code, a barcode row pointing at it, one RECEIVE movement of a package and a USE per draw", async () => {
    const [items, barcodes, movements, usage] = await t.db.batch([
      t.db
        .select({
          item: schema.items,
          receiptId: schema.receiptLines.receiptId,
          receiptLocationId: schema.receipts.locationId,
          receiptStatus: schema.receipts.status,
          lineVariationId: schema.receiptLines.variationId,
          unitsPerPackage: schema.productVariations.unitsPerPackage,
          tracking: schema.products.tracking,
        })
        .from(schema.items)
        .innerJoin(schema.receiptLines, eq(schema.receiptLines.id, schema.items.receiptLineId))
        .innerJoin(schema.receipts, eq(schema.receipts.id, schema.receiptLines.receiptId))
        .innerJoin(schema.productVariations, eq(schema.productVariations.id, schema.items.variationId))
        .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId)),
      t.db.select().from(schema.barcodes).where(sql`${schema.barcodes.itemId} IS NOT NULL`),
      t.db.select().from(schema.stockMovements).where(sql`${schema.stockMovements.itemId} IS NOT NULL`),
      t.db.select().from(schema.usageEntries),
    ]);
    const total = await t.db.select({ n: sql<number>`count(*)` }).from(schema.items);
    expect(items).toHaveLength(Number(total[0]?.n)); // every item came from a receipt line
    expect(items.length).toBeGreaterThanOrEqual(30);
    const barcodeOf = new Map(barcodes.map((b) => [b.itemId, b]));
    const movementsOf = (itemId: string) => movements.filter((m) => m.itemId === itemId);
    for (const { item, ...from } of items) {
      expect({ label: item.labelCode, ok: LABEL_CODE_PATTERN.test(item.labelCode) }).toEqual({
        label: item.labelCode,
        ok: true,
      });
      expect(from).toMatchObject({
        receiptLocationId: item.locationId,
        receiptStatus: "completed",
        lineVariationId: item.variationId,
        tracking: "serialized",
      });
      expect(barcodeOf.get(item.id)).toMatchObject({ code: item.labelCode, itemId: item.id, variationId: null });
      const uses = usage.filter((u) => u.itemId === item.id);
      // Sealed: its package as received; in use: less what its usage entries drew, one USE movement each.
      expect(item.state).toBe(uses.length > 0 ? "in_use" : "sealed");
      expect(item.unitsRemaining).toBe(from.unitsPerPackage - uses.reduce((n, u) => n + u.units, 0));
      expect(movementsOf(item.id)).toEqual([
        expect.objectContaining({
          type: "RECEIVE",
          locationId: item.locationId,
          variationId: item.variationId,
          quantity: from.unitsPerPackage,
          lot: item.lot,
          referenceType: "receipt",
          referenceId: from.receiptId,
        }),
        ...uses.map((u) =>
          expect.objectContaining({
            type: "USE",
            locationId: item.locationId,
            quantity: -u.units,
            lot: item.lot,
            referenceType: "usage",
            referenceId: u.id,
          }),
        ),
      ]);
    }
    expect(barcodes).toHaveLength(items.length);
    expect(new Set(items.map((i) => i.item.labelCode)).size).toBe(items.length);
  });

  it("has a few vials in use at Downtown, each deadline by the verbs' rule and still ahead, with their activity rows", async () => {
    const [open, activity] = await t.db.batch([
      t.db
        .select({ item: schema.items, beyondUseHours: schema.products.beyondUseHours })
        .from(schema.items)
        .innerJoin(schema.productVariations, eq(schema.productVariations.id, schema.items.variationId))
        .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
        .where(eq(schema.items.state, "in_use")),
      t.db.select().from(schema.activityLog).where(eq(schema.activityLog.entity, "item")),
    ]);
    expect(open).toHaveLength(IN_USE_AT_DOWNTOWN.length);
    const draws = IN_USE_AT_DOWNTOWN.reduce((n, v) => n + v.draws.length, 0);
    for (const { item, beyondUseHours } of open) {
      expect(codeOf.get(item.locationId)).toBe("DTN");
      const startedAt = item.startedAt ?? new Date(Number.NaN);
      expect(item.expiresAt).toEqual(
        deadlineWhenStarted({ expirationDate: item.expirationDate, beyondUseHours }, startedAt),
      );
      expect(item.expiresAt?.getTime()).toBeGreaterThan(Date.now());
      expect(activity.filter((a) => a.entityId === item.id && a.action === "start_vial")).toHaveLength(1);
    }
    expect(activity.filter((a) => a.action === "draw_units")).toHaveLength(draws);
  });

  it("completes receipts that match their movements: items per serialized line, base units per bulk line", async () => {
    const [receipts, lines, itemCounts, movementSums, activity] = await t.db.batch([
      t.db.select().from(schema.receipts),
      t.db
        .select({
          line: schema.receiptLines,
          tracking: schema.products.tracking,
          unitsPerPackage: schema.productVariations.unitsPerPackage,
        })
        .from(schema.receiptLines)
        .innerJoin(schema.productVariations, eq(schema.productVariations.id, schema.receiptLines.variationId))
        .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId)),
      t.db.all<{ lineId: string; n: number }>(
        sql`SELECT receipt_line_id AS lineId, count(*) AS n FROM items GROUP BY receipt_line_id`,
      ),
      t.db.all<{ receiptId: string; variationId: string; total: number }>(
        sql`SELECT reference_id AS receiptId, variation_id AS variationId, SUM(quantity) AS total
          FROM stock_movements WHERE type = 'RECEIVE' AND reference_type = 'receipt'
          GROUP BY reference_id, variation_id`,
      ),
      t.db.select().from(schema.activityLog).where(eq(schema.activityLog.action, "receive_vials")),
    ]);
    const completed = receipts.filter((r) => r.status === "completed");
    expect(new Set(completed.map((r) => codeOf.get(r.locationId)))).toEqual(new Set(["DTN", "WST", "NTH"]));
    for (const code of ["DTN", "WST", "NTH"]) {
      expect(completed.filter((r) => codeOf.get(r.locationId) === code).length).toBeGreaterThanOrEqual(3);
    }
    const itemsOf = new Map(itemCounts.map((c) => [c.lineId, Number(c.n)]));
    const received = new Map(movementSums.map((m) => [`${m.receiptId}|${m.variationId}`, Number(m.total)]));
    for (const receipt of completed) {
      expect(receipt).toMatchObject({
        vendorId: expect.any(String),
        reference: expect.any(String),
        openedBy: expect.any(String),
        completedBy: expect.any(String),
        completedAt: expect.any(Date),
      });
      const mine = lines.filter((l) => l.line.receiptId === receipt.id);
      expect(mine.length).toBeGreaterThan(0);
      // The version counts the lines added while it was open (each insert bumps it).
      expect(receipt.version).toBe(1 + mine.length);
      const expected = new Map<string, number>();
      for (const { line, tracking, unitsPerPackage } of mine) {
        expect(itemsOf.get(line.id) ?? 0).toBe(tracking === "serialized" ? line.quantity : 0);
        const k = `${receipt.id}|${line.variationId}`;
        expected.set(k, (expected.get(k) ?? 0) + line.quantity * unitsPerPackage);
      }
      for (const [k, units] of expected) expect({ k, units: received.get(k) }).toEqual({ k, units });
      expect(activity.filter((a) => a.entityId === receipt.id)).toEqual([
        expect.objectContaining({
          entity: "receipt",
          locationId: receipt.locationId,
          userId: receipt.completedBy,
          at: receipt.completedAt,
        }),
      ]);
    }
    expect(activity).toHaveLength(completed.length);
    expect(lines.filter((l) => l.tracking === "bulk").length).toBeGreaterThan(5);
  });

  it("leaves one open receipt at Downtown with lines to continue, and nothing received from it", async () => {
    const open = await t.db.select().from(schema.receipts).where(eq(schema.receipts.status, "open"));
    expect(open.map((r) => codeOf.get(r.locationId))).toEqual(["DTN"]);
    const [receipt] = open;
    if (!receipt) throw new Error("no open receipt");
    expect(receipt).toMatchObject({ completedAt: null, completedBy: null, vendorId: expect.any(String) });
    const [lines, movements, items] = await t.db.batch([
      t.db.select().from(schema.receiptLines).where(eq(schema.receiptLines.receiptId, receipt.id)),
      t.db.select().from(schema.stockMovements).where(eq(schema.stockMovements.referenceId, receipt.id)),
      t.db
        .select({ id: schema.items.id })
        .from(schema.items)
        .innerJoin(schema.receiptLines, eq(schema.receiptLines.id, schema.items.receiptLineId))
        .where(eq(schema.receiptLines.receiptId, receipt.id)),
    ]);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(movements).toEqual([]);
    expect(items).toEqual([]);
    // Still open: it takes another line (and the triggers bump its version).
    await t.db.insert(schema.receiptLines).values({
      receiptId: receipt.id,
      variationId: lines[0]?.variationId ?? "",
      quantity: 1,
      unitsPerPackage: lines[0]?.unitsPerPackage ?? 1,
    });
    const [after] = await t.db.select().from(schema.receipts).where(eq(schema.receipts.id, receipt.id));
    expect(after?.version).toBe(receipt.version + 1);
  });

  it("has sealed lots expiring within 30 days and lots already expired at every location", async () => {
    const items = await t.db
      .select({ locationId: schema.items.locationId, expirationDate: schema.items.expirationDate })
      .from(schema.items);
    const now = new Date();
    for (const code of ["DTN", "WST", "NTH"]) {
      const urgencies = items
        .filter((i) => codeOf.get(i.locationId) === code)
        .map((i) => expirationUrgency(i.expirationDate, now));
      expect({ code, soon: urgencies.includes("soon"), expired: urgencies.includes("expired") }).toEqual({
        code,
        soon: true,
        expired: true,
      });
      expect(urgencies.filter((u) => u === "later").length).toBeGreaterThan(0);
    }
  });

  it("keeps North free of Botox and Dysport (below their reorder points; the ledger tests count on it)", async () => {
    const rows = await t.db.all<{ code: string; product: string }>(
      sql`SELECT l.code AS code, p.name AS product FROM stock_levels AS s
        JOIN locations AS l ON l.id = s.location_id
        JOIN product_variations AS v ON v.id = s.variation_id JOIN products AS p ON p.id = v.product_id
        WHERE l.code = 'NTH' AND p.name IN ('Botox Cosmetic', 'Dysport')`,
    );
    expect(rows).toEqual([]);
  });

  it("gives each location exactly one default printer profile, and Downtown a Zebra ZPL profile too", async () => {
    const profiles = await t.db.select().from(schema.printerProfiles);
    for (const code of ["DTN", "WST", "NTH"]) {
      const defaults = profiles.filter((p) => codeOf.get(p.locationId) === code && p.isDefault);
      expect(defaults).toEqual([
        expect.objectContaining({
          name: "Vial labels 2.25 × 1.25 in",
          output: "browser",
          widthTenthMm: 572,
          heightTenthMm: 318,
          dpi: 203,
          symbology: "both",
          fields: ["product", "variation", "lot", "expiry", "received", "label_code"],
          active: true,
        }),
      ]);
    }
    const others = profiles.filter((p) => !p.isDefault);
    expect(others.map((p) => [codeOf.get(p.locationId), p.name, p.output, p.zplDelivery])).toEqual([
      ["DTN", "Zebra ZD421 2 × 1 in", "zpl", "download"],
    ]);
    expect(others[0]).toMatchObject({ widthTenthMm: 508, heightTenthMm: 254, dpi: 203 });
  });
});
