import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ianaTimeZone, parseSaleInstant, TIME_ZONE_NAMES } from "./dates";

const NY = "America/New_York";
const at = (date: string, time?: string | null, timeZone?: string | null) => {
  const read = parseSaleInstant({ date, time, timeZone }, NY);
  return read.ok ? read.at.toISOString() : read.message;
};

describe("parseSaleInstant", () => {
  it("reads ISO and US dates, with and without a time, in the default zone", () => {
    expect(at("2026-03-05")).toBe("2026-03-05T05:00:00.000Z"); // midnight local, not noon
    expect(at("3/5/2026")).toBe("2026-03-05T05:00:00.000Z");
    expect(at("03/05/2026", "14:30")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("3/5/2026", "2:30 PM")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("3/5/2026", "2:30 pm")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("3/5/2026", "12:05 AM")).toBe("2026-03-05T05:05:00.000Z");
    expect(at("3/5/2026", "12:05 PM")).toBe("2026-03-05T17:05:00.000Z");
    expect(at("2026-03-05", "14:30:05")).toBe("2026-03-05T19:30:05.000Z");
    expect(at("3/5/2026 2:30 PM")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("2026-03-05T14:30:00")).toBe("2026-03-05T19:30:00.000Z");
  });

  it("takes an ISO instant's own offset over any time zone column", () => {
    expect(at("2026-03-05T14:30:00-05:00")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("2026-03-05T14:30:00-05:00", null, "Pacific Time (US & Canada)")).toBe("2026-03-05T19:30:00.000Z");
    expect(at("2026-03-05T14:30:00Z")).toBe("2026-03-05T14:30:00.000Z");
    expect(at("2026-03-05T14:30:00.250+0530")).toBe("2026-03-05T09:00:00.250Z");
  });

  it("honours the file's time zone column, Square's names and IANA names", () => {
    expect(at("2026-07-01", "14:30", "Eastern Time (US & Canada)")).toBe("2026-07-01T18:30:00.000Z");
    expect(at("2026-07-01", "14:30", "Central Time (US & Canada)")).toBe("2026-07-01T19:30:00.000Z");
    expect(at("2026-07-01", "14:30", "Mountain Time (US & Canada)")).toBe("2026-07-01T20:30:00.000Z");
    expect(at("2026-07-01", "14:30", "Pacific Time (US & Canada)")).toBe("2026-07-01T21:30:00.000Z");
    expect(at("2026-07-01", "14:30", "Arizona")).toBe("2026-07-01T21:30:00.000Z"); // no DST
    expect(at("2026-07-01", "14:30", "Hawaii")).toBe("2026-07-02T00:30:00.000Z");
    expect(at("2026-07-01", "14:30", "Alaska")).toBe("2026-07-01T22:30:00.000Z");
    expect(at("2026-07-01", "14:30", "America/Chicago")).toBe("2026-07-01T19:30:00.000Z");
    expect(at("2026-07-01", "14:30", "")).toBe("2026-07-01T18:30:00.000Z");
    for (const iana of Object.values(TIME_ZONE_NAMES)) expect(ianaTimeZone(iana)).toBe(iana);
  });

  it("follows daylight saving time: the same wall clock is a different offset in winter and summer", () => {
    expect(at("2026-01-15", "09:00")).toBe("2026-01-15T14:00:00.000Z");
    expect(at("2026-07-15", "09:00")).toBe("2026-07-15T13:00:00.000Z");
    // The day clocks go forward: 01:59 is EST, 03:00 is EDT, 02:30 does not exist (read as EST).
    expect(at("2026-03-08", "01:59")).toBe("2026-03-08T06:59:00.000Z");
    expect(at("2026-03-08", "03:00")).toBe("2026-03-08T07:00:00.000Z");
    expect(at("2026-03-08", "02:30")).toBe("2026-03-08T07:30:00.000Z");
    // The day they go back: 01:30 happens twice, the first (EDT) is taken.
    expect(at("2026-11-01", "01:30")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("2026-11-01", "02:30")).toBe("2026-11-01T07:30:00.000Z");
  });

  it("refuses impossible dates, unknown zones and unreadable times, naming the value", () => {
    expect(at("2/30/2026")).toContain('"2/30/2026" is not a date on the calendar');
    expect(at("2026-02-29")).toContain("not a date on the calendar");
    expect(at("13/1/2026")).toContain("not a date on the calendar");
    expect(at("2026-03-05", "25:00")).toContain('"25:00" is not a time');
    expect(at("2026-03-05", "13:00 PM")).toContain("not a time");
    expect(at("2026-03-05", "noon")).toContain("not a time");
    expect(at("2026-03-05", "14:30", "Mars Standard Time")).toContain('"Mars Standard Time" is not a time zone');
    expect(at("2026-03-05", "14:30", "EST")).toContain('"EST" is not a time zone');
    expect(at("2026-03-05", "14:30", "Europe/Nowhere")).toContain('"Europe/Nowhere" is not a time zone');
    expect(at("")).toBe("The date is empty.");
    expect(at("March 5")).toContain("write it YYYY-MM-DD");
    expect(at("3/5/26")).toContain("write it YYYY-MM-DD");
    expect(at("1899-12-30")).toContain("between 2000 and 2100");
    expect(at("2026-03-05T14:30:00+25:00")).toContain("not a date");
  });

  it("reads back any instant written in each accepted style in any zone, to the minute", () => {
    const zones = [...Object.keys(TIME_ZONE_NAMES), "Europe/London", "Australia/Sydney", "Asia/Kolkata", NY];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 2), max: Date.UTC(2099, 11, 30) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const instant = Math.floor(ms / 60_000) * 60_000;
          const iana = ianaTimeZone(zone) as string;
          const f = new Intl.DateTimeFormat("en-US", {
            timeZone: iana,
            hourCycle: "h23",
            year: "numeric",
            month: "2-digit",
            day: "2-digit",
            hour: "2-digit",
            minute: "2-digit",
            timeZoneName: "longOffset",
          });
          const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
          const [y, m, d, hh, mm] = [p.year, p.month, p.day, p.hour, p.minute] as string[];
          const offset = (p.timeZoneName as string).replace("GMT", "") || "+00:00";
          const h12 = Number(hh) % 12 === 0 ? 12 : Number(hh) % 12;
          const ampm = Number(hh) < 12 ? "AM" : "PM";
          // With its offset, an instant is exact.
          expect(at(`${y}-${m}-${d}T${hh}:${mm}:00${offset}`)).toBe(new Date(instant).toISOString());
          // A local wall clock is exact unless the hour repeats (clocks going back): then the first.
          const repeated = [-3_600_000, 3_600_000].some((shift) => {
            const q = Object.fromEntries(f.formatToParts(new Date(instant + shift)).map((x) => [x.type, x.value]));
            return q.year === y && q.month === m && q.day === d && q.hour === hh && q.minute === mm;
          });
          for (const [date, time] of [
            [`${y}-${m}-${d}`, `${hh}:${mm}`],
            [`${Number(m)}/${Number(d)}/${y}`, `${h12}:${mm} ${ampm}`],
            [`${m}/${d}/${y}`, `${hh}:${mm}:00`],
          ] as const) {
            const read = parseSaleInstant({ date, time, timeZone: zone }, "UTC");
            expect(read.ok).toBe(true);
            if (!read.ok) continue;
            if (!repeated) expect(read.at.getTime(), `${date} ${time} ${zone}`).toBe(instant);
            else expect([instant, instant - 3_600_000]).toContain(read.at.getTime());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never throws, whatever the cells", () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string()), fc.option(fc.string()), (date, time, timeZone) => {
        parseSaleInstant({ date, time, timeZone }, NY);
      }),
    );
  });
});
