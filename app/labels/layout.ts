// Where things go on one label, in printer dots at the profile's resolution: the browser sheet and
// the ZPL builder both draw from this, so a label looks the same whichever way it is printed.
// Barcode modules are whole dots (a printer cannot print half a dot), sized to the sticker.
import type { LabelProfile } from "./options";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelLayout {
  dpi: number;
  dotsPerMm: number;
  widthDots: number;
  heightDots: number;
  /** White border kept around the content, in dots. */
  margin: number;
  /**
   * The profile's offsets in dots, never moving content past the label's top or left edge (a
   * printer cannot print there, and ZPL's label home cannot be negative).
   */
  offset: { x: number; y: number };
  /** The Code 128 symbol: `module` dots per narrow bar; the box holds the widest code of this length. */
  code128: { box: Box; module: number } | null;
  /** The DataMatrix symbol (quiet zone outside the box): `module` dots per cell. */
  dataMatrix: { box: Box; module: number } | null;
  /** The text lines: `lines` of the fields asked for fit, each `lineDots` tall in a `fontDots` font. */
  text: { box: Box; lineDots: number; fontDots: number; lines: number };
  fieldsAsked: number;
}

/** Code 128 modules of `length` characters in code set B, the widest encoding: start, data, check, stop. */
export function code128Modules(length: number): number {
  return 11 * (length + 2) + 13;
}

// ECC 200 square sizes and their data codewords.
const DATA_MATRIX_SQUARES: readonly [number, number][] = [
  [10, 3],
  [12, 5],
  [14, 8],
  [16, 12],
  [18, 18],
  [20, 22],
  [22, 30],
  [24, 36],
  [26, 44],
  [32, 62],
  [36, 86],
  [40, 114],
  [44, 144],
  [48, 174],
  [52, 204],
];

/** Cells per side of the DataMatrix for `text` in ASCII encoding (one codeword a character), the largest a printer may choose. */
export function dataMatrixModules(text: string): number {
  const codewords = [...new TextEncoder().encode(text)].reduce((n, byte) => n + (byte < 128 ? 1 : 2), 0);
  return (DATA_MATRIX_SQUARES.find(([, capacity]) => capacity >= codewords) ?? [144, 1558])[0];
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Code 128 wants ten modules of white each side; DataMatrix one. */
const CODE128_QUIET = 10;
const DATA_MATRIX_QUIET = 1;

export function layoutLabel(profile: LabelProfile, labelCode: string): LabelLayout {
  const dotsPerMm = profile.dpi / 25.4;
  const dots = (mm: number) => Math.round(mm * dotsPerMm);
  const widthMm = profile.widthTenthMm / 10;
  const heightMm = profile.heightTenthMm / 10;
  const widthDots = dots(widthMm);
  const heightDots = dots(heightMm);
  const margin = dots(clamp(Math.min(widthMm, heightMm) * 0.05, 1, 3));
  const gap = dots(0.75);
  const innerWidth = widthDots - 2 * margin;
  const innerHeight = heightDots - 2 * margin;
  const fieldsAsked = profile.fields.length;
  const wantsCode128 = profile.symbology !== "datamatrix";
  const wantsDataMatrix = profile.symbology !== "code128";

  // Code 128 across the bottom: the widest module (up to 0.375 mm) that fits with its quiet zones.
  let code128: LabelLayout["code128"] = null;
  let topHeight = innerHeight;
  if (wantsCode128) {
    const modules = code128Modules(labelCode.length);
    const module = Math.max(
      1,
      Math.min(Math.max(1, dots(0.375)), Math.floor(innerWidth / (modules + 2 * CODE128_QUIET))),
    );
    const alone = fieldsAsked === 0 && !wantsDataMatrix;
    const height = Math.min(innerHeight, alone ? dots(15) : clamp(Math.round(innerHeight * 0.4), dots(4), dots(15)));
    const width = module * modules;
    code128 = {
      box: { x: margin + Math.floor((innerWidth - width) / 2), y: margin + innerHeight - height, width, height },
      module,
    };
    topHeight = Math.max(0, innerHeight - height - gap);
  }

  // DataMatrix top left, beside the text: cells up to 0.5 mm, within the height left.
  let dataMatrix: LabelLayout["dataMatrix"] = null;
  let textX = margin;
  if (wantsDataMatrix) {
    const cells = dataMatrixModules(labelCode) + 2 * DATA_MATRIX_QUIET;
    const room = Math.min(topHeight, fieldsAsked > 0 ? Math.floor(innerWidth * 0.45) : innerWidth);
    const module = Math.max(1, Math.min(Math.max(1, dots(0.5)), Math.floor(room / cells)));
    const side = module * (cells - 2 * DATA_MATRIX_QUIET);
    dataMatrix = { box: { x: margin + module, y: margin + module, width: side, height: side }, module };
    textX = margin + module * cells + gap;
  }

  const textBox = { x: textX, y: margin, width: Math.max(0, margin + innerWidth - textX), height: topHeight };
  const lineDots = clamp(Math.floor(topHeight / Math.max(1, fieldsAsked)), dots(1.8), dots(3.2));
  const lines = Math.min(fieldsAsked, Math.floor(topHeight / lineDots));
  const offset = {
    x: Math.max(-margin, dots(profile.offsetXTenthMm / 10)),
    y: Math.max(-margin, dots(profile.offsetYTenthMm / 10)),
  };

  return {
    dpi: profile.dpi,
    dotsPerMm,
    widthDots,
    heightDots,
    margin,
    offset,
    code128,
    dataMatrix,
    text: { box: textBox, lineDots, fontDots: Math.round(lineDots * 0.8), lines },
    fieldsAsked,
  };
}
