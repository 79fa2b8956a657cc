import { describe, expect, it } from "vitest";
import { drawnText } from "./drawn";

const NOW = new Date("2026-11-25T19:05:00.000Z");
const vial = {
  unitsRemaining: 80,
  unitScale: 1 as const,
  baseUnit: "U",
  beyondUseHours: 24,
  location: { timeZone: "America/New_York" },
};
const usage = { unitsText: "20 U", patientRef: "10442" };

// A draw from a sealed vial starts its clock: the answer says so, with the deadline, before what was drawn.
describe("drawnText", () => {
  it("says a draw started the vial now, until when, then what was drawn and what is left", () => {
    const started = { startedAt: NOW, expiresAt: new Date(NOW.getTime() + 24 * 3600_000) };
    expect(drawnText({ vial, usage, started }, NOW)).toBe(
      "Started now; use by Nov 26, 14:05 EST (24 h). Drew 20 U for chart 10442; 80 U left.",
    );
  });

  it("names a start in the past, and no hours when the expiration day ends first", () => {
    const startedAt = new Date("2026-11-25T13:00:00.000Z");
    const started = { startedAt: startedAt.toISOString(), expiresAt: "2026-11-26T04:59:59.999Z" };
    expect(drawnText({ vial, usage: { unitsText: "5 U", patientRef: null }, started }, NOW)).toBe(
      "Started Nov 25, 8:00 EST; use by Nov 25, 23:59 EST. Drew 5 U; 80 U left.",
    );
  });

  it("says only the draw from an open vial", () => {
    expect(drawnText({ vial, usage, started: null }, NOW)).toBe("Drew 20 U for chart 10442; 80 U left.");
  });
});
