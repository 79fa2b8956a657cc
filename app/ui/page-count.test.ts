import { describe, expect, it } from "vitest";
import {
  cappedCountLimit,
  cappedNumberedPage,
  NUMBERED_COUNT_CAP,
  numberedPage,
  pageCount,
  pageOffset,
} from "./page-count";

describe("numbered pages", () => {
  it("counts the pages rows fill, an empty list keeping its one page", () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });

  it("starts page 1 at the first row and page 3 after two pages", () => {
    expect(pageOffset(1, 25)).toBe(0);
    expect(pageOffset(3, 25)).toBe(50);
  });

  it("reads the total of a count statement, from drizzle (a number) or raw SQL (a string), and of none as 0", () => {
    expect(numberedPage([{ total: 51 }], 2, 25)).toEqual({ total: 51, page: 2, pageCount: 3 });
    expect(numberedPage([{ total: "12500" }], 1, 25)).toEqual({ total: 12500, page: 1, pageCount: 500 });
    expect(numberedPage([], 1, 25)).toEqual({ total: 0, page: 1, pageCount: 1 });
  });

  it("counts a long list only to the cap past the page shown, and says so", () => {
    expect(cappedCountLimit(1, 50)).toBe(NUMBERED_COUNT_CAP + 1);
    expect(cappedCountLimit(3, 50)).toBe(100 + NUMBERED_COUNT_CAP + 1);
    // Under the cap: exact, as numberedPage.
    expect(cappedNumberedPage([{ total: 51 }], 2, 50)).toEqual({ total: 51, totalExact: true, page: 2, pageCount: 2 });
    expect(cappedNumberedPage([{ total: NUMBERED_COUNT_CAP }], 1, 50)).toMatchObject({ totalExact: true });
    // The one row past the cap: "1,000+", and a next page whatever the page.
    expect(cappedNumberedPage([{ total: NUMBERED_COUNT_CAP + 1 }], 1, 50)).toEqual({
      total: NUMBERED_COUNT_CAP,
      totalExact: false,
      page: 1,
      pageCount: NUMBERED_COUNT_CAP / 50,
    });
    const deep = cappedNumberedPage([{ total: cappedCountLimit(30, 50) }], 30, 50);
    expect(deep).toMatchObject({ total: 29 * 50 + NUMBERED_COUNT_CAP, totalExact: false });
    expect(deep.pageCount).toBeGreaterThan(30);
    expect(cappedNumberedPage([], 1, 50)).toEqual({ total: 0, totalExact: true, page: 1, pageCount: 1 });
  });
});
