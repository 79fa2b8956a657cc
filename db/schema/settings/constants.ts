// The choices of a printer profile (spec route /printer-settings) that printer_profiles checks.
// Imports nothing, so the settings pages can list them without pulling database code into the
// browser; their display names live in app/labels/options.ts.

/** A browser print sheet (CSS @page, one label per sticker) or ZPL for Zebra printers. */
export const LABEL_OUTPUTS = ["browser", "zpl"] as const;
export type LabelOutput = (typeof LABEL_OUTPUTS)[number];

/** How ZPL reaches the printer: a downloaded file, or Zebra Browser Print on the client machine. */
export const ZPL_DELIVERIES = ["download", "browser_print"] as const;
export type ZplDelivery = (typeof ZPL_DELIVERIES)[number];

export const LABEL_SYMBOLOGIES = ["code128", "datamatrix", "both"] as const;
export type LabelSymbology = (typeof LABEL_SYMBOLOGIES)[number];

export const PRINTER_DPIS = [203, 300] as const;
export type PrinterDpi = (typeof PRINTER_DPIS)[number];

/** What a label can show besides its barcode, in print order. */
export const LABEL_FIELDS = ["product", "variation", "lot", "expiry", "received", "label_code"] as const;
export type LabelField = (typeof LABEL_FIELDS)[number];
