import { describe, expect, it } from "vitest";
import { admission, lockedMessage, THROTTLE, throttleKeys } from "./throttle.server";

describe("how long a refused attempt is told to wait", () => {
  const keys = throttleKeys("someone@demo.clinic", "203.0.113.9");
  const now = new Date("2026-11-22T12:00:00Z");
  const refused = (rows: { key: string; failures: number; windowStartedAt: Date; lockedUntil: Date | null }[]) => {
    const answer = admission(keys, [], rows, now);
    if (answer.admitted) throw new Error("admitted");
    return lockedMessage(answer.lockedForMs);
  };

  it("never says more than the lock's 15 minutes, even when a parallel attempt set the lock a moment after this one's clock", () => {
    // The attempt that locked the pair read its clock 40 ms after this one did.
    const lockedUntil = new Date(now.getTime() + THROTTLE.lockMs + 40);
    expect(refused([{ key: keys.pair, failures: THROTTLE.pairLimit, windowStartedAt: now, lockedUntil }])).toMatch(
      /^Too many failed sign-in attempts\. Wait 15 minutes and try again/,
    );
  });

  it("says the minutes left of the longest lock, rounded up", () => {
    const lockedUntil = new Date(now.getTime() + 90_000);
    const windowStartedAt = new Date(now.getTime() - THROTTLE.windowMs + 30_000);
    expect(
      refused([{ key: keys.account ?? "", failures: THROTTLE.accountLimit, windowStartedAt, lockedUntil }]),
    ).toMatch(/Wait 2 minutes/);
  });
});
