import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatDuration,
  MAX_PRICE_CENTS,
  parseCents,
  parseQuantity,
  quantityStep,
  type TypedQuantity,
} from "./amounts";
import { centsInput, formatMoney, formatScaled, UNIT_SCALES } from "./format";

/** What the recipe verbs compute in SQL: base units, or null when finer than the scale. */
function toBaseUnits(quantity: TypedQuantity, scale: number): number | null {
  const scaled = quantity.mantissa * scale;
  return scaled % quantity.divisor === 0 ? scaled / quantity.divisor : null;
}

describe("parseCents", () => {
  it("reads back every price exactly as it is shown, with or without $ and commas", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_PRICE_CENTS }), (cents) => {
        expect(parseCents(centsInput(cents))).toEqual({ ok: true, cents });
        expect(parseCents(formatMoney(cents))).toEqual({ ok: true, cents });
      }),
    );
  });

  it("takes blank as no price and refuses the rest with a message", () => {
    expect(parseCents("  ")).toEqual({ ok: true, cents: null });
    expect(parseCents("0.29")).toEqual({ ok: true, cents: 29 });
    expect(parseCents("12.3")).toEqual({ ok: true, cents: 1230 });
    for (const text of ["12.345", "1,2", "abc", "-1", "1e3"]) expect(parseCents(text).ok).toBe(false);
    expect(parseCents("100000")).toEqual({ ok: false, message: "The price is too large (at most $99,999.99)." });
  });
});

describe("parseQuantity", () => {
  it("turns what a product's quantity shows back into the same base units, at every scale", () => {
    fc.assert(
      fc.property(fc.constantFrom(...UNIT_SCALES), fc.integer({ min: 1, max: 100_000 }), (scale, units) => {
        const parsed = parseQuantity(`${formatScaled(units, scale, { trim: true })} mL`);
        if (!parsed.ok) throw new Error(parsed.message);
        expect(parsed.quantity.unit).toBe("mL");
        expect(toBaseUnits(parsed.quantity, scale)).toBe(units);
      }),
    );
  });

  it("refuses finer quantities than the scale, and says what is wrong with the text", () => {
    const half = parseQuantity("0.5");
    if (!half.ok) throw new Error(half.message);
    expect(toBaseUnits(half.quantity, 100)).toBe(50);
    expect(toBaseUnits(half.quantity, 1)).toBeNull();
    expect(parseQuantity("0")).toEqual({ ok: false, message: "Enter a quantity above zero." });
    expect(parseQuantity("1.2345")).toEqual({ ok: false, message: "Use at most 3 decimal places." });
    expect(parseQuantity("mL")).toEqual({ ok: false, message: "Enter a quantity, like 20 or 0.5." });
    expect(parseQuantity("100001")).toEqual({ ok: false, message: "The quantity is too large (at most 100,000)." });
    expect(quantityStep(1, "U")).toBe("whole U");
    expect(quantityStep(100, "mL")).toBe("steps of 0.01 mL");
    expect(formatDuration(90)).toBe("1 h 30 min");
  });
});
