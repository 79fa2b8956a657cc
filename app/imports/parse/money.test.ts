import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MONEY_CENTS, parseMoney } from "./money";

function styles(cents: number): string[] {
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  const grouped = dollars.toLocaleString("en-US");
  const plain = `${dollars}.${rest}`;
  const shown = `${grouped}.${rest}`;
  if (cents < 0) return [`-$${shown}`, `$-${shown}`, `($${shown})`, `-${plain}`, ` - $ ${shown} `, `(${plain})`];
  const short = rest === "00" ? String(dollars) : rest.endsWith("0") ? `${dollars}.${rest[0]}` : plain;
  return [`$${shown}`, plain, shown, short, ` $ ${shown} `, `+${plain}`];
}

describe("parseMoney", () => {
  it("reads the ways exports write money", () => {
    expect(parseMoney("$1,234.50")).toEqual({ ok: true, cents: 123450 });
    expect(parseMoney("-$3.00")).toEqual({ ok: true, cents: -300 });
    expect(parseMoney("$-3.00")).toEqual({ ok: true, cents: -300 });
    expect(parseMoney("($33.62)")).toEqual({ ok: true, cents: -3362 });
    expect(parseMoney("12")).toEqual({ ok: true, cents: 1200 });
    expect(parseMoney("12.5")).toEqual({ ok: true, cents: 1250 });
    expect(parseMoney("  $ 12.05 ")).toEqual({ ok: true, cents: 1205 });
    expect(parseMoney(".5")).toEqual({ ok: true, cents: 50 });
    expect(parseMoney("-$0.00")).toEqual({ ok: true, cents: 0 });
  });

  it("refuses what is not money, saying what is wrong", () => {
    for (const [text, says] of [
      ["abc", "not an amount of money"],
      ["1.234", "3 decimals"],
      ["", "empty"],
      ["   ", "empty"],
      ["--3", "more than one sign"],
      ["(-3.00)", "more than one sign"],
      ["$$3", "more than one sign"],
      ["1,23.00", "not an amount of money"],
      ["12,5", "not an amount of money"],
      ["3.00-", "not an amount of money"],
      ["$", "not an amount of money"],
      ["99999999999", "too large"],
    ] as const) {
      const read = parseMoney(text);
      expect(read.ok, text).toBe(false);
      if (!read.ok) expect(read.message).toContain(says);
    }
  });

  it("reads back every amount written in each accepted style", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MONEY_CENTS, max: MAX_MONEY_CENTS }), (cents) => {
        for (const text of styles(cents))
          expect(parseMoney(text), text).toEqual({ ok: true, cents: cents === 0 ? 0 : cents });
      }),
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const read = parseMoney(text);
        if (read.ok) expect(Number.isSafeInteger(read.cents)).toBe(true);
      }),
    );
  });
});
