import { describe, expect, it } from "vitest";
import { BUILT_IN_PROFILE, describeProfile, LABEL_SIZE_PRESETS, millimetres, presetOf } from "./options";

describe("millimetres", () => {
  it("shows tenths of a millimetre as typed, one decimal only when there is one", () => {
    expect([572, 500, 0, -15, -5, 2000].map(millimetres)).toEqual(["57.2", "50", "0", "-1.5", "-0.5", "200"]);
  });
});

describe("presetOf", () => {
  it("names the sticker size a profile has, or custom", () => {
    for (const preset of LABEL_SIZE_PRESETS)
      expect(presetOf(preset.widthTenthMm, preset.heightTenthMm)).toBe(preset.key);
    expect(presetOf(318, 572)).toBe("custom"); // the 2.25 × 1.25 in label turned sideways
  });
});

describe("describeProfile", () => {
  it("says in one line what a profile prints", () => {
    expect(describeProfile(BUILT_IN_PROFILE)).toBe(
      "57.2 × 31.8 mm, 203 dpi, browser print sheet, Code 128 and DataMatrix, 6 texts, 1 copy",
    );
    expect(
      describeProfile({
        ...BUILT_IN_PROFILE,
        output: "zpl",
        zplDelivery: "browser_print",
        widthTenthMm: 381,
        heightTenthMm: 127,
        dpi: 300,
        symbology: "datamatrix",
        fields: ["expiry"],
        copies: 2,
      }),
    ).toBe("38.1 × 12.7 mm, 300 dpi, ZPL sent with Zebra Browser Print, DataMatrix, 1 text, 2 copies");
  });
});
