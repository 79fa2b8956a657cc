import { describe, expect, it } from "vitest";
import { GS, GS1_TEXT_MESSAGES, gs1Date, lotOrSerialProblem, parseGs1 } from "./gs1";

const TODAY = new Date(Date.UTC(2026, 10, 22));

describe("parseGs1: what a vial's barcode says", () => {
  it.each([
    [
      "raw DataMatrix with symbology identifier",
      `]d2010950600013435217250228 10ABC123${GS}21XYZ789`.replace(" ", ""),
      { gtin: "09506000134352", expirationDate: "2025-02-28", lot: "ABC123", serial: "XYZ789" },
    ],
    [
      "GS1-128 with a leading FNC1 and the lot before the expiry",
      `]C1${GS}010950600013435210LOT42${GS}17261231`,
      { gtin: "09506000134352", lot: "LOT42", expirationDate: "2026-12-31" },
    ],
    [
      "bracketed human-readable form, day 00 = last day of the month",
      "(01)09506000134352(17)260600(10)LOT1(21)S1",
      { gtin: "09506000134352", expirationDate: "2026-06-30", lot: "LOT1", serial: "S1" },
    ],
    [
      "day 00 in a leap February",
      "(01)09506000134352(17)280200",
      { gtin: "09506000134352", expirationDate: "2028-02-29" },
    ],
    [
      "serial last, no trailing separator, surrounding whitespace",
      `  0100312345678906172701152110000001  `,
      { gtin: "00312345678906", expirationDate: "2027-01-15", serial: "10000001" },
    ],
    [
      "a four-digit AI (net weight) between known ones",
      `01095060001343523103000150${"10"}B7${GS}17270131`,
      { gtin: "09506000134352", lot: "B7", expirationDate: "2027-01-31" },
    ],
  ])("%s", (_name, input, expected) => {
    const result = parseGs1(input, TODAY);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.reading).toMatchObject(expected);
  });

  it("keeps every element string it read", () => {
    const result = parseGs1(`]d201095060001343521725022810ABC${GS}2112`, TODAY);
    expect(result.ok && result.reading.fields).toEqual({
      "01": "09506000134352",
      "17": "250228",
      "10": "ABC",
      "21": "12",
    });
  });

  it.each([
    ["", /empty/],
    ["hello world", /no application identifier/],
    ["(01)123(17)260101", /AI 01 should have 14 characters, not 3/],
    ["(01)09506000134352(17)261301", /not a valid YYMMDD date/],
    ["(01)09506000134352(17)260231", /not a valid YYMMDD date/],
    ["(01)09506000134352 junk", /AI 01 should have 14 characters, not 19/],
    ["((01)09506000134352", /expected \(AI\)value pairs/],
    ["0109506000134352(17)", /no application identifier/],
    ["(01)09506000134353(17)261231", /09506000134353 has a wrong check digit: with these digits it should end in 2\./],
  ])("refuses %j with a message that says what is wrong", (input, message) => {
    const result = parseGs1(input, TODAY);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it("refuses a GTIN whose check digit is wrong, in every form, and says which GTIN the digits call for", () => {
    for (const scan of [`]d2010950600013435017270101${GS}21S1`, "(01)09506000134350(10)L1", "0100312345678907"]) {
      const result = parseGs1(scan, TODAY);
      expect(result.ok, scan).toBe(false);
      if (!result.ok) expect(result.correctedGtin).toMatch(/^(09506000134352|00312345678906)$/);
    }
  });
});

describe("lots and serials: GS1 character set 82, at most 20", () => {
  it("takes every character of set 82, up to 20", () => {
    const set82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
    for (let at = 0; at < set82.length; at += 20)
      expect(lotOrSerialProblem("lot", set82.slice(at, at + 20))).toBeNull();
    expect(lotOrSerialProblem("serial", "S".repeat(20))).toBeNull();
  });

  it.each([
    ["an emoji", "LOT💉1"],
    ["a space", "C8123 C3"],
    ["an accent", "LOTÉ1"],
    ["a NUL", "L\u00001"],
    ["a zero-width space", "L\u200b1"],
    ...[..."#$@[\\]^`{|}~"].map((c) => [`printable ASCII outside set 82 (${c})`, `L${c}1`]),
  ])("refuses %s in a lot and a serial", (_kind, value) => {
    expect(lotOrSerialProblem("lot", value)).toBe(GS1_TEXT_MESSAGES.lotCharacters);
    expect(lotOrSerialProblem("serial", value)).toBe(GS1_TEXT_MESSAGES.serialCharacters);
  });

  it("refuses 21 characters with the limit", () => {
    expect(lotOrSerialProblem("lot", "L".repeat(21))).toBe(GS1_TEXT_MESSAGES.lotTooLong);
    expect(lotOrSerialProblem("serial", "S".repeat(21))).toBe(GS1_TEXT_MESSAGES.serialTooLong);
  });

  it.each([
    ["a lot of 21", `0109506000134352${"10"}${"L".repeat(21)}`, GS1_TEXT_MESSAGES.lotTooLong],
    ["a serial with a space (bracketed)", "(01)09506000134352(21)S 1", GS1_TEXT_MESSAGES.serialCharacters],
    ["an emoji lot", "(01)09506000134352(10)L💉", GS1_TEXT_MESSAGES.lotCharacters],
    ["a NUL in the lot", `0109506000134352${"10"}AB\u0000C${GS}21S1`, "invisible or control character (U+0000)"],
  ])("a scan with %s is refused with a message", (_name, scan, message) => {
    const result = parseGs1(scan, TODAY);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe("gs1Date: the GS1 century window", () => {
  it.each([
    ["991231", "1999-12-31"],
    ["760101", "2076-01-01"],
    ["770101", "1977-01-01"],
    ["260100", "2026-01-31"],
    ["000101", "2000-01-01"],
  ])("%s → %s (today 2026-11-22)", (yymmdd, iso) => {
    expect(gs1Date(yymmdd, TODAY)).toBe(iso);
  });

  it("refuses impossible dates", () => {
    for (const bad of ["261301", "260230", "26010", "2601011", "aa0101"]) expect(gs1Date(bad, TODAY)).toBeNull();
  });
});
