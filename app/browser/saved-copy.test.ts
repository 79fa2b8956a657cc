import { describe, expect, it } from "vitest";
import { ageOf, isCopyMessage, isWarmMessage, savedAtFromTiming, savedCopyText, serverTimingOf } from "./saved-copy";

describe("savedCopyText", () => {
  it("says when the copy was saved and how long ago, as the issue words it", () => {
    const savedAt = new Date(2026, 10, 27, 14, 2);
    expect(savedCopyText(savedAt, new Date(2026, 10, 27, 14, 14, 30))).toBe(
      "Saved copy from 14:02, 12 min ago: changes made elsewhere since then are not shown",
    );
  });

  it("gives the day when the copy is from another day", () => {
    expect(savedCopyText(new Date(2026, 10, 25, 9, 5), new Date(2026, 10, 27, 10, 0))).toBe(
      "Saved copy from Nov 25, 9:05, 2 days ago: changes made elsewhere since then are not shown",
    );
  });
});

describe("ageOf", () => {
  const now = new Date(2026, 10, 27, 12, 0);
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  it("rounds down to minutes, hours, then days", () => {
    expect(ageOf(ago(0.5), now)).toBe("just now");
    expect(ageOf(ago(1), now)).toBe("1 min ago");
    expect(ageOf(ago(59), now)).toBe("59 min ago");
    expect(ageOf(ago(60), now)).toBe("1 h ago");
    expect(ageOf(ago(24 * 60), now)).toBe("1 day ago");
    expect(ageOf(ago(3 * 24 * 60 + 5), now)).toBe("3 days ago");
  });

  it("never says a copy is from the future (a clock set back)", () => {
    expect(ageOf(ago(-5), now)).toBe("just now");
  });
});

describe("the saved time in Server-Timing", () => {
  it("reads back what the worker writes", () => {
    const iso = "2026-11-27T14:02:00.000Z";
    const header = serverTimingOf(iso);
    expect(header).toBe('saved-copy;desc="2026-11-27T14:02:00.000Z"');
    expect(
      savedAtFromTiming([
        { name: "db", description: "" },
        { name: "saved-copy", description: iso },
      ]),
    ).toBe(iso);
  });

  it("is nothing without the entry or with a description that is no time", () => {
    expect(savedAtFromTiming([])).toBeNull();
    expect(savedAtFromTiming([{ name: "saved-copy", description: "soon" }])).toBeNull();
  });
});

describe("messages between the page and its worker", () => {
  it("accepts only well-formed ones", () => {
    expect(isCopyMessage({ type: "screen-copy", pathname: "/inventory", savedAt: null })).toBe(true);
    expect(isCopyMessage({ type: "screen-copy", pathname: "/inventory", savedAt: "2026-11-27T14:02:00Z" })).toBe(true);
    expect(isCopyMessage({ type: "screen-copy", pathname: 1, savedAt: null })).toBe(false);
    expect(isCopyMessage(null)).toBe(false);
    expect(isWarmMessage({ type: "warm", assets: ["/assets/a.js"], page: null })).toBe(true);
    expect(isWarmMessage({ type: "warm", assets: [1], page: null })).toBe(false);
    expect(isWarmMessage({ type: "warm", assets: [], page: 3 })).toBe(false);
  });
});
