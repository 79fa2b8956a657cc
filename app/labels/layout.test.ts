import { describe, expect, it } from "vitest";
import { PRINTER_DPIS } from "../../db/schema/settings/constants";
import { code128Modules, dataMatrixModules, layoutLabel } from "./layout";
import { BUILT_IN_PROFILE, LABEL_SIZE_PRESETS, type LabelProfile } from "./options";

const CODE = "V7K3M9Q2XA";

describe("layoutLabel", () => {
  it("fits a ten-character Code 128 with its quiet zones on a 38 mm vial label, in whole dots", () => {
    for (const dpi of PRINTER_DPIS) {
      for (const symbology of ["code128", "both"] as const) {
        const profile: LabelProfile = { ...BUILT_IN_PROFILE, widthTenthMm: 381, heightTenthMm: 127, dpi, symbology };
        const layout = layoutLabel(profile, CODE);
        const bar = layout.code128;
        expect(bar).not.toBeNull();
        if (!bar) continue;
        expect(Number.isInteger(bar.module)).toBe(true);
        expect(bar.box.width).toBe(bar.module * code128Modules(CODE.length));
        expect(bar.box.x).toBeGreaterThanOrEqual(10 * bar.module);
        expect(bar.box.x + bar.box.width + 10 * bar.module).toBeLessThanOrEqual(layout.widthDots);
        expect(bar.box.y + bar.box.height).toBeLessThanOrEqual(layout.heightDots - layout.margin);
      }
    }
  });

  it("keeps every box inside the label for each preset size, resolution and symbology", () => {
    for (const preset of LABEL_SIZE_PRESETS) {
      for (const dpi of PRINTER_DPIS) {
        for (const symbology of ["code128", "datamatrix", "both"] as const) {
          const layout = layoutLabel({ ...BUILT_IN_PROFILE, ...preset, dpi, symbology }, CODE);
          const boxes = [layout.code128?.box, layout.dataMatrix?.box, layout.text.box].filter((b) => b !== undefined);
          for (const box of boxes) {
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.y).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width).toBeLessThanOrEqual(layout.widthDots);
            expect(box.y + box.height).toBeLessThanOrEqual(layout.heightDots);
          }
          expect(layout.code128 !== null).toBe(symbology !== "datamatrix");
          expect(layout.dataMatrix !== null).toBe(symbology !== "code128");
          // The text never overlaps the DataMatrix beside it, nor the Code 128 under it.
          if (layout.dataMatrix) {
            expect(layout.text.box.x).toBeGreaterThan(layout.dataMatrix.box.x + layout.dataMatrix.box.width);
          }
          if (layout.code128) {
            expect(layout.text.box.y + layout.text.lines * layout.text.lineDots).toBeLessThanOrEqual(
              layout.code128.box.y,
            );
          }
        }
      }
    }
  });

  it("shows every field on the built-in 2.25 × 1.25 in label, and says how many fit on a vial label", () => {
    expect(layoutLabel(BUILT_IN_PROFILE, CODE).text.lines).toBe(6);
    const vial = layoutLabel({ ...BUILT_IN_PROFILE, widthTenthMm: 381, heightTenthMm: 127 }, CODE);
    expect(vial.text.lines).toBeGreaterThan(0);
    expect(vial.text.lines).toBeLessThan(6);
    expect(vial.fieldsAsked).toBe(6);
  });
});

describe("dataMatrixModules", () => {
  it("takes the smallest ECC 200 square holding the text one codeword a character", () => {
    expect(dataMatrixModules("V7K")).toBe(10);
    expect(dataMatrixModules(CODE)).toBe(16);
    expect(dataMatrixModules("X".repeat(50))).toBe(32);
  });
});
