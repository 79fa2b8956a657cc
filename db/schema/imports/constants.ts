// The imports vocabulary the tables below check (domain.md "import_job"). Imports nothing, so the UI
// can use these lists without pulling database code into the browser.

/** What a file brings: sales lines (a point-of-sale export) or recipes (service × variation × quantity). */
export const IMPORT_KINDS = ["sales", "recipes"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * A job's life. `preview`: uploaded and parsed for a first look, waiting for the person to confirm
 * its columns and location (or discard it). Then `queued → processing → completed | failed`, the
 * jobs worker's part (spec/API statuses).
 */
export const IMPORT_STATUSES = ["preview", "queued", "processing", "completed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The file formats read: CSV as uploaded; XLSX is converted to CSV rows at upload (./README in app/imports). */
export const IMPORT_FORMATS = ["csv", "xlsx"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Where a file's columns came from: a preset recognised by its headers, or a mapping a person made. */
export const IMPORT_SOURCES = ["square", "zenoti", "custom"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * What a point-of-sale item is to the clinic: a service (its recipe says what it consumes), a retail
 * variation (selling it takes stock), not yet known (`unmapped`: its rows are kept and counted), or
 * deliberately not stock (`ignored`, e.g. a consultation fee).
 */
export const SALE_ITEM_KINDS = ["service", "retail", "unmapped", "ignored"] as const;
export type SaleItemKind = (typeof SALE_ITEM_KINDS)[number];
