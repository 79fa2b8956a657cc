// The browser print sheet: each label's barcodes as SVG and its texts, placed in millimetres from
// the same dot layout the ZPL uses, plus the CSS that makes the print dialog print one label per
// sticker (@page at the label's size, no margin, the app around it hidden, the offsets applied).

import { code128Svg, dataMatrixSvg } from "./barcodes.server";
import type { Placed, SheetLabel } from "./label-sheet";
import { type Box, layoutLabel } from "./layout";
import type { LabelProfile } from "./options";
import { type LabelItem, labelLines } from "./texts";

export interface LabelSheetData {
  widthMm: number;
  heightMm: number;
  copies: number;
  labels: SheetLabel[];
  /** Fields the profile asks for, and how many of them fit on its label size. */
  fieldsAsked: number;
  fieldsShown: number;
  css: string;
}

const mm = (dots: number, dotsPerMm: number) => Math.round((dots / dotsPerMm) * 1000) / 1000;

export function labelSheet(profile: LabelProfile, items: readonly LabelItem[]): LabelSheetData {
  const labels = items.map((item): SheetLabel => {
    const layout = layoutLabel(profile, item.labelCode);
    const place = (box: Box): Placed => ({
      left: mm(box.x, layout.dotsPerMm),
      top: mm(box.y, layout.dotsPerMm),
      width: mm(box.width, layout.dotsPerMm),
      height: mm(box.height, layout.dotsPerMm),
    });

    let code128: SheetLabel["code128"] = null;
    if (layout.code128) {
      // The real symbol may be narrower than the widest one the layout kept room for: centre it.
      const { svg, modules } = code128Svg(item.labelCode);
      const { box, module } = layout.code128;
      const width = modules * module;
      code128 = { svg, ...place({ ...box, x: box.x + Math.floor((box.width - width) / 2), width }) };
    }
    let dataMatrix: SheetLabel["dataMatrix"] = null;
    if (layout.dataMatrix) {
      const { svg, modules } = dataMatrixSvg(item.labelCode);
      const { box, module } = layout.dataMatrix;
      dataMatrix = { svg, ...place({ ...box, width: modules * module, height: modules * module }) };
    }
    const { box, lineDots, fontDots, lines } = layout.text;
    return {
      labelCode: item.labelCode,
      code128,
      dataMatrix,
      lines: labelLines(item, profile.fields)
        .slice(0, lines)
        .map((text, i) => ({ text, ...place({ ...box, y: box.y + i * lineDots, height: lineDots }) })),
      fontMm: mm(fontDots, layout.dotsPerMm),
    };
  });

  // Label codes are all of one length, so every label of the sheet fits the same texts.
  const sample = layoutLabel(profile, items[0]?.labelCode ?? "V000000000");
  const widthMm = profile.widthTenthMm / 10;
  const heightMm = profile.heightTenthMm / 10;
  return {
    widthMm,
    heightMm,
    copies: profile.copies,
    labels,
    fieldsAsked: profile.fields.length,
    fieldsShown: sample.text.lines,
    css: printCss({
      widthMm,
      heightMm,
      offsetXMm: mm(sample.offset.x, sample.dotsPerMm),
      offsetYMm: mm(sample.offset.y, sample.dotsPerMm),
    }),
  };
}

/**
 * The page is one sticker; everything but the sheet is hidden when printing (the app shell's
 * sidebar, header and toasts, and whatever the screen marks `print-hide`).
 */
export function printCss(size: { widthMm: number; heightMm: number; offsetXMm: number; offsetYMm: number }): string {
  return `@page { size: ${size.widthMm}mm ${size.heightMm}mm; margin: 0; }
@media print {
  html, body { background: #fff !important; margin: 0 !important; padding: 0 !important; height: auto !important; }
  aside, header, [data-testid="drawer"], [data-testid="toast"], [aria-label^="Notifications"], .print-hide { display: none !important; }
  main, div:has(> main) { margin: 0 !important; padding: 0 !important; max-width: none !important; }
  .label-sheet { display: block !important; gap: 0 !important; }
  .label { margin: 0 !important; border: 0 !important; outline: 0 !important; box-shadow: none !important; break-after: page; break-inside: avoid; }
  .label:last-child { break-after: auto; }
  .label-content { transform: translate(${size.offsetXMm}mm, ${size.offsetYMm}mm); }
}`;
}
