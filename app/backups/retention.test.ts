import { describe, expect, it } from "vitest";
import { keptByRule, RETENTION, retentionRule } from "./retention.server";

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe("the retention rule", () => {
  it("keeps the newest of each of the last 30 days with a snapshot and of each of the last 12 months", () => {
    // Two a day (03:00 nightly, 15:00 by hand) for 500 days back from 2026-11-27.
    const snapshots = Array.from({ length: 500 }, (_, d) => [
      { id: `n${d}`, requestedAt: at("2026-11-27T03:00:00Z") - d * DAY },
      { id: `u${d}`, requestedAt: at("2026-11-27T15:00:00Z") - d * DAY },
    ]).flat();
    const kept = keptByRule(snapshots);
    const daily = Array.from({ length: 30 }, (_, d) => `u${d}`);
    // The newest of each month: the last day of each of the 11 months before November, by hand.
    const monthly = [
      "2026-10-31",
      "2026-09-30",
      "2026-08-31",
      "2026-07-31",
      "2026-06-30",
      "2026-05-31",
      "2026-04-30",
      "2026-03-31",
      "2026-02-28",
      "2026-01-31",
      "2025-12-31",
    ].map((day) => `u${Math.round((at("2026-11-27T00:00:00Z") - at(`${day}T00:00:00Z`)) / DAY)}`);
    expect([...kept].sort()).toEqual([...new Set([...daily, ...monthly])].sort());
    // October 31 is among the last 30 days already: 30 days and 10 more months (November is in the days).
    expect(kept.size).toBe(40);
  });

  it("keeps everything while there are fewer snapshots than the rule allows, and says the rule in words", () => {
    const few = [
      { id: "a", requestedAt: at("2026-11-01T03:00:00Z") },
      { id: "b", requestedAt: at("2026-03-01T03:00:00Z") },
    ];
    expect(keptByRule(few)).toEqual(new Set(["a", "b"]));
    expect(RETENTION).toEqual({ daily: 30, monthly: 12 });
    expect(retentionRule).toMatch(/30 days.*12 months/);
  });
});
