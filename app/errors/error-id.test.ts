import { describe, expect, it } from "vitest";
import { ERROR_ID_PATTERN, newErrorId } from "./error-id";

describe("newErrorId", () => {
  it("is err_{timestamp}_{random base 36}", () => {
    expect(newErrorId(1_764_000_000_000, () => 0.5)).toBe("err_1764000000000_i0000000");
  });

  it("keeps a fixed-width suffix at the random extremes", () => {
    expect(newErrorId(1, () => 0)).toBe("err_1_00000000");
    expect(newErrorId(1, () => 0.999_999_999_9)).toMatch(ERROR_ID_PATTERN);
  });

  it("uses the clock and a fresh random part by default", () => {
    const before = Date.now();
    const [, timestamp] = newErrorId().split("_");
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(newErrorId()).toMatch(ERROR_ID_PATTERN);
    expect(newErrorId()).not.toBe(newErrorId());
  });
});
