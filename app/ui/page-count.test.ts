import { describe, expect, it } from "vitest";
import { numberedPage, pageCount, pageOffset } from "./page-count";

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
});
