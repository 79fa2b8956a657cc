import { describe, expect, it } from "vitest";
import { reorderPackages } from "./reorder";

describe("reorderPackages", () => {
  const level = (usable: number, par: number, max: number | null, unitsPerPackage = 100) => ({
    usable,
    unitsPerPackage,
    parLevel: { par, max },
  });

  it("orders whole packages up to the maximum", () => {
    expect(reorderPackages(level(400, 10, 12))).toBe(8);
  });

  it("orders up to par when no maximum is set", () => {
    expect(reorderPackages(level(100, 2, null))).toBe(1);
  });

  it("rounds a started package's shortfall up to a whole package", () => {
    expect(reorderPackages(level(150, 5, null))).toBe(4);
  });

  it("orders nothing when nothing is short, or without a par level", () => {
    expect(reorderPackages(level(1300, 10, 12))).toBe(0);
    expect(reorderPackages({ usable: 0, unitsPerPackage: 100, parLevel: null })).toBe(0);
  });

  it("counts negative usable stock (more expired than on hand cannot be) as none", () => {
    expect(reorderPackages(level(-50, 1, null))).toBe(1);
  });
});
