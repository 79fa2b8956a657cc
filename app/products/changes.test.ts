import { describe, expect, it } from "vitest";
import { describeChange } from "./changes";

describe("describeChange", () => {
  it("names each field once: an amount kept in cents reads as the amount, with the same label as the form", () => {
    const line = describeChange({
      action: "update_product",
      summary: {
        before: { costCents: 1000, priceCents: null, beyondUseHours: 24 },
        after: { costCents: 1250, priceCents: 9900, beyondUseHours: 72 },
      },
    });
    expect(line).toEqual({
      title: "Product edited",
      details: ["Cost: $10.00 → $12.50", "Price: — → $99.00", "Beyond-use (h): 24 h → 3 days"],
    });
  });

  it("shows a field it has no label for by its key", () => {
    expect(describeChange({ action: "update_product", summary: { before: { odd: 1 }, after: { odd: 2 } } })).toEqual({
      title: "Product edited",
      details: ["odd: 1 → 2"],
    });
  });

  it("reads a row written under an old name (ADR 0027) as today's", () => {
    for (const [old, now] of [
      ["product_archive", "archive_product"],
      ["barcode_add", "add_barcode"],
      ["variation_create", "create_variation"],
    ] as const) {
      const summary = {
        name: "100 U",
        code: "0123",
        variation: "100 U",
        before: { active: true },
        after: { active: false },
      };
      expect(describeChange({ action: old, summary })).toEqual(describeChange({ action: now, summary }));
    }
    expect(describeChange({ action: "barcode_add", summary: { code: "0123" } }).title).toBe("Barcode added: 0123");
    expect(describeChange({ action: "variation_create", summary: { name: "100 U" } }).title).toBe(
      "Variation added: 100 U",
    );
  });
});
