// The refusals of the imports' upload, preview, queue and discard verbs: their names and messages
// (the Outcome shape is app/outcome.ts). A malformed file is refused with what is wrong and what to
// do about it, and leaves nothing behind (no R2 object, no job row).
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const IMPORT_UPLOAD_MESSAGES = {
  tooLarge: (limit: number, format: "csv" | "xlsx") =>
    format === "xlsx"
      ? `The Excel file is larger than ${mib(limit)}, the most an Excel file can be. Export the report as CSV instead (up to ${mib(90 * 1024 * 1024)}), or export it in shorter periods, e.g. a month at a time, and upload each file.`
      : `The file is larger than ${mib(limit)}, the most one import takes. Export the sales in shorter periods, e.g. a month at a time, and upload each file.`,
  rowTooLong: (limit: number) =>
    `A row of the file is longer than ${Math.round(limit / 1024)} KB: this is not a sales export (a CSV row holds one sale). Check that you chose the right file.`,
  tooWide: (found: number, limit: number) =>
    `A row of the file has ${found.toLocaleString("en-US")} columns; a sales export has at most ${limit}. Check that you chose the right file.`,
  wrongHeaders: (found: readonly string[], needed: readonly string[]) =>
    `The file's columns (${found.length === 0 ? "none found" : found.slice(0, 20).join(", ")}${found.length > 20 ? ", …" : ""}) include none of those a sales file needs: ${needed.join(", ")}. Upload a point-of-sale sales export, e.g. Square's item sales or Zenoti's sales accrual report.`,
  missingFields: (missing: readonly string[]) =>
    `Say which column holds ${missing.join(", ")}: the file's columns do not match a known export, nor a mapping saved for it.`,
} as const;

export const { messages: IMPORT_REFUSALS, refuse } = refusalsOf({
  not_found: "That import does not exist here.",
  invalid: "Check the values entered.",
  not_multipart: "Send the file as a multipart/form-data form with the fields kind, locationId and file.",
  no_file: "Choose a CSV or Excel (.xlsx) file to upload.",
  empty: "The file is empty: there is nothing to import. Export the sales again and upload that file.",
  no_rows: "The file has its header row but no rows below it: there is nothing to import.",
  binary:
    "This is not a CSV or Excel (.xlsx) file: it holds binary data or text that is not UTF-8. Export the sales as CSV or XLSX and upload that file.",
  too_large: IMPORT_UPLOAD_MESSAGES.tooLarge(90 * 1024 * 1024, "csv"),
  row_too_long: IMPORT_UPLOAD_MESSAGES.rowTooLong(64 * 1024),
  too_wide: IMPORT_UPLOAD_MESSAGES.tooWide(201, 200),
  wrong_headers: "The file's columns are not those of a sales export.",
  missing_fields: "Say which columns hold the date, the item, the quantity and the net sales.",
  bad_mapping: 'The column mapping must be a JSON object of field → header name, e.g. {"item": "Item Name"}.',
  unknown_header: "Choose one of the file's own columns for each field.",
  location_needed: "Choose the location these sales belong to, or map the file's location column.",
  location_unavailable: "That location is archived or is not one you may import into. Choose another one.",
  location_values: "Choose a location for each location named in the file.",
  kind: "Say what the file holds: kind is sales or recipes.",
  not_preview: "This import was already queued or discarded: reload the page to see where it is.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type ImportRefusal = keyof typeof IMPORT_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, ImportRefusal>;
export type ImportRefused = Refused<ImportRefusal>;
