import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gtinCheckDigit } from "~/catalog/gtin";
import { SQUARE_HEADERS, squareRow, ZENOTI_HEADERS, zenotiRow } from "../../../tests/support/sales-files";
import { presetMapping } from "./presets";
import { itemKeyOf, type ParsedSalesRow, parseSalesRow } from "./rows";

const NY = "America/New_York";
const SQUARE = presetMapping("square", SQUARE_HEADERS);
const ZENOTI = presetMapping("zenoti", ZENOTI_HEADERS);
const UPC = `08500010000${gtinCheckDigit("08500010000")}`;

const square = (values: Record<string, string>, row = 2) =>
  parseSalesRow(squareRow(values), SQUARE_HEADERS, SQUARE, row, NY);
const zenoti = (values: Record<string, string>, row = 6) =>
  parseSalesRow(zenotiRow(values), ZENOTI_HEADERS, ZENOTI, row, "America/Chicago");

const SALE = {
  Date: "2026-03-05",
  Time: "14:30:05",
  Item: "Botox 20u",
  Qty: "1",
  "Net Sales": "$300.00",
  "Transaction ID": "TX1",
  Location: "Downtown",
  Employee: "Ana",
};

describe("parseSalesRow (Square)", () => {
  it("reads a sale: when (in the file's zone), what, how many, for how much, where, who; nothing of the customer", () => {
    const row = square({ ...SALE, SKU: "BTX-20", GTIN: UPC });
    expect(row).toEqual({
      kind: "sale",
      rowNumber: 2,
      soldAt: new Date("2026-03-05T19:30:05.000Z"),
      item: { name: "Botox 20u", sku: "BTX-20", gtin: UPC },
      itemKey: `gtin:00${UPC}`,
      quantity: 1,
      netCents: 30000,
      transactionRef: "TX1",
      provider: "Ana",
      locationValue: "Downtown",
      keyMaterial: `tx|TX1|gtin:00${UPC}|1|30000|sale`,
    });
    expect(JSON.stringify(row)).not.toMatch(/Jane|4242|Visa|private/);
  });

  it("reads refunds: a negative Qty, or Event Type Refund with a positive one", () => {
    expect(square({ ...SALE, Qty: "-1", "Net Sales": "-$300.00" })).toMatchObject({ quantity: -1, netCents: -30000 });
    expect(square({ ...SALE, Qty: "2", "Net Sales": "$600.00", "Event Type": "Refund" })).toMatchObject({
      quantity: -2,
      netCents: -60000,
      keyMaterial: "tx|TX1|name:botox 20u|-2|-60000|refund",
    });
  });

  it("skips gift cards and custom amounts, and reads physical items, services and unknowns", () => {
    expect(square({ ...SALE, "Itemization Type": "Gift Card", Date: "bad" })).toEqual({
      kind: "skip",
      rowNumber: 2,
      reason: "gift_card",
    });
    expect(square({ ...SALE, "Itemization Type": "Custom Amount" })).toEqual({
      kind: "skip",
      rowNumber: 2,
      reason: "custom_amount",
    });
    for (const type of ["Physical Item", "Service", "Unknown", ""])
      expect(square({ ...SALE, "Itemization Type": type }).kind).toBe("sale");
  });

  it("keys a line without a transaction id by its content", () => {
    expect(square({ ...SALE, "Transaction ID": "" })).toMatchObject({
      transactionRef: null,
      keyMaterial: "row|2026-03-05T19:30:05.000Z|name:botox 20u|1|30000|Downtown|Ana",
    });
  });

  it("names the column and value of what is wrong", () => {
    const cases: [Record<string, string>, string, string | null, string][] = [
      [{ Date: "2/30/2026" }, "Date", "2/30/2026", "not a date on the calendar"],
      [{ Time: "25:61" }, "Time", "25:61", "not a time"],
      [{ "Time Zone": "Moon" }, "Time Zone", "Moon", '"Moon" is not a time zone'],
      [{ Qty: "1.5" }, "Qty", "1.5", "sold in whole units"],
      [{ Qty: "0" }, "Qty", "0", "quantity is 0"],
      [{ Qty: "" }, "Qty", null, "quantity is empty"],
      [{ "Net Sales": "1.234" }, "Net Sales", "1.234", "3 decimals"],
      [{ "Net Sales": "abc" }, "Net Sales", "abc", "not an amount"],
      [{ GTIN: "8.50001E+11" }, "GTIN", "8.50001E+11", "scientific notation"],
      [{ GTIN: UPC.slice(1) }, "GTIN", UPC.slice(1), "leading zero may have been lost"],
      [{ Item: "" }, "Item", null, "item is empty"],
      [{ Item: "None" }, "Item", null, "item is empty"],
    ];
    for (const [values, column, value, says] of cases) {
      const row = square({ ...SALE, ...values }, 7);
      expect(row, JSON.stringify(values)).toMatchObject({ kind: "error", rowNumber: 7, column, value });
      if (row.kind === "error") expect(row.message).toContain(says);
    }
    const long = square({ ...SALE, "Net Sales": "x".repeat(500) });
    expect(long.kind === "error" && long.value?.length).toBe(200);
  });

  it("reads a custom mapping by header name, whatever the column order", () => {
    const headers = ["Amount", "What", "When", "How many"];
    const mapping = { netSales: "Amount", item: "What", date: "When", quantity: "How many" };
    expect(parseSalesRow(["12.5", "Lip filler", "3/5/2026", "2"], headers, mapping, 2, NY)).toMatchObject({
      kind: "sale",
      soldAt: new Date("2026-03-05T05:00:00.000Z"),
      quantity: 2,
      netCents: 1250,
      itemKey: "name:lip filler",
      locationValue: null,
      provider: null,
    });
  });
});

describe("parseSalesRow (Zenoti)", () => {
  const SERVICE = {
    "Item Type": "Service",
    "Item Name": "Botox",
    "Item Code": "SV1",
    "Sales (Exc. Tax)": "300.00",
    "Invoice Closed Date": "03/05/2026 02:30 PM",
    "Invoice No": "INV-1",
    Center: "Downtown",
    Employee: "Ana",
    Qty: "1",
  };

  it("reads services and products in the location's zone, center as location", () => {
    expect(zenoti(SERVICE)).toMatchObject({
      kind: "sale",
      soldAt: new Date("2026-03-05T20:30:00.000Z"),
      itemKey: "sku:SV1",
      quantity: 1,
      netCents: 30000,
      locationValue: "Downtown",
      transactionRef: "INV-1",
    });
    expect(zenoti({ ...SERVICE, "Item Type": "Product" }).kind).toBe("sale");
  });

  it("skips packages, memberships, gift and prepaid cards, and invoices not closed", () => {
    expect(zenoti({ ...SERVICE, "Item Type": "Package" })).toMatchObject({ kind: "skip", reason: "package" });
    expect(zenoti({ ...SERVICE, "Item Type": "Membership" })).toMatchObject({ kind: "skip", reason: "membership" });
    for (const type of ["Gift Card", "GiftCard", "Prepaid Card"]) {
      expect(zenoti({ ...SERVICE, "Item Type": type })).toMatchObject({ kind: "skip", reason: "gift_card" });
    }
    expect(zenoti({ ...SERVICE, Status: "Open" })).toMatchObject({ kind: "skip", reason: "not_closed" });
    expect(zenoti({ ...SERVICE, Status: "" })).toMatchObject({ kind: "skip", reason: "not_closed" });
  });

  it("negates a refund, and takes one unit when the report has no Qty column", () => {
    expect(zenoti({ ...SERVICE, "Sale Type": "Refund" })).toMatchObject({ quantity: -1, netCents: -30000 });
    const headers = ZENOTI_HEADERS.filter((h) => h !== "Qty");
    const cells = zenotiRow(SERVICE).slice(0, -1);
    expect(parseSalesRow(cells, headers, presetMapping("zenoti", headers), 6, NY)).toMatchObject({
      kind: "sale",
      quantity: 1,
    });
  });
});

describe("itemKeyOf", () => {
  it("prefers the GTIN (as GTIN-14), then the SKU, then the name folded", () => {
    expect(itemKeyOf({ name: "X", sku: "S", gtin: UPC })).toBe(`gtin:00${UPC}`);
    expect(itemKeyOf({ name: "X", sku: "S", gtin: `0${UPC}` })).toBe(`gtin:00${UPC}`);
    expect(itemKeyOf({ name: "X", sku: " S-1 ", gtin: null })).toBe("sku:S-1");
    expect(itemKeyOf({ name: "  Botox   20U ", sku: null, gtin: null })).toBe("name:botox 20u");
  });
});

describe("parseSalesRow never throws", () => {
  it("whatever the cells, headers and mapping", () => {
    const header = fc.constantFrom(...SQUARE_HEADERS, ...ZENOTI_HEADERS, "", "x");
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string(), fc.constantFrom("None", "-1", "1.5", "$-3", "2026-02-30", "Refund", "Gift Card")),
          { maxLength: 40 },
        ),
        fc.array(header, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1_000_000 }),
        (cells, headers, squareMapping, rowNumber) => {
          const row: ParsedSalesRow = parseSalesRow(cells, headers, squareMapping ? SQUARE : ZENOTI, rowNumber, NY);
          expect(["sale", "skip", "error"]).toContain(row.kind);
          expect(row.rowNumber).toBe(rowNumber);
          if (row.kind === "sale") {
            expect(Number.isSafeInteger(row.quantity) && row.quantity !== 0).toBe(true);
            expect(Number.isSafeInteger(row.netCents)).toBe(true);
            expect(Math.sign(row.netCents) * Math.sign(row.quantity)).not.toBe(-1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("even with cells that are not strings", () => {
    const cells = [null, undefined, 5, {}] as unknown as string[];
    expect(parseSalesRow(cells, SQUARE_HEADERS, SQUARE, 3, NY).kind).toBe("error");
    expect(
      parseSalesRow(squareRow({ ...SALE, "Time Zone": "" }), SQUARE_HEADERS, SQUARE, 3, "Not/AZone"),
    ).toMatchObject({ kind: "error" });
  });
});
