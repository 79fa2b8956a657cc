import { describe, expect, it } from "vitest";
import { monthName, wasteMonths } from "./month";

describe("wasteMonths", () => {
  it("counts months on the wall clock of the zone: New York's November starts at 04:00 UTC", () => {
    const months = wasteMonths(new Date("2026-11-27T02:00:00Z"), "America/New_York");
    expect(months).toEqual({
      lastMonthStart: Date.parse("2026-10-01T04:00:00Z"),
      thisMonthStart: Date.parse("2026-11-01T04:00:00Z"),
      // New York is back on standard time in December.
      nextMonthStart: Date.parse("2026-12-01T05:00:00Z"),
      thisMonth: "2026-11",
      lastMonth: "2026-10",
    });
  });

  it("is still last month's last evening in Honolulu when UTC has turned the month", () => {
    const now = new Date("2026-12-01T05:00:00Z");
    expect(wasteMonths(now, "Pacific/Honolulu").thisMonth).toBe("2026-11");
    expect(wasteMonths(now, "UTC").thisMonth).toBe("2026-12");
  });

  it("crosses the year both ways", () => {
    const january = wasteMonths(new Date("2027-01-10T12:00:00Z"), "UTC");
    expect([january.lastMonth, january.thisMonth]).toEqual(["2026-12", "2027-01"]);
    expect(january.lastMonthStart).toBe(Date.parse("2026-12-01T00:00:00Z"));
    const december = wasteMonths(new Date("2026-12-31T23:00:00Z"), "UTC");
    expect(december.nextMonthStart).toBe(Date.parse("2027-01-01T00:00:00Z"));
  });

  it("names a month", () => {
    expect(monthName("2026-11")).toBe("November 2026");
  });
});
