import { describe, expect, it } from "vitest";
import { SQUARE_HEADERS, ZENOTI_HEADERS } from "../../../tests/support/sales-files";
import { parseCsv } from "./csv";
import { findHeaderRow, headerSignature, isTotalsRow, PRESETS, presetMapping, recognisePreset } from "./presets";

describe("recognisePreset", () => {
  it("knows Square's item sales export, new and old, by its core headers", () => {
    expect(recognisePreset(SQUARE_HEADERS)).toBe("square");
    expect(recognisePreset(["Date", "Time", "Item", "Qty", "Net Sales", "Transaction ID"])).toBe("square");
    expect(recognisePreset([" date ", "ITEM", "qty", "Net  Sales", "Event Type"])).toBe("square");
    expect(recognisePreset(["Date", "Item", "Qty", "Net Sales"])).toBeNull();
  });

  it("knows Zenoti's sales accrual report, with or without Item Code and Qty", () => {
    expect(recognisePreset(ZENOTI_HEADERS)).toBe("zenoti");
    expect(recognisePreset(["Item Type", "Item Name", "Sale Type", "Sales (Exc. Tax)", "Invoice Closed Date"])).toBe(
      "zenoti",
    );
    expect(recognisePreset(["Item Name", "Sales (Exc. Tax)"])).toBeNull();
  });

  it("never maps a customer's name, notes or card data", () => {
    for (const preset of Object.values(PRESETS)) {
      const mapped = Object.values(preset.mapping).map((h) => h?.toLowerCase());
      for (const secret of [
        "customer name",
        "customer id",
        "notes",
        "card brand",
        "pan suffix",
        "customer reference id",
      ]) {
        expect(mapped).not.toContain(secret);
      }
    }
  });

  it("maps only the columns a file has", () => {
    const old = ["Date", "Time", "Item", "Qty", "Net Sales", "Transaction ID"];
    expect(presetMapping("square", old)).toEqual({
      date: "Date",
      time: "Time",
      item: "Item",
      quantity: "Qty",
      netSales: "Net Sales",
      transactionId: "Transaction ID",
    });
    expect(
      presetMapping(
        "zenoti",
        ZENOTI_HEADERS.filter((h) => h !== "Qty"),
      ).quantity,
    ).toBeUndefined();
    expect(presetMapping("square", ["date", "item"])).toEqual({ date: "date", item: "item" });
  });
});

describe("headerSignature", () => {
  it("is the same export whatever its column order, case or padding", () => {
    expect(headerSignature(["Date", " Item", "Qty"])).toBe(headerSignature(["qty", "item ", "DATE"]));
    expect(headerSignature(["Date", "Item"])).toBe("date\u001fitem");
    expect(headerSignature(["Date", "Item"])).not.toBe(headerSignature(["Date", "Item", "Qty"]));
  });
});

describe("findHeaderRow and isTotalsRow", () => {
  it("finds Zenoti's header under its title rows, and knows its totals row", () => {
    const rows = parseCsv(
      [
        "Sales Accrual Report,,,,",
        "Center: Downtown,,,,",
        "From 03/01/2026 To 03/31/2026,,,,",
        "",
        ZENOTI_HEADERS.join(","),
        "Service,Botox,SV1,Sale,300.00,03/05/2026,Closed,INV-1,Downtown,Ana,1",
        "Total,,,,300.00,,,,,,1",
      ].join("\r\n"),
    );
    expect(findHeaderRow(rows)).toBe(3);
    expect(isTotalsRow(rows[5] as string[])).toBe(true);
    expect(isTotalsRow(rows[4] as string[])).toBe(false);
    expect(isTotalsRow(["", "Grand Total:", "9"])).toBe(true);
    expect(isTotalsRow(["Totally Toned", "1"])).toBe(false);
  });

  it("takes a custom file's first row naming columns, and says -1 when none does", () => {
    expect(
      findHeaderRow([["My export"], ["When", "What", "How many", "Amount"], ["2026-03-05", "Botox", "1", "3"]]),
    ).toBe(1);
    expect(
      findHeaderRow([
        ["1", "2"],
        ["3", "4"],
      ]),
    ).toBe(-1);
    expect(findHeaderRow([])).toBe(-1);
  });
});
