import { describe, expect, it } from "vitest";
import {
  bandForPercent,
  daysLeftText,
  daysUntilExpiration,
  deadlineOf,
  expirationEndOfDay,
  expirationUrgency,
  expiryBand,
  expiryLabel,
  formatDuration,
  formatUseBy,
  isExpired,
  remainingLifePercent,
} from "./expiry";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = new Date("2026-11-22T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe("the deadline: an in-use item's expiresAt, else the end of its expiration day in UTC", () => {
  it.each([
    ["sealed", { state: "sealed", expirationDate: "2026-11-22" }, "2026-11-22T23:59:59.999Z"],
    ["sealed, leap day", { state: "sealed", expirationDate: "2028-02-29" }, "2028-02-29T23:59:59.999Z"],
    ["sealed, year end", { state: "sealed", expirationDate: "2026-12-31" }, "2026-12-31T23:59:59.999Z"],
    [
      "in use: expiresAt, not the expiration date",
      { state: "in_use", expirationDate: "2027-01-31", expiresAt: "2026-11-23T09:30:00.000Z" },
      "2026-11-23T09:30:00.000Z",
    ],
    [
      "in use, expiresAt as epoch ms",
      { state: "in_use", expiresAt: Date.UTC(2026, 10, 23, 9, 30) },
      "2026-11-23T09:30:00.000Z",
    ],
  ])("%s", (_name, item, expected) => {
    expect(deadlineOf(item)?.toISOString()).toBe(expected);
  });

  it("is missing without a date, and invalid for a date that is not on the calendar", () => {
    expect(deadlineOf({ state: "sealed", expirationDate: null })).toBeNull();
    expect(deadlineOf({ state: "in_use", expirationDate: "2027-01-31", expiresAt: null })).toBeNull();
    for (const date of ["2026-02-30", "2026-13-01", "26-11-22", "2026-11-22T00:00", ""]) {
      expect(Number.isNaN(expirationEndOfDay(date).getTime())).toBe(true);
    }
  });
});

describe("remaining life in bands: expired ≤ 0 < critical ≤ 10 < warning ≤ 25 < caution ≤ 50 < safe", () => {
  it.each([
    [-5, "expired"],
    [0, "expired"],
    [0.01, "critical"],
    [10, "critical"],
    [10.01, "warning"],
    [25, "warning"],
    [25.01, "caution"],
    [50, "caution"],
    [50.01, "safe"],
    [100, "safe"],
    [140, "safe"],
    [Number.NaN, "expired"],
  ] as const)("%d %% → %s", (percent, band) => {
    expect(bandForPercent(percent)).toBe(band);
  });

  // An in-use vial started 90 hours before NOW with a 100-hour life: 10 % left.
  const started = at(-90 * HOUR);
  const inUse = (hoursLeft: number) => ({
    state: "in_use",
    startedAt: started,
    expiresAt: at(hoursLeft * HOUR),
  });

  it.each([
    [60, 60, "safe"],
    [50, 50, "caution"],
    [25, 25, "warning"],
    [10, 10, "critical"],
    [1, 1, "critical"],
    [0, 0, "expired"],
  ])("an in-use item with %d of 100 hours left: %d %%, %s", (hoursLeft, percent, band) => {
    // Keep the total at 100 hours: started (100 - hoursLeft) hours ago.
    const item = { ...inUse(hoursLeft), startedAt: at(-(100 - hoursLeft) * HOUR) };
    expect(remainingLifePercent(item, NOW)).toBeCloseTo(percent, 9);
    expect(expiryBand(item, NOW)).toBe(band);
  });

  it("counts a sealed item's life as the 360 days up to the end of its expiration day", () => {
    // Expires at the end of Dec 1: 9.5 days left at NOW, of 360.
    const item = { state: "sealed", expirationDate: "2026-12-01", receivedAt: "2026-11-12T00:00:00.000Z" };
    expect(remainingLifePercent(item, NOW)).toBeCloseTo(((9.5 * DAY - 1) / (360 * DAY)) * 100, 9);
    expect(expiryBand(item, NOW)).toBe("critical");
    expect(expiryBand({ ...item, expirationDate: "2026-11-22" }, NOW)).toBe("critical");
    expect(expiryBand({ ...item, expirationDate: "2026-11-21" }, NOW)).toBe("expired");
    expect(expiryBand({ ...item, expirationDate: "2027-11-21" }, NOW)).toBe("safe");
  });

  it.each([
    ["no expiration date", { state: "sealed", expirationDate: null, receivedAt: at(-DAY) }],
    ["an impossible date", { state: "sealed", expirationDate: "2027-02-30", receivedAt: at(-DAY) }],
    ["in use without startedAt", { state: "in_use", expiresAt: at(DAY) }],
    ["an unparsable expiresAt", { state: "in_use", startedAt: at(-DAY), expiresAt: "soon" }],
    ["zero duration", { state: "in_use", startedAt: at(DAY), expiresAt: at(DAY) }],
    ["negative duration", { state: "in_use", startedAt: at(2 * DAY), expiresAt: at(DAY) }],
  ])("reports an item with %s as expired", (_name, item) => {
    expect(remainingLifePercent(item, NOW)).toBe(0);
    expect(expiryBand(item, NOW)).toBe("expired");
    expect(isExpired(item, NOW)).toBe(true);
  });

  it("expires exactly at the deadline, not a millisecond before", () => {
    const item = { state: "sealed", expirationDate: "2026-11-22", receivedAt: "2026-11-01T00:00:00.000Z" };
    expect(isExpired(item, new Date("2026-11-22T23:59:59.998Z"))).toBe(false);
    expect(isExpired(item, new Date("2026-11-22T23:59:59.999Z"))).toBe(true);
    expect(isExpired(item, new Date("2026-11-23T00:00:00.000Z"))).toBe(true);
  });
});

describe("the labels of spec section 4", () => {
  const received = "2026-10-01T00:00:00.000Z";
  it.each([
    [
      "a sealed item not yet expired: its manufacturer expiration",
      { state: "sealed", expirationDate: "2027-03-05", receivedAt: received },
      { band: "caution", label: "Manufacturer Expiration", text: "Mar 5, 2027", left: "103 days left" },
    ],
    [
      "an in-use item not yet expired: the time left to its use-by deadline",
      { state: "in_use", expirationDate: "2027-03-05", startedAt: at(-2 * HOUR), expiresAt: at(51 * HOUR) },
      { band: "safe", label: "Use-By Deadline", text: "2d 3h left" },
    ],
    [
      "an in-use item whose use-by deadline has passed",
      {
        state: "in_use",
        expirationDate: "2027-03-05",
        startedAt: "2026-11-21T08:00:00.000Z",
        expiresAt: "2026-11-22T08:05:00.000Z",
      },
      { band: "expired", label: "Use-By Deadline", text: "Nov 22, 8:05 UTC" },
    ],
    [
      "a sealed item past its expiration date",
      { state: "sealed", expirationDate: "2026-11-21", receivedAt: received },
      { band: "expired", label: "Manufacturer Expiration", text: "Nov 21, 2026", left: "Expired 1 day ago" },
    ],
    [
      "an item without an expiration date",
      { state: "sealed", expirationDate: null, receivedAt: received },
      { band: "expired", label: "Expired", text: "No expiration date" },
    ],
    [
      "an item expired for its dates, with a date that has not passed",
      { state: "in_use", expirationDate: "2027-03-05", startedAt: at(DAY), expiresAt: at(DAY) },
      { band: "expired", label: "Expired", text: "Mar 5, 2027" },
    ],
  ])("%s", (_name, item, expected) => {
    expect(expiryLabel(item, NOW, "UTC")).toEqual(expected);
  });

  it("shows the use-by time in the location's time zone", () => {
    const item = {
      state: "in_use",
      startedAt: "2026-11-21T08:00:00.000Z",
      expiresAt: "2026-11-22T08:05:00.000Z",
    };
    expect(expiryLabel(item, NOW, "America/New_York").text).toBe("Nov 22, 3:05 EST");
    expect(formatUseBy("2026-07-01T23:30:00.000Z", "America/New_York", NOW)).toBe("Jul 1, 19:30 EDT");
    expect(formatUseBy("2026-07-01T23:30:00.000Z", "Asia/Tokyo", NOW)).toBe("Jul 2, 8:30 GMT+9");
  });
});

describe("texts", () => {
  it.each([
    [2 * DAY + 3 * HOUR + 59 * 60_000, "2d 3h"],
    [DAY, "1d 0h"],
    [DAY - 1, "23h 59m"],
    [5 * HOUR + 12 * 60_000 + 30_000, "5h 12m"],
    [HOUR, "1h 0m"],
    [42 * 60_000 + 59_999, "42m"],
    [59_999, "0m"],
    [0, "0m"],
    [-5 * HOUR, "0m"],
  ])("%d ms → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("counts calendar days to an expiration date in UTC and flags what is expired or expiring soon", () => {
    expect(daysUntilExpiration("2026-11-22", NOW)).toBe(0);
    expect(daysUntilExpiration("2026-11-23", new Date("2026-11-22T23:59:00.000Z"))).toBe(1);
    expect(daysUntilExpiration("2026-11-21", NOW)).toBe(-1);
    expect(daysUntilExpiration("2027-11-22", NOW)).toBe(365);
    expect(daysUntilExpiration("2026-02-30", NOW)).toBeNull();
    expect(expirationUrgency("2026-11-21", NOW)).toBe("expired");
    expect(expirationUrgency("2026-11-22", NOW)).toBe("soon");
    expect(expirationUrgency("2026-12-22", NOW)).toBe("soon"); // 30 days
    expect(expirationUrgency("2026-12-23", NOW)).toBe("later");
    expect(expirationUrgency(null, NOW)).toBeNull();
  });
});

describe("one lot, one date, one colour: a sealed item's life is the year before its deadline (ADR 0019)", () => {
  it("gives lot HB-10571 (expires Dec 4) the same band wherever and whenever it was received", () => {
    const now = new Date("2026-11-25T15:00:00.000Z");
    const downtown = { state: "sealed", expirationDate: "2026-12-04", receivedAt: "2026-10-20T14:00:00.000Z" };
    const westside = { state: "sealed", expirationDate: "2026-12-04", receivedAt: "2025-12-01T09:00:00.000Z" };
    expect(expiryBand(downtown, now)).toBe(expiryBand(westside, now));
    expect(expiryBand({ state: "sealed", expirationDate: "2026-12-04" }, now)).toBe(expiryBand(westside, now));
    // 9.4 days of a 360-day life: critical.
    expect(expiryBand(downtown, now)).toBe("critical");
  });

  it.each([
    ["2027-11-22", "safe"],
    ["2027-05-22", "safe"], // 181.5 days
    ["2027-05-20", "caution"], // 179.5 days
    ["2027-02-20", "caution"], // 90.5 days
    ["2027-02-19", "warning"], // 89.5 days
    ["2026-12-28", "warning"], // 36.5 days
    ["2026-12-27", "critical"], // 35.5 days
    ["2026-11-22", "critical"],
    ["2026-11-21", "expired"],
  ])("a sealed item expiring %s is %s, received or not", (expirationDate, band) => {
    expect(expiryBand({ state: "sealed", expirationDate }, NOW)).toBe(band);
    expect(expiryBand({ state: "sealed", expirationDate, receivedAt: at(-400 * DAY) }, NOW)).toBe(band);
    expect(expiryBand({ state: "sealed", expirationDate, receivedAt: at(-DAY) }, NOW)).toBe(band);
  });
});

describe("days left in words, in the location's zone", () => {
  it.each([
    ["2026-12-04", "2026-11-25T15:00:00.000Z", "UTC", "9 days left"],
    ["2026-11-26", "2026-11-25T15:00:00.000Z", "UTC", "1 day left"],
    ["2026-11-25", "2026-11-25T15:00:00.000Z", "UTC", "Expires today"],
    ["2026-11-24", "2026-11-25T15:00:00.000Z", "UTC", "Expired 1 day ago"],
    ["2026-11-22", "2026-11-25T15:00:00.000Z", "UTC", "Expired 3 days ago"],
    // 20:00 on Dec 4 in New York is past the end of Dec 4 in UTC: expired, and that day there.
    ["2026-12-04", "2026-12-05T01:00:00.000Z", "America/New_York", "Expired today"],
    // 8:00 on Dec 5 in Tokyo is still Dec 4 in UTC: not yet expired, its last day.
    ["2026-12-04", "2026-12-04T23:00:00.000Z", "Asia/Tokyo", "Expires today"],
    ["2026-12-04", "2026-12-03T23:00:00.000Z", "Asia/Tokyo", "Expires today"],
    ["2026-12-04", "2026-12-03T23:00:00.000Z", "America/Los_Angeles", "1 day left"],
  ])("%s at %s in %s: %s", (date, now, zone, words) => {
    expect(daysLeftText(date, new Date(now), zone)).toBe(words);
  });

  it("has no words for a missing or impossible date", () => {
    expect(daysLeftText(null, NOW, "UTC")).toBeNull();
    expect(daysLeftText("2027-02-30", NOW, "UTC")).toBeNull();
  });

  it("stands beside a sealed item's date in its label, not an in-use item's", () => {
    const now = new Date("2026-11-25T15:00:00.000Z");
    expect(expiryLabel({ state: "sealed", expirationDate: "2026-12-04" }, now, "UTC")).toEqual({
      band: "critical",
      label: "Manufacturer Expiration",
      text: "Dec 4, 2026",
      left: "9 days left",
    });
    expect(expiryLabel({ state: "sealed", expirationDate: "2026-11-22" }, now, "UTC").left).toBe("Expired 3 days ago");
    const inUse = { state: "in_use", expirationDate: "2026-12-04", startedAt: at(-DAY), expiresAt: at(DAY) };
    expect(expiryLabel(inUse, NOW, "UTC").left).toBeUndefined();
  });
});
