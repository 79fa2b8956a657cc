import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { completeRowsEnd, parseCsv, RowScanner } from "./csv";

const bytes = (text: string) => new TextEncoder().encode(text);

function scan(text: string, chunkSize = 3) {
  const scanner = new RowScanner();
  const all = bytes(text);
  for (let i = 0; i < all.length; i += chunkSize) scanner.feed(all.subarray(i, i + chunkSize));
  return scanner.finish();
}

describe("parseCsv", () => {
  it("reads quoted commas, doubled quotes, a BOM, CRLF, padded cells and None", () => {
    const text =
      '\uFEFFDate,Item, Net Sales \r\n2026-03-05,"Botox, 20u","$1,234.50"\r\n 3/5/2026 ,"Say ""hi""",None\r\n';
    expect(parseCsv(text)).toEqual([
      ["Date", "Item", "Net Sales"],
      ["2026-03-05", "Botox, 20u", "$1,234.50"],
      ["3/5/2026", 'Say "hi"', ""],
    ]);
  });

  it("keeps a newline inside quotes in its cell, and drops blank rows", () => {
    expect(parseCsv('a,b\n"line 1\nline 2",x\n\n , \nc,d')).toEqual([
      ["a", "b"],
      ["line 1\nline 2", "x"],
      ["c", "d"],
    ]);
  });
});

describe("RowScanner", () => {
  it("counts rows outside quotes, the longest and widest, and sees a BOM and binary bytes, in any chunking", () => {
    const text = '\uFEFFa,b,c\r\n"x\ny",2,3\r\n\r\n1,2,3,4\r\n';
    for (const size of [1, 2, 3, 5, 1000]) {
      expect(scan(text, size)).toEqual({ rows: 3, longestRowBytes: 10, widestRow: 4, binary: false, bom: true });
    }
    expect(scan("a,b\n1,2")).toMatchObject({ rows: 2, bom: false });
    expect(scan("a\u0000b\n")).toMatchObject({ binary: true });
    expect(scan("\u00ef,x\n")).toMatchObject({ rows: 1, bom: false });
    expect(scan("")).toMatchObject({ rows: 0, widestRow: 0 });
  });

  it("counts the rows parseCsv reads, for any table", () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "1", ",", '"', "\n", " ", "é", "x"), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 7 }),
        (rows, size) => {
          const text = Papa.unparse(rows, { newline: "\r\n" });
          expect(scan(text, size).rows).toBe(parseCsv(text).length);
        },
      ),
    );
  });
});

describe("completeRowsEnd", () => {
  it("ends after the last newline outside quotes, or at the end of the file", () => {
    const b = bytes('a,b\n"1\n2",3\n4,"5');
    expect(completeRowsEnd(b, false)).toBe(12);
    expect(completeRowsEnd(b, true)).toBe(b.length);
    expect(completeRowsEnd(bytes('"no end\n'), false)).toBe(0);
    expect(completeRowsEnd(bytes("a,b\r\n"), false)).toBe(5);
  });

  it("splits a file into chunks whose rows are the file's rows", () => {
    const cell = fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", "z"), maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 3 }), { maxLength: 10 }),
        fc.integer({ min: 4, max: 30 }),
        (rows, chunk) => {
          const all = bytes(Papa.unparse(rows, { newline: "\n" }));
          const read: string[][] = [];
          let offset = 0;
          while (offset < all.length) {
            const slice = all.subarray(offset, offset + chunk);
            const atEnd = offset + chunk >= all.length;
            let end = completeRowsEnd(slice, atEnd);
            // A row longer than the chunk: the worker reads a bigger window.
            let size = chunk;
            while (end === 0) {
              size *= 2;
              end = completeRowsEnd(all.subarray(offset, offset + size), offset + size >= all.length);
            }
            read.push(...parseCsv(new TextDecoder().decode(all.subarray(offset, offset + end))));
            offset += end;
          }
          expect(read).toEqual(parseCsv(new TextDecoder().decode(all)));
        },
      ),
    );
  });
});
