import { describe, expect, it } from "vitest";
import { DISCARD_REASONS } from "../../db/schema/stock/constants";
import { addWaste, NO_WASTE, WASTE_REASON_NAMES, WASTE_REASONS, wasteReasonOf } from "./waste";

describe("wasteReasonOf", () => {
  it("reads a WASTE movement without a reason as what was left in a vial emptied by hand", () => {
    expect(wasteReasonOf("WASTE", null)).toBe("left_when_emptied");
    expect(wasteReasonOf("WASTE", "beyond_use_deadline")).toBe("beyond_use_deadline");
  });

  it("reads a DISCARD movement by its reason, and an unknown reason as other", () => {
    expect(wasteReasonOf("DISCARD", "missing_in_count")).toBe("missing_in_count");
    expect(wasteReasonOf("DISCARD", "lost_in_transit")).toBe("lost_in_transit");
    expect(wasteReasonOf("DISCARD", "something new")).toBe("other");
  });

  it("has a name for every discard reason the ledger knows, the deadline first", () => {
    for (const reason of DISCARD_REASONS) expect(WASTE_REASONS).toContain(reason);
    expect(WASTE_REASONS[0]).toBe("beyond_use_deadline");
    for (const reason of WASTE_REASONS) expect(WASTE_REASON_NAMES[reason]).toBeTruthy();
  });

  it("adds figures", () => {
    expect(addWaste(NO_WASTE, { units: 70, cents: 210, count: 1 })).toEqual({ units: 70, cents: 210, count: 1 });
  });
});
