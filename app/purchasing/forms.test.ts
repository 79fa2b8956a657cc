// The purchasing schemas as the forms (strings) and the API (numbers) send them: packages and unit
// costs are whole numbers within their bounds, money typed in dollars becomes cents, a revision
// needs a reason and a change, and a form's parallel product/packages lists become lines.
import { describe, expect, it } from "vitest";
import {
  AddLinesBody,
  CancelInput,
  ChangeLineInput,
  CreateOrderBody,
  linesOfPairs,
  OrderLineInput,
  packages,
  ReviseBody,
  unitCostCents,
} from "./forms";

describe("packages", () => {
  it("takes whole numbers from 1 to 10,000, typed or sent", () => {
    expect(packages.parse("12")).toBe(12);
    expect(packages.parse(" 3 ")).toBe(3);
    expect(packages.parse(10_000)).toBe(10_000);
    for (const bad of [0, -1, 1.5, "1.5", 1e9, "1e9", 10_001, "abc", "", null]) {
      expect(packages.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("unit cost", () => {
  it("reads a form's dollars as cents and the API's number as cents", () => {
    expect(unitCostCents.parse("12.50")).toBe(1250);
    expect(unitCostCents.parse("$1,250.5")).toBe(125050);
    expect(unitCostCents.parse("0")).toBe(0);
    expect(unitCostCents.parse(1250)).toBe(1250);
    expect(unitCostCents.parse(100_000_000)).toBe(100_000_000);
  });

  it("refuses a negative, fractional or too large cost", () => {
    for (const bad of [-1, "-1", 10.5, "12.505", 100_000_001, "1000000.01", "abc", null]) {
      expect(unitCostCents.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(unitCostCents.safeParse(-1).error?.issues[0]?.message).toBe(
      "Enter the cost of one package in dollars and cents, from $0.00 to $1,000,000.00.",
    );
  });
});

describe("lines and orders", () => {
  it("keeps a line's optional fields out until given, and refuses unknown fields", () => {
    expect(OrderLineInput.parse({ variationId: "v1", packages: 2 })).toEqual({ variationId: "v1", packages: 2 });
    expect(OrderLineInput.safeParse({ variationId: "v1", packages: 2, quantity: 3 }).success).toBe(false);
    expect(OrderLineInput.safeParse({ variationId: "v1", packages: 2, expectedOn: "2026-02-30" }).success).toBe(false);
    expect(OrderLineInput.parse({ variationId: "v1", packages: 2, expectedOn: "" }).expectedOn).toBeNull();
  });

  it("refuses a 10,000-character note and more than 200 lines", () => {
    const note = CreateOrderBody.safeParse({ locationId: "l", vendorId: "v", note: "x".repeat(10_000) });
    expect(note.error?.issues[0]?.message).toBe("Keep the note under 500 characters.");
    const many = Array.from({ length: 201 }, (_, n) => ({ variationId: `v${n}`, packages: 1 }));
    expect(AddLinesBody.safeParse({ lines: many }).success).toBe(false);
    expect(AddLinesBody.safeParse({ lines: [] }).success).toBe(false);
  });

  it("reads a form's parallel product and packages lists, skipping products left blank", () => {
    expect(linesOfPairs(["a", "b", "c"], ["2", "", "0"])).toEqual({
      ok: true,
      lines: [{ variationId: "a", packages: "2" }],
    });
    expect(linesOfPairs(["a", "b"], ["1"])).toMatchObject({ ok: false });
  });

  it("changes a line with the form's text: empty SKU and date are none", () => {
    const parsed = ChangeLineInput.parse({
      orderId: "o",
      lineId: "l",
      packages: "4",
      unitCostCents: "9.99",
      vendorSku: " ",
      expectedOn: "",
      version: "3",
    });
    expect(parsed).toMatchObject({ packages: 4, unitCostCents: 999, vendorSku: null, expectedOn: null, version: 3 });
  });
});

describe("a revision", () => {
  it("needs a reason and at least one change", () => {
    expect(ReviseBody.safeParse({ reason: "", lines: [{ lineId: "l", packages: 2 }] }).success).toBe(false);
    expect(ReviseBody.safeParse({ reason: "Vendor short" }).success).toBe(false);
    expect(ReviseBody.safeParse({ reason: "Vendor short", lines: [{ lineId: "l" }] }).success).toBe(false);
    expect(ReviseBody.safeParse({ reason: "Vendor short", remove: ["l"] }).success).toBe(true);
    expect(ReviseBody.safeParse({ reason: "x".repeat(501), remove: ["l"] }).success).toBe(false);
  });

  it("takes a cancel's reason as optional, trimmed, and refuses a long one", () => {
    expect(CancelInput.parse({ orderId: "o", reason: "  " }).reason).toBeNull();
    expect(CancelInput.safeParse({ orderId: "o", reason: "x".repeat(10_000) }).success).toBe(false);
  });
});
