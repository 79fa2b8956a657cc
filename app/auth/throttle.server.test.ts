import { describe, expect, it } from "vitest";
import { admission, admit, lockedMessage, THROTTLE, throttleKeys, witnessKeys } from "./throttle.server";

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

describe("an attempt that finds every place held by attempts still being checked", () => {
  const keys = throttleKeys("someone@demo.clinic", "203.0.113.9");
  const now = new Date("2026-11-25T12:00:00Z");

  it("is told to wait (no lock), not refused, while the failures are under the limit", () => {
    const rows = [{ key: keys.pair, failures: 2, windowStartedAt: now, lockedUntil: null }];
    expect(admission(keys, [], rows, now)).toEqual({ admitted: false, lockedForMs: 0 });
  });

  it("looks again until it is admitted", async () => {
    const answers = [0, 0, 1];
    const pauses: number[] = [];
    const answer = await admit(
      async () => ({
        attempt: answers.shift()
          ? { admitted: true as const, slowdownMs: 0 }
          : { admitted: false as const, lockedForMs: 0 },
      }),
      { pause: async (ms) => pauses.push(ms) },
    );
    expect(answer.attempt.admitted).toBe(true);
    expect(pauses).toEqual([THROTTLE.queueStepMs, THROTTLE.queueStepMs]);
  });
});

describe("a witness's keys", () => {
  it("are the actor and witness pair alone: nothing the witness's own sign-in counts on", () => {
    const witness = witnessKeys(" Someone@Demo.Clinic ", "actor-1");
    const signIn = throttleKeys("someone@demo.clinic", "203.0.113.9");
    expect(witness).toMatchObject({ pair: "witness:someone@demo.clinic|actor-1", account: null, client: null });
    expect([signIn.pair, signIn.account, signIn.client]).not.toContain(witness.pair);
  });
});
