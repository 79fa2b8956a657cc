import { describe, expect, it } from "vitest";
import { COUNT_MESSAGES } from "./constants";
import { CountBody, countFromForm, RejectBody, StartBody, startFromForm } from "./forms";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
};

describe("the start form and body", () => {
  it("maps the form's scope, chosen products and blind box to the API body", () => {
    expect(
      startFromForm(
        form([
          ["scope", "products"],
          ["productIds", "p1"],
          ["productIds", "p2"],
          ["blind", "on"],
        ]),
        "loc",
      ),
    ).toEqual({
      locationId: "loc",
      scope: { kind: "products", productIds: ["p1", "p2"] },
      blind: true,
      idempotencyKey: null,
    });
    expect(
      startFromForm(
        form([
          ["scope", "category"],
          ["category", "Supplies"],
        ]),
        "loc",
      ).scope,
    ).toEqual({
      kind: "category",
      category: "Supplies",
    });
    expect(StartBody.safeParse(startFromForm(form([]), "loc")).success).toBe(false);
  });

  it("refuses an unknown scope, no products and a missing blind", () => {
    for (const scope of [{ kind: "shelf" }, { kind: "products", productIds: [] }, { kind: "category", category: "" }]) {
      expect(StartBody.safeParse({ locationId: "l", scope, blind: true }).success).toBe(false);
    }
    expect(StartBody.safeParse({ locationId: "l", scope: { kind: "all" } }).success).toBe(false);
  });
});

describe("the count body", () => {
  it("reads a scan or a bulk quantity, keeping quantities as text", () => {
    expect(CountBody.parse({ labelCode: " V123 ", unitsRemaining: 40 })).toEqual({
      labelCode: "V123",
      unitsRemaining: "40",
      idempotencyKey: null,
    });
    expect(
      CountBody.parse(
        countFromForm(
          form([
            ["intent", "bulk"],
            ["variationId", "v"],
            ["quantity", "2.5"],
          ]),
        ),
      ),
    ).toEqual({
      variationId: "v",
      lot: null,
      quantity: "2.5",
      idempotencyKey: null,
    });
  });

  it("refuses negative, non-numeric and too long quantities", () => {
    for (const quantity of [-1, "-1", "abc", "1e5", "", "1".repeat(21), Number.NaN]) {
      expect(CountBody.safeParse({ variationId: "v", quantity }).success, String(quantity)).toBe(false);
    }
    expect(CountBody.safeParse({}).error?.issues[0]?.message).toBe(COUNT_MESSAGES.countOrScan);
  });

  it("needs a note of at most 500 characters to send a count back", () => {
    expect(RejectBody.safeParse({ note: "  " }).success).toBe(false);
    expect(RejectBody.safeParse({ note: "x".repeat(501) }).success).toBe(false);
    expect(RejectBody.parse({ note: " Recount the fridge " }).note).toBe("Recount the fridge");
  });
});
