// How a printer profile's choices read on the page (spec route /printer-settings), and what a
// profile sets. The lists themselves are the schema's (db/schema/settings/constants.ts, which
// imports nothing, so this module stays light enough for the browser).
import {
  LABEL_FIELDS,
  type LabelField,
  type LabelOutput,
  type LabelSymbology,
  type PrinterDpi,
  type ZplDelivery,
} from "../../db/schema/settings/constants";

export const LABEL_OUTPUT_LABELS: Record<LabelOutput, string> = {
  browser: "Browser print sheet",
  zpl: "ZPL for a Zebra printer",
};

export const ZPL_DELIVERY_LABELS: Record<ZplDelivery, string> = {
  download: "Download a .zpl file",
  browser_print: "Send to Zebra Browser Print on this computer",
};

export const LABEL_SYMBOLOGY_LABELS: Record<LabelSymbology, string> = {
  code128: "Code 128",
  datamatrix: "DataMatrix",
  both: "Code 128 and DataMatrix",
};

export const LABEL_FIELD_LABELS: Record<LabelField, string> = {
  product: "Product",
  variation: "Variation",
  lot: "Lot",
  expiry: "Expiry date",
  received: "Received date",
  label_code: "Label code (as text)",
};

/** Limits the database checks too (db/schema/settings/printer-profiles.ts), in tenths of a millimetre. */
export const LABEL_SIZE_TENTH_MM = { min: 100, max: 2000 } as const;
export const LABEL_OFFSET_TENTH_MM = { min: -100, max: 100 } as const;
export const LABEL_COPIES = { min: 1, max: 10 } as const;

/** Common sticker sizes, named in inches as they are sold, stored in tenths of a millimetre. */
export const LABEL_SIZE_PRESETS = [
  { key: "2.25x1.25", label: "2.25 × 1.25 in (57.2 × 31.8 mm)", widthTenthMm: 572, heightTenthMm: 318 },
  { key: "2x1", label: "2 × 1 in (50.8 × 25.4 mm)", widthTenthMm: 508, heightTenthMm: 254 },
  { key: "1.5x0.5", label: "1.5 × 0.5 in vial label (38.1 × 12.7 mm)", widthTenthMm: 381, heightTenthMm: 127 },
  { key: "4x6", label: "4 × 6 in (101.6 × 152.4 mm)", widthTenthMm: 1016, heightTenthMm: 1524 },
] as const;
export type LabelSizePreset = (typeof LABEL_SIZE_PRESETS)[number]["key"];
export const CUSTOM_SIZE = "custom";

/** The preset a size matches, or "custom". */
export function presetOf(widthTenthMm: number, heightTenthMm: number): LabelSizePreset | typeof CUSTOM_SIZE {
  return (
    LABEL_SIZE_PRESETS.find((p) => p.widthTenthMm === widthTenthMm && p.heightTenthMm === heightTenthMm)?.key ??
    CUSTOM_SIZE
  );
}

/** Tenths of a millimetre as a person types them: 572 → "57.2", 500 → "50", -15 → "-1.5". */
export function millimetres(tenths: number): string {
  const sign = tenths < 0 ? "-" : "";
  const abs = Math.abs(tenths);
  const whole = Math.floor(abs / 10);
  const tenth = abs % 10;
  return `${sign}${whole}${tenth ? `.${tenth}` : ""}`;
}

/** What a printer profile sets, as print-labels and the label renderer read it. */
export interface LabelProfile {
  output: LabelOutput;
  zplDelivery: ZplDelivery;
  widthTenthMm: number;
  heightTenthMm: number;
  dpi: PrinterDpi;
  symbology: LabelSymbology;
  fields: readonly LabelField[];
  copies: number;
  offsetXTenthMm: number;
  offsetYTenthMm: number;
}

/** Used by print-labels at a location that has no default profile (yet). */
export const BUILT_IN_PROFILE: LabelProfile = {
  output: "browser",
  zplDelivery: "download",
  widthTenthMm: 572,
  heightTenthMm: 318,
  dpi: 203,
  symbology: "both",
  fields: LABEL_FIELDS,
  copies: 1,
  offsetXTenthMm: 0,
  offsetYTenthMm: 0,
};

export const PRINTER_PROFILE_INTENTS = ["update", "make_default", "archive", "restore"] as const;
export type PrinterProfileIntent = (typeof PRINTER_PROFILE_INTENTS)[number];

/** One line about a profile: "57.2 × 31.8 mm, 203 dpi, browser print sheet, Code 128 and DataMatrix, 6 texts, 1 copy". */
export function describeProfile(profile: LabelProfile): string {
  const output =
    profile.output === "browser"
      ? "browser print sheet"
      : profile.zplDelivery === "browser_print"
        ? "ZPL sent with Zebra Browser Print"
        : "ZPL file";
  const texts = profile.fields.length === 1 ? "1 text" : `${profile.fields.length} texts`;
  const copies = profile.copies === 1 ? "1 copy" : `${profile.copies} copies`;
  return [
    `${millimetres(profile.widthTenthMm)} × ${millimetres(profile.heightTenthMm)} mm`,
    `${profile.dpi} dpi`,
    output,
    LABEL_SYMBOLOGY_LABELS[profile.symbology],
    texts,
    copies,
  ].join(", ");
}
