import { describe, expect, it } from "vitest";
import { openActions, type VialFacts } from "./rules";

const NOW = new Date("2026-11-23T12:00:00Z");
const HOUR = 60 * 60 * 1000;

const vial = (facts: Partial<VialFacts> = {}): VialFacts => ({
  state: "sealed",
  expirationDate: "2027-06-30",
  expiresAt: null,
  unitsRemaining: 100,
  unitScale: 1,
  baseUnit: "U",
  beyondUseHours: 24,
  recalled: false,
  controlled: false,
  ...facts,
});

describe("openActions: what the vial page and the scan card offer", () => {
  it("offers a sealed vial's start, draw and discard, an open one's draw, empty and discard", () => {
    expect(openActions(vial(), NOW)).toEqual({ start: true, draw: true, empty: false, discard: true, witness: false });
    const open = vial({ state: "in_use", expiresAt: new Date(NOW.getTime() + HOUR) });
    expect(openActions(open, NOW)).toEqual({ start: false, draw: true, empty: true, discard: true, witness: false });
  });

  it("offers no draw from an open vial with nothing left or past its Use-By Deadline", () => {
    const drained = vial({ state: "in_use", expiresAt: new Date(NOW.getTime() + HOUR), unitsRemaining: 0 });
    expect(openActions(drained, NOW).draw).toBe(false);
    const late = vial({ state: "in_use", expiresAt: new Date(NOW.getTime() - 1) });
    expect(openActions(late, NOW)).toMatchObject({ draw: false, empty: true, discard: true });
  });

  it("leaves only discard for a recalled vial, and asks a controlled one with units left for a witness", () => {
    const recalled = vial({ state: "in_use", expiresAt: new Date(NOW.getTime() + HOUR), recalled: true });
    expect(openActions(recalled, NOW)).toEqual({
      start: false,
      draw: false,
      empty: false,
      discard: true,
      witness: false,
    });
    expect(openActions({ ...recalled, controlled: true }, NOW).witness).toBe(true);
  });

  it("offers nothing on a finished vial", () => {
    const emptied = vial({ state: "empty", unitsRemaining: 0 });
    expect(openActions(emptied, NOW)).toEqual({
      start: false,
      draw: false,
      empty: false,
      discard: false,
      witness: false,
    });
  });
});
