// What the adjustment form and its toast say (issue 18.13): the change in the product's unit beside
// the package the par levels count, and a reason named plainly once it is chosen.
import { describe, expect, it } from "vitest";
import { ADJUST_REASON_CHOICES, ADJUST_REASON_LABELS, adjustedText, adjustUnitText } from "./adjust-labels";

describe("the adjustment's words", () => {
  it("names the unit typed in and the package par levels count", () => {
    expect(adjustUnitText("each", 200, 1)).toBe("each (package of 200)");
    expect(adjustUnitText("mL", 25000, 100)).toBe("mL (package of 250 mL)");
    expect(adjustUnitText("each", 1, 1)).toBe("each");
  });

  it("names a chosen reason plainly; only the choice tells what 'other' needs", () => {
    expect(ADJUST_REASON_LABELS.other).toBe("Other");
    expect(ADJUST_REASON_LABELS.count_correction).toBe("Count correction");
    expect(ADJUST_REASON_CHOICES.find((c) => c.value === "other")?.label).toBe("Other (say what in the note)");
    expect(Object.values(ADJUST_REASON_LABELS).some((l) => l.includes("("))).toBe(false);
  });

  it("says a saved change in one format, its reason plainly: no '(Other (say what in the note))'", () => {
    const gauze = {
      product: "Gauze 2x2",
      variation: "Pack of 200",
      location: "Downtown",
      unitScale: 1 as const,
      baseUnit: "each",
    };
    expect(adjustedText({ ...gauze, quantity: 5, onHand: 1210, reason: "other" })).toBe(
      "Gauze 2x2 · Pack of 200 at Downtown: +5 each (Other). 1210 each on hand now.",
    );
    const gel = {
      ...gauze,
      product: "Ultrasound gel",
      variation: "250 mL bottle",
      unitScale: 100 as const,
      baseUnit: "mL",
    };
    expect(adjustedText({ ...gel, quantity: -450, onHand: 0, reason: "damaged" })).toBe(
      "Ultrasound gel · 250 mL bottle at Downtown: -4.5 mL (Damaged). 0 mL on hand now.",
    );
  });
});
