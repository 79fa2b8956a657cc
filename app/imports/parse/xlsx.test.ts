import { describe, expect, it } from "vitest";
import writeXlsxFile from "write-excel-file/universal";
import { parseCsv } from "./csv";
import { dateText, numberText, toCsv, xlsxRows } from "./xlsx";

/** An XLSX as a spreadsheet saves it: numbers as numbers, dates as formatted serials, text as text. */
async function workbook(): Promise<ArrayBuffer> {
  const blob = await writeXlsxFile([
    [
      { value: "Date" },
      { value: "Time" },
      { value: "Item" },
      { value: "Qty" },
      { value: "Net Sales" },
      { value: "GTIN" },
      { value: "SKU" },
    ],
    [
      { value: new Date(Date.UTC(2026, 2, 5)), type: Date, format: "mm/dd/yyyy" },
      { value: "14:30" },
      { value: "Botox, 20u" },
      { value: 2, type: Number },
      { value: 33.62, type: Number, format: "$#,##0.00" },
      { value: 850001000012, type: Number },
      { value: "007" },
    ],
    [
      { value: new Date(Date.UTC(2026, 2, 5, 14, 30)), type: Date, format: "yyyy-mm-dd hh:mm" },
      null,
      { value: 'Say "hi"' },
      { value: -1, type: Number },
      { value: 0.1 + 0.2, type: Number },
      { value: "0850001000012" },
      { value: true, type: Boolean },
    ],
  ]).toBlob();
  return blob.arrayBuffer();
}

describe("xlsxRows", () => {
  it("reads the first sheet's cells as the spreadsheet shows them", async () => {
    expect(await xlsxRows(await workbook())).toEqual([
      ["Date", "Time", "Item", "Qty", "Net Sales", "GTIN", "SKU"],
      ["2026-03-05", "14:30", "Botox, 20u", "2", "33.62", "850001000012", "007"],
      ["2026-03-05T14:30:00", "", 'Say "hi"', "-1", "0.3", "0850001000012", "TRUE"],
    ]);
  });

  it("refuses what is not an XLSX file", async () => {
    await expect(xlsxRows(new TextEncoder().encode("Date,Item\n").buffer as ArrayBuffer)).rejects.toThrow();
  });
});

describe("numberText and dateText", () => {
  it("writes numbers without scientific notation or float noise", () => {
    expect(numberText("8.50001000012E+11")).toBe("850001000012");
    expect(numberText("33.619999999999997")).toBe("33.62");
    expect(numberText("12")).toBe("12");
    expect(numberText("-3")).toBe("-3");
    expect(numberText("10614141000005")).toBe("10614141000005");
    expect(numberText("1e+20")).toBe("100000000000000000000");
  });

  it("writes a date, a date with its time, or a time alone", () => {
    expect(dateText(new Date(Date.UTC(2026, 2, 5)))).toBe("2026-03-05");
    expect(dateText(new Date(Date.UTC(2026, 2, 5, 9, 5, 7)))).toBe("2026-03-05T09:05:07");
    expect(dateText(new Date(Date.UTC(1899, 11, 30, 14, 30)))).toBe("14:30:00");
  });
});

describe("toCsv", () => {
  it("writes rows parseCsv reads back the same", () => {
    const rows = [
      ["a", "b, c", 'd "e"'],
      ["1", "", "line\nbreak"],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
    expect(toCsv([["a", "b"]])).toBe("a,b\r\n");
  });
});
