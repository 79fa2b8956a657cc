import { format as dateFns } from "date-fns";
import { describe, expect, it } from "vitest";
import { calendarDateParts, formatDate, formatDayOf, showInstant, startOfDayIn } from "./dates";

const NOW = new Date("2026-11-22T12:00:00.000Z");

describe("calendar dates: 'MMM d, yyyy', the day as written", () => {
  it.each([
    ["2027-03-05", "Mar 5, 2027"],
    ["2026-12-31", "Dec 31, 2026"],
    ["2026-01-01", "Jan 1, 2026"],
    ["2028-02-29", "Feb 29, 2028"],
  ])("%s → %s", (date, text) => {
    expect(formatDate(date)).toBe(text);
  });

  it("leaves text that is not a real date as it is", () => {
    expect(formatDate("2027-02-30")).toBe("2027-02-30");
    expect(formatDate("31/03/2027")).toBe("31/03/2027");
    expect(calendarDateParts("2027-02-30")).toBeNull();
    expect(calendarDateParts("2027-03-31")).toEqual([2027, 3, 31]);
  });
});

describe("instants: 'MMM d, H:mm' and the zone, in the location's zone", () => {
  it("shows this year's instant with its zone, and the exact instant for the <time> element", () => {
    expect(showInstant(new Date("2026-11-22T19:05:00.000Z"), "America/New_York", NOW)).toEqual({
      text: "Nov 22, 14:05 EST",
      dateTime: "2026-11-22T19:05:00.000Z",
      title: "Nov 22, 2026 14:05 EST (America/New_York)",
    });
  });

  it("the same instant in two zones says which zone each time is in", () => {
    const at = "2026-07-01T23:30:00.000Z";
    expect(showInstant(at, "America/New_York", NOW)?.text).toBe("Jul 1, 19:30 EDT");
    expect(showInstant(at, "America/Los_Angeles", NOW)?.text).toBe("Jul 1, 16:30 PDT");
    expect(showInstant(at, "Asia/Tokyo", NOW)?.text).toBe("Jul 2, 8:30 GMT+9");
    expect(showInstant(at, "UTC", NOW)?.text).toBe("Jul 1, 23:30 UTC");
  });

  it("follows daylight saving time across the change", () => {
    // US clocks went forward at 2:00 on Mar 8, 2026 and back at 2:00 on Nov 1, 2026.
    expect(showInstant("2026-03-08T06:59:00.000Z", "America/New_York", NOW)?.text).toBe("Mar 8, 1:59 EST");
    expect(showInstant("2026-03-08T07:00:00.000Z", "America/New_York", NOW)?.text).toBe("Mar 8, 3:00 EDT");
    expect(showInstant("2026-11-01T05:30:00.000Z", "America/New_York", NOW)?.text).toBe("Nov 1, 1:30 EDT");
    expect(showInstant("2026-11-01T06:30:00.000Z", "America/New_York", NOW)?.text).toBe("Nov 1, 1:30 EST");
  });

  it("shows an instant of another year (in that zone) as its date alone, with the time in the title", () => {
    expect(showInstant("2025-03-03T14:05:00.000Z", "America/New_York", NOW)).toEqual({
      text: "Mar 3, 2025",
      dateTime: "2025-03-03T14:05:00.000Z",
      title: "Mar 3, 2025 9:05 EST (America/New_York)",
    });
    // New Year's Eve in New York is already next year in UTC: the year is the location's.
    const eve = "2027-01-01T03:00:00.000Z";
    const lastDay = new Date("2026-12-31T20:00:00.000Z");
    expect(showInstant(eve, "America/New_York", lastDay)?.text).toBe("Dec 31, 22:00 EST");
    expect(showInstant(eve, "UTC", lastDay)?.text).toBe("Jan 1, 2027");
  });

  it("shows nothing for no instant or an invalid one", () => {
    expect(showInstant(null, "UTC", NOW)).toBeNull();
    expect(showInstant(undefined, "UTC", NOW)).toBeNull();
    expect(showInstant("not a date", "UTC", NOW)).toBeNull();
  });

  it("names the day an instant fell on at a location", () => {
    expect(formatDayOf(Date.parse("2026-11-03T03:00:00.000Z"), "America/New_York")).toBe("Nov 2, 2026");
    expect(formatDayOf(new Date("2026-11-03T03:00:00.000Z"), "UTC")).toBe("Nov 3, 2026");
  });
});

describe("startOfDayIn: where a calendar day begins in a zone (date filters)", () => {
  it.each([
    ["2026-11-22", "America/New_York", "2026-11-22T05:00:00.000Z"],
    ["2026-07-01", "America/New_York", "2026-07-01T04:00:00.000Z"],
    // The days daylight saving time starts and ends: midnight is still before the change.
    ["2026-03-08", "America/New_York", "2026-03-08T05:00:00.000Z"],
    ["2026-11-01", "America/New_York", "2026-11-01T04:00:00.000Z"],
    ["2026-11-22", "Asia/Tokyo", "2026-11-21T15:00:00.000Z"],
    ["2026-11-22", "UTC", "2026-11-22T00:00:00.000Z"],
  ])("%s in %s begins at %s", (date, zone, instant) => {
    expect(new Date(startOfDayIn(date, zone) ?? 0).toISOString()).toBe(instant);
  });

  it("has no start for a day that does not exist", () => {
    expect(startOfDayIn("2026-02-30", "UTC")).toBeNull();
  });
});

describe("the patterns, written without date-fns in the browser", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  it("writes 'MMM d, yyyy' exactly as date-fns does, every few days over eight years", () => {
    for (let at = Date.UTC(2024, 0, 1); at < Date.UTC(2032, 0, 1); at += 3 * DAY_MS) {
      const day = new Date(at);
      const local = new Date(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
      expect(formatDate(day.toISOString().slice(0, 10))).toBe(dateFns(local, "MMM d, yyyy"));
    }
  });

  it("writes 'MMM d, H:mm' and 'H:mm' exactly as date-fns does, every 37 minutes over ten days", () => {
    for (let at = NOW.getTime(); at < NOW.getTime() + 10 * DAY_MS; at += 37 * 60 * 1000) {
      const instant = new Date(at);
      const local = new Date(
        instant.getUTCFullYear(),
        instant.getUTCMonth(),
        instant.getUTCDate(),
        instant.getUTCHours(),
        instant.getUTCMinutes(),
      );
      const shown = showInstant(instant, "UTC", instant);
      expect(shown?.text).toBe(`${dateFns(local, "MMM d, H:mm")} UTC`);
      expect(shown?.title).toBe(`${dateFns(local, "MMM d, yyyy")} ${dateFns(local, "H:mm")} UTC (UTC)`);
    }
  });
});
