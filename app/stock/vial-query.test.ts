// The vial list's filters as a URL sends them (issue 18.10): a value that cannot be used is said,
// never dropped as if it had not been sent.
import { describe, expect, it } from "vitest";
import { DEFAULT_VIAL_STATES, readVialQuery, VIAL_FILTER_MESSAGES } from "./vials.server";

const read = (fields: Record<string, string>) => readVialQuery(new URLSearchParams(fields));

describe("the vial list's filters", () => {
  it("reads good values, and an absent or empty one as no filter", () => {
    expect(read({}).problems).toEqual({});
    expect(read({}).query).toMatchObject({
      state: [...DEFAULT_VIAL_STATES],
      lot: "",
      expiringWithinDays: null,
      recalled: null,
    });
    const good = read({ state: "sealed", lot: " HB-10571 ", expiringWithinDays: "30", recalled: "false" });
    expect(good.problems).toEqual({});
    expect(good.query).toMatchObject({ state: ["sealed"], lot: "HB-10571", expiringWithinDays: 30, recalled: false });
    expect(read({ expiringWithinDays: "", recalled: "", lot: "" }).problems).toEqual({});
    expect(read({ expiringWithinDays: "0" }).query.expiringWithinDays).toBe(0);
  });

  it.each([
    ["a lot over 100 characters", { lot: "L".repeat(101) }, "lot"],
    ["a negative number of days", { expiringWithinDays: "-3" }, "expiringWithinDays"],
    ["days that are not a number", { expiringWithinDays: "soon" }, "expiringWithinDays"],
    ["days that are not whole", { expiringWithinDays: "1.5" }, "expiringWithinDays"],
    ["more days than ten years", { expiringWithinDays: "3651" }, "expiringWithinDays"],
    ["a state that is none", { state: "opened" }, "state"],
    ["a recall choice that is none", { recalled: "maybe" }, "recalled"],
    ["a product search over 100 characters", { product: "x".repeat(101) }, "product"],
  ] as const)("says what is wrong with %s, and lists nothing by it", (_name, fields, field) => {
    const { problems, query } = read(fields);
    expect(Object.keys(problems)).toEqual([field]);
    expect(problems[field]).toBe(VIAL_FILTER_MESSAGES[field === "product" ? "product" : field]);
    // The query keeps the others' values for the form; the bad one is at its default.
    expect(query.lot).toBe(field === "lot" ? "" : query.lot);
  });

  it("keeps the good filters beside a bad one", () => {
    const { problems, query } = read({ lot: "HB-10571", expiringWithinDays: "-1" });
    expect(problems).toEqual({ expiringWithinDays: VIAL_FILTER_MESSAGES.expiringWithinDays });
    expect(query.lot).toBe("HB-10571");
  });
});
