import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse/csv";
import { RECIPES_FILE_MESSAGES, RECIPES_LIMITS, readRecipeRows, recipeColumns, recipeHeaderRow } from "./recipes";

describe("recipeColumns", () => {
  it("finds each field by header name, in any order, case and spacing", () => {
    expect(recipeColumns(["Quantity per service", " sku ", "SERVICE CODE"])).toEqual({
      ok: true,
      columns: { service: [2], variation: [1], quantity: [0] },
    });
    // Code before name, SKU before GTIN: both kept, best first.
    expect(recipeColumns(["Service", "Service Code", "GTIN", "SKU", "Qty"])).toEqual({
      ok: true,
      columns: { service: [1, 0], variation: [3, 2], quantity: [4] },
    });
    expect(recipeColumns(["Service", "Product", "Units"])).toEqual({ ok: false, missing: ["variation", "quantity"] });
  });

  it("finds the header under title rows", () => {
    expect(recipeHeaderRow([["Recipes export"], [], ["Service", "SKU", "Quantity"]])).toBe(2);
    expect(recipeHeaderRow([["a", "b"]])).toBe(-1);
  });
});

describe("readRecipeRows", () => {
  it("reads each row's values and quantity as typed, numbering rows as a spreadsheet does", () => {
    const read = readRecipeRows(
      parseCsv(
        "Title\r\nService Code,Service,SKU,GTIN,Quantity\r\nTOX-GLAB,,BTX-1,,20\r\n,Lip flip,,00300239211001,0.5 mL\r\n",
      ),
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.problems).toEqual([]);
    expect(read.rows.map((r) => [r.rowNumber, r.service, r.variation, r.quantity.typed])).toEqual([
      [
        3,
        { column: "Service Code", value: "TOX-GLAB" },
        { column: "SKU", value: "BTX-1" },
        { mantissa: 20, divisor: 1, unit: null },
      ],
      [
        4,
        { column: "Service", value: "Lip flip" },
        { column: "GTIN", value: "00300239211001" },
        { mantissa: 5, divisor: 10, unit: "mL" },
      ],
    ]);
  });

  it("lists a row's own problems: empty cells, a quantity that is not one", () => {
    const read = readRecipeRows([
      ["Service", "SKU", "Quantity"],
      ["", "BTX-1", "1"],
      ["TOX", "None", "1"],
      ["TOX", "BTX-1", ""],
      ["TOX", "BTX-1", "-1"],
      ["TOX", "BTX-1", "0"],
      ["TOX", "BTX-1", "1.2345"],
    ]);
    expect(read.ok && read.problems.map((p) => [p.rowNumber, p.column, p.value])).toEqual([
      [2, "Service", null],
      [3, "SKU", null],
      [4, "Quantity", null],
      [5, "Quantity", "-1"],
      [6, "Quantity", "0"],
      [7, "Quantity", "1.2345"],
    ]);
  });

  it("refuses a file without its columns, without rows, or with too many", () => {
    expect(readRecipeRows([])).toEqual({ ok: false, message: RECIPES_FILE_MESSAGES.empty });
    expect(readRecipeRows([["Service", "SKU", "Quantity"]])).toEqual({
      ok: false,
      message: RECIPES_FILE_MESSAGES.empty,
    });
    expect(
      readRecipeRows([
        ["Service", "Amount"],
        ["a", "1"],
      ]),
    ).toEqual({
      ok: false,
      message: RECIPES_FILE_MESSAGES.noHeader(["variation"]),
    });
    const many = [
      ["Service", "SKU", "Quantity"],
      ...Array.from({ length: RECIPES_LIMITS.maxRows + 1 }, () => ["a", "b", "1"]),
    ];
    expect(readRecipeRows(many)).toEqual({ ok: false, message: RECIPES_FILE_MESSAGES.tooManyRows });
  });
});
