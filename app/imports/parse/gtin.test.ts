import { describe, expect, it } from "vitest";
import { gtinCheckDigit } from "~/catalog/gtin";
import { readGtin } from "./gtin";

const withCheck = (body: string) => `${body}${gtinCheckDigit(body)}`;
const UPC = withCheck("08500010000"); // 12 digits, starts with a zero
const EAN = withCheck("400638133393");
const EAN8 = withCheck("9638507");
const GTIN14 = withCheck("1061414100000");

describe("readGtin", () => {
  it("keeps valid GTINs of 8, 12, 13 and 14 digits as read, and empty as none", () => {
    for (const gtin of [UPC, EAN, EAN8, GTIN14]) expect(readGtin(` ${gtin} `)).toEqual({ ok: true, gtin });
    expect(readGtin("")).toEqual({ ok: true, gtin: null });
    expect(readGtin("None")).toEqual({ ok: true, gtin: null });
  });

  it("flags Excel's scientific notation, never reading digits out of it", () => {
    for (const text of ["8.50001E+11", "8.5E+11", "8.50001e11", "1E+13"]) {
      const read = readGtin(text);
      expect(read).toEqual({ ok: false, message: expect.stringContaining("scientific notation") });
      if (!read.ok) expect(read.message).toContain("export the file again with the column as text");
    }
  });

  it("flags a barcode that lost its leading zero, and never fixes it", () => {
    const lost = UPC.slice(1); // 11 digits
    const read = readGtin(lost);
    expect(read).toEqual({ ok: false, message: expect.stringMatching(/^A leading zero may have been lost \(Excel\)/) });
    if (!read.ok) expect(read.message).toContain(UPC);
    const lost8 = withCheck("0123456").slice(1); // 7 digits of an EAN-8 that began with 0
    expect(readGtin(lost8)).toEqual({ ok: false, message: expect.stringContaining("leading zero may have been lost") });
    const twoLost = withCheck("00123456789").slice(2); // 10 digits of a UPC-A that began 00
    expect(readGtin(twoLost)).toEqual({ ok: false, message: expect.stringContaining("2 leading zeros") });
  });

  it("refuses a wrong check digit, a wrong length and non-digits", () => {
    const wrong = `${EAN.slice(0, -1)}${(Number(EAN.slice(-1)) + 1) % 10}`;
    expect(readGtin(wrong)).toEqual({ ok: false, message: expect.stringContaining("check digit is wrong") });
    const wrong11 = `${UPC.slice(1, -1)}${(Number(UPC.slice(-1)) + 1) % 10}`;
    expect(readGtin(wrong11)).toEqual({ ok: false, message: expect.stringContaining("this one has 11") });
    expect(readGtin("123")).toEqual({ ok: false, message: expect.stringContaining("this one has 3") });
    expect(readGtin("85000-1000")).toEqual({ ok: false, message: expect.stringContaining("digits only") });
    expect(readGtin("123456789012345")).toEqual({ ok: false, message: expect.stringContaining("this one has 15") });
  });
});
