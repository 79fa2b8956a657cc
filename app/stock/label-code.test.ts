import { describe, expect, it } from "vitest";
import { checkBarcode } from "~/catalog/barcode";
import { LABEL_CODE_PATTERN, newLabelCode } from "./label-code";

describe("newLabelCode", () => {
  it("makes codes that pass the barcode rules and avoid look-alike letters", () => {
    for (let i = 0; i < 500; i++) {
      const code = newLabelCode();
      expect(code).toMatch(LABEL_CODE_PATTERN);
      expect(checkBarcode(code)).toEqual({ valid: true, code });
    }
  });

  it("maps every byte onto the 32-character alphabet", () => {
    expect(newLabelCode((b) => b.fill(0))).toBe("V000000000");
    expect(newLabelCode((b) => b.fill(255))).toBe("VZZZZZZZZZ");
  });
});
