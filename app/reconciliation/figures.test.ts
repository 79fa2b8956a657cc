// The reconciliation's arithmetic, property-style: whatever the sums, recipe drift + waste +
// unexplained loss is the variance exactly, the variance is actual − expected, and the flag
// follows the threshold.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { figuresOf, NO_SUMS, type ReconciliationSums } from "./figures";
import { addDays, daysIn, periodOf } from "./query";

const units = fc.integer({ min: -1_000_000, max: 1_000_000 });
const out = fc.integer({ min: 0, max: 1_000_000 });
const sums: fc.Arbitrary<ReconciliationSums> = fc.record({
  expectedServices: units,
  expectedRetail: units,
  drawn: out,
  wasted: out,
  missing: out,
  adjustedOut: out,
  countedOut: out,
  sold: units,
  change: units,
});
const value = fc.record({
  costCents: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
  unitsPerPackage: fc.integer({ min: 1, max: 1_000_000 }),
});

describe("figuresOf", () => {
  it("splits the variance exactly, whatever the sums", () => {
    fc.assert(
      fc.property(sums, value, fc.integer({ min: 0, max: 1000 }), fc.boolean(), (s, v, threshold, tracked) => {
        const f = figuresOf(s, v, threshold, tracked);
        expect(f.split.recipeDrift + f.split.waste + f.split.unexplained).toBe(f.variance.units);
        expect(f.actual - f.expected).toBe(f.variance.units);
        expect(f.change).toBe(s.change);
      }),
    );
  });

  it("flags a variance over the threshold's share of what was expected, and only then", () => {
    fc.assert(
      fc.property(sums, value, fc.integer({ min: 0, max: 1000 }), (s, v, threshold) => {
        const f = figuresOf(s, v, threshold, true);
        if (f.expected === 0) expect(f.flagged).toBe(f.variance.units !== 0);
        else expect(f.flagged).toBe(Math.abs(f.variance.units / f.expected) * 100 > threshold);
      }),
    );
  });

  it("values the variance at the cost of a base unit, and reads nothing expected as no percent", () => {
    const s = { ...NO_SUMS, expectedServices: 40, drawn: 50 };
    expect(figuresOf(s, { costCents: 50_000, unitsPerPackage: 100 }, 10, true)).toMatchObject({
      variance: { units: 10, percent: 25, cents: 5_000 },
      flagged: true,
    });
    expect(figuresOf({ ...NO_SUMS, drawn: 5 }, { costCents: null, unitsPerPackage: 100 }, 10, false)).toMatchObject({
      variance: { units: 5, percent: null, cents: 0 },
      flagged: false,
    });
  });
});

describe("periodOf", () => {
  const now = new Date("2026-11-27T03:00:00Z");
  it("defaults to the last 30 days up to today in the zone", () => {
    expect(periodOf({ from: "", to: "" }, "UTC", now).period).toEqual({ from: "2026-10-29", to: "2026-11-27" });
    // 22:00 the day before in Los Angeles.
    expect(periodOf({ from: "", to: "" }, "America/Los_Angeles", now).period.to).toBe("2026-11-26");
    expect(daysIn(periodOf({ from: "", to: "" }, "UTC", now).period)).toBe(30);
  });
  it("refuses a period backwards or longer than a year", () => {
    expect(periodOf({ from: "2026-05-02", to: "2026-05-01" }, "UTC", now).problem).toMatch(/ends before/);
    expect(periodOf({ from: addDays("2026-11-27", -366), to: "2026-11-27" }, "UTC", now).problem).toMatch(/at most/);
    expect(periodOf({ from: addDays("2026-11-27", -365), to: "2026-11-27" }, "UTC", now).problem).toBeNull();
  });
});
