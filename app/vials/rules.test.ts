import { describe, expect, it } from "vitest";
import { VIAL_REFUSALS } from "./outcome";
import { closedReason, openActions, type VialFacts } from "./rules";

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

describe("closedReason: said where start and draw would have been", () => {
  const zone = "America/New_York";

  it("says an expired sealed vial cannot be started, and presets the discard as expired", () => {
    expect(closedReason(vial({ expirationDate: "2026-11-21" }), NOW, zone)).toEqual({
      refusal: "manufacturer_expired",
      message: "Expired on Nov 21, 2026: it cannot be started. Discard it as expired.",
      discardAs: "expired",
    });
    expect(closedReason(vial({ expirationDate: null }), NOW, zone)?.message).toMatch(/^No Manufacturer Expiration/);
  });

  it("says an open vial is past its Use-By Deadline, naming it", () => {
    const late = vial({ state: "in_use", expiresAt: new Date("2026-11-23T10:05:00Z") });
    expect(closedReason(late, NOW, zone)).toEqual({
      refusal: "use_by_passed",
      message:
        "Past its Use-By Deadline (Nov 23, 5:05 EST): it can no longer be drawn from. Empty it, or discard it as expired.",
      discardAs: "expired",
    });
  });

  it("names a recall, and says nothing while start or draw is offered, or once the vial is finished", () => {
    expect(closedReason(vial({ recalled: true }), NOW, zone)).toEqual({
      refusal: "recalled",
      message: VIAL_REFUSALS.recalled,
      discardAs: "recalled",
    });
    expect(closedReason(vial(), NOW, zone)).toBeNull();
    expect(closedReason(vial({ state: "in_use", expiresAt: new Date(NOW.getTime() + HOUR) }), NOW, zone)).toBeNull();
    expect(closedReason(vial({ state: "discarded", unitsRemaining: 0 }), NOW, zone)).toBeNull();
  });
});
