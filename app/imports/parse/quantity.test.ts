import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_QUANTITY, parseQuantity } from "./quantity";

describe("parseQuantity", () => {
  it("reads whole quantities, signed, padded or written with a zero decimal", () => {
    expect(parseQuantity("1")).toEqual({ ok: true, quantity: 1 });
    expect(parseQuantity("1.0")).toEqual({ ok: true, quantity: 1 });
    expect(parseQuantity("-2")).toEqual({ ok: true, quantity: -2 });
    expect(parseQuantity(" 3 ")).toEqual({ ok: true, quantity: 3 });
    expect(parseQuantity("1,000")).toEqual({ ok: true, quantity: 1000 });
    expect(parseQuantity("100000")).toEqual({ ok: true, quantity: 100000 });
  });

  it("refuses fractions, huge numbers and words with a message", () => {
    const cases: [string, string][] = [
      ["1.5", "sold in whole units"],
      ["100001", "more than 100,000"],
      ["-100001", "more than 100,000"],
      ["abc", "not a quantity"],
      ["", "empty"],
      ["1e3", "not a quantity"],
      ["-", "not a quantity"],
    ];
    for (const [text, says] of cases) {
      const read = parseQuantity(text);
      expect(read.ok, text).toBe(false);
      if (!read.ok) expect(read.message).toContain(says);
    }
  });

  it("reads back every whole quantity within the limit", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_QUANTITY, max: MAX_QUANTITY }), (n) => {
        expect(parseQuantity(` ${n} `)).toEqual({ ok: true, quantity: n === 0 ? 0 : n });
        expect(parseQuantity(`${n}.00`)).toEqual({ ok: true, quantity: n === 0 ? 0 : n });
      }),
    );
  });
});
