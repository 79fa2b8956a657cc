// ZPL II for Zebra printers: one ^XA … ^XZ format per label, laid out in dots by layoutLabel, so
// the printer draws the same label as the browser sheet. ZPL is a small text format; see
// docs/decisions/0009-labels-bwip-js-and-zpl.md for why it is written here rather than by a library.

import { layoutLabel } from "./layout";
import type { LabelProfile } from "./options";

/**
 * A field's data for ^FH (hexadecimal escapes, indicator "_"): ^ and ~ would start commands, _ is
 * the indicator itself, and anything outside printable ASCII goes as its UTF-8 bytes (^CI28).
 */
export function zplFieldData(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e && char !== "^" && char !== "~" && char !== "_") {
      out += char;
      continue;
    }
    for (const byte of new TextEncoder().encode(char)) out += `_${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Font 0 is proportional: about this many font heights per character, to cut a line before it wraps. */
const CHARACTER_WIDTH = 0.55;

/** One label: its barcodes and the first lines that fit, `copies` times. */
export function labelZpl(profile: LabelProfile, label: { labelCode: string; lines: readonly string[] }): string {
  const layout = layoutLabel(profile, label.labelCode);
  // Field origins are relative to the label home: the margin, moved by the profile's offsets.
  const home = { x: layout.margin + layout.offset.x, y: layout.margin + layout.offset.y };
  const at = (x: number, y: number) => `^FO${x - layout.margin},${y - layout.margin}`;
  const code = zplFieldData(label.labelCode);
  const out = ["^XA", "^CI28", `^PW${layout.widthDots}`, `^LL${layout.heightDots}`, `^LH${home.x},${home.y}`];

  if (layout.code128) {
    const { box, module } = layout.code128;
    out.push(`${at(box.x, box.y)}^BY${module}^BCN,${box.height},N,N,N,A^FH^FD${code}^FS`);
  }
  if (layout.dataMatrix) {
    const { box, module } = layout.dataMatrix;
    out.push(`${at(box.x, box.y)}^BXN,${module},200^FH^FD${code}^FS`);
  }
  const { box, lineDots, fontDots, lines } = layout.text;
  const fits = Math.max(1, Math.floor(box.width / (fontDots * CHARACTER_WIDTH)));
  label.lines.slice(0, lines).forEach((line, i) => {
    const text = zplFieldData([...line].slice(0, fits).join(""));
    out.push(`${at(box.x, box.y + i * lineDots)}^A0N,${fontDots},${fontDots}^FB${box.width},1,0,L^FH^FD${text}^FS`);
  });

  out.push(`^PQ${profile.copies}`, "^XZ");
  return out.join("\n");
}

/** A file of labels, one format after another. */
export function zplDocument(
  profile: LabelProfile,
  labels: readonly { labelCode: string; lines: readonly string[] }[],
): string {
  return `${labels.map((label) => labelZpl(profile, label)).join("\n")}\n`;
}
