import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Utf8Check } from "./utf8";

const fatal = (bytes: Uint8Array) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

function check(bytes: Uint8Array, cuts: number[]): boolean {
  const utf8 = new Utf8Check();
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    utf8.feed(bytes.subarray(from, Math.max(from, Math.min(cut, bytes.length))));
    from = Math.max(from, Math.min(cut, bytes.length));
  }
  utf8.feed(bytes.subarray(from));
  return utf8.finish();
}

describe("Utf8Check", () => {
  it("agrees with a fatal TextDecoder on any bytes, however the stream cuts them", () => {
    const near = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 20 }).map((s) => new TextEncoder().encode(s)),
    );
    fc.assert(
      fc.property(fc.array(near, { maxLength: 4 }), fc.array(fc.nat(200), { maxLength: 5 }), (parts, cuts) => {
        const bytes = new Uint8Array(parts.flatMap((p) => [...p]));
        expect(check(bytes, cuts)).toBe(fatal(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses the classic malformations: overlong, surrogate, beyond U+10FFFF, cut at the end", () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0xff],
    ]) {
      expect(check(new Uint8Array(bad), [1])).toBe(false);
    }
    expect(check(new TextEncoder().encode("Crème brûlée · 注射 · 💉"), [3, 4, 5, 20, 21])).toBe(true);
  });
});
