// The XLSX reader runs where uploads are received: inside workerd (read-excel-file's universal entry:
// fflate and saxen, no Node built-ins). A spreadsheet made by write-excel-file is read back here.
import { describe, expect, it } from "vitest";
import writeXlsxFile from "write-excel-file/universal";
import { parseCsv } from "../../app/imports/parse/csv";
import { toCsv, xlsxRows } from "../../app/imports/parse/xlsx";

describe("xlsxRows inside workerd", () => {
  it("reads numbers as shown (a barcode's digits, no e+), dates as ISO, text as text", async () => {
    const blob = await writeXlsxFile([
      [{ value: "Date" }, { value: "Item" }, { value: "Qty" }, { value: "Net Sales" }, { value: "GTIN" }],
      [
        { value: new Date(Date.UTC(2026, 2, 5)), type: Date, format: "mm/dd/yyyy" },
        { value: "Botox, 20u" },
        { value: 1, type: Number },
        { value: 300.5, type: Number, format: "$#,##0.00" },
        { value: 850001000012, type: Number },
      ],
      [
        { value: new Date(Date.UTC(2026, 2, 5, 14, 30)), type: Date, format: "yyyy-mm-dd hh:mm" },
        { value: "Lip filler" },
        { value: -2, type: Number },
        { value: -33.62, type: Number },
        { value: "0850001000012" },
      ],
    ]).toBlob();
    const rows = await xlsxRows(await blob.arrayBuffer());
    expect(rows).toEqual([
      ["Date", "Item", "Qty", "Net Sales", "GTIN"],
      ["2026-03-05", "Botox, 20u", "1", "300.5", "850001000012"],
      ["2026-03-05T14:30:00", "Lip filler", "-2", "-33.62", "0850001000012"],
    ]);
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });
});
