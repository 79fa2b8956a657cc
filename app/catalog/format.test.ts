import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatOnHand } from "~/stock/level-status";
import { formatBeyondUse, formatMoney, formatQuantity, formatScaled, parseScaled, UNIT_SCALES } from "./format";
import { gtinCandidates, gtinCheckDigit, gtinProblem } from "./gtin";

describe("scaled integers (money in cents, quantities at the product's scale)", () => {
  it("reads back exactly what it writes, for every scale, without floating point drift", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.constantFrom(...UNIT_SCALES), (n, scale) => {
        expect(parseScaled(formatScaled(n, scale), scale)).toBe(n);
        expect(parseScaled(formatScaled(n, scale, { trim: true }), scale)).toBe(n);
      }),
    );
  });

  it("refuses more decimals than the scale holds, signs, and anything that is not a number", () => {
    expect(parseScaled("12.345", 100)).toBeNull();
    expect(parseScaled("12.340", 100)).toBe(1234);
    expect(parseScaled("-1", 100)).toBeNull();
    expect(parseScaled("1,5", 100)).toBeNull();
    expect(parseScaled("abc", 1)).toBeNull();
    expect(parseScaled(".", 1)).toBeNull();
    expect(parseScaled(".5", 10)).toBe(5);
    expect(parseScaled("$2,500.75", 100)).toBe(250075);
  });

  it("formats money and beyond-use durations as people read them", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(123456789)).toBe("$1,234,567.89");
    expect(formatMoney(null)).toBe("—");
    expect(formatBeyondUse(24)).toBe("24 h");
    expect(formatBeyondUse(672)).toBe("28 days");
    expect(formatBeyondUse(48)).toBe("2 days");
  });
});

describe("GTIN check digits (GS1 mod 10)", () => {
  const body = (length: number) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }).map((d) => d.join(""));

  it("accepts a number with its check digit and catches any single wrong digit", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(8, 12, 13, 14).chain((n) => body(n)),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (digits, at, shift) => {
          const gtin = `${digits}${gtinCheckDigit(digits)}`;
          expect(gtinProblem(gtin)).toBeNull();
          const i = at % gtin.length;
          const typo = `${gtin.slice(0, i)}${(Number(gtin[i]) + shift) % 10}${gtin.slice(i + 1)}`;
          expect(gtinProblem(typo)).not.toBeNull();
        },
      ),
    );
  });

  it("looks a number up under every length it could be stored at", () => {
    expect(gtinCandidates("96385074")).toEqual(["96385074", "000096385074", "0000096385074", "00000096385074"]);
    expect(gtinCandidates("1234567")).toEqual([]);
  });
});

describe("one format per unit (issue 18.13)", () => {
  it("writes a quantity the same whatever the product's scale: no trailing zeros", () => {
    // 60 mL at scale 10, 4.5 mL and 0 mL at scale 100: once "60.0 mL", "4.50 mL", "0.00 mL" on one screen.
    expect(formatQuantity(600, 10, "mL")).toBe("60 mL");
    expect(formatQuantity(450, 100, "mL")).toBe("4.5 mL");
    expect(formatQuantity(0, 100, "mL")).toBe("0 mL");
    expect(formatQuantity(6000, 100, "mL")).toBe(formatQuantity(600, 10, "mL"));
    expect(formatQuantity(-25, 100, "mL")).toBe("-0.25 mL");
  });

  it("is the format of on-hand quantities too", () => {
    for (const [n, scale] of [
      [600, 10],
      [450, 100],
      [0, 100],
      [250, 100],
      [350, 1],
      [5, 1000],
    ] as const) {
      expect(formatOnHand(n, scale, "mL")).toBe(formatQuantity(n, scale, "mL"));
    }
    expect(formatOnHand(250, 100, "mL")).toBe("2.5 mL");
  });
});
