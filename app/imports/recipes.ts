// A recipes file, read before anything is looked up: which columns say the service, the variation
// and the quantity per service (by header name, in any order), and each row's values. Pure (no
// database): the upload checks a file with it, the preview resolves its rows against the catalogue.

import { parseQuantity, type TypedQuantity } from "~/catalog/amounts";
import { headerKey } from "./parse/fields";

export const RECIPES_LIMITS = { maxBytes: 1024 * 1024, maxRows: 5000 } as const;

export type RecipeField = "service" | "variation" | "quantity";

/**
 * The headers each field is read from, best first. A file may have both a code and a name column
 * (or a SKU and a GTIN column): a row's first non-empty one is used.
 */
export const RECIPE_HEADERS: Record<RecipeField, readonly string[]> = {
  service: ["service code", "code", "service", "service name"],
  variation: ["variation sku", "sku", "variation gtin", "gtin", "barcode", "variation"],
  quantity: ["quantity per service", "quantity", "qty", "units per service", "amount"],
};

export const RECIPE_FIELD_LABELS: Record<RecipeField, string> = {
  service: "the service (its code or name)",
  variation: "the product variation (its SKU or GTIN)",
  quantity: "the quantity per service",
};

export const RECIPES_FILE_MESSAGES = {
  empty: "The file has no rows. Export the recipes with a header row and one row per service and product.",
  tooLarge: `A recipes file may be at most ${RECIPES_LIMITS.maxBytes / 1024 / 1024} MiB.`,
  tooManyRows: `A recipes file may have at most ${RECIPES_LIMITS.maxRows.toLocaleString("en-US")} rows: split it into several files.`,
  format: "Choose a CSV or XLSX file (a spreadsheet saved as .csv or .xlsx).",
  binary: "This file is not text: choose the CSV or XLSX file itself.",
  unreadableXlsx: "This XLSX file could not be read: open it in a spreadsheet and save it again, or save it as CSV.",
  noHeader: (missing: readonly RecipeField[]) =>
    `The file has no column for ${missing.map((f) => RECIPE_FIELD_LABELS[f]).join(", ")}. Name the columns in the header row, like Service Code, SKU and Quantity.`,
} as const;

export type RecipeColumns = Record<RecipeField, number[]>;

/** The columns of each field in `headers`, or the fields none of them name. */
export function recipeColumns(
  headers: readonly string[],
): { ok: true; columns: RecipeColumns } | { ok: false; missing: RecipeField[] } {
  const keys = headers.map(headerKey);
  const columns = {} as RecipeColumns;
  const missing: RecipeField[] = [];
  for (const field of Object.keys(RECIPE_HEADERS) as RecipeField[]) {
    const found = RECIPE_HEADERS[field].map((h) => keys.indexOf(h)).filter((i) => i >= 0);
    if (found.length === 0) missing.push(field);
    columns[field] = found;
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, columns };
}

/** Where the header is: the first of the top rows that names all three fields. -1 if none. */
export function recipeHeaderRow(rows: readonly string[][]): number {
  return rows.slice(0, 30).findIndex((row) => recipeColumns(row).ok);
}

export interface RecipeRowProblem {
  rowNumber: number;
  column: string | null;
  value: string | null;
  message: string;
}

export interface RecipeFileRow {
  /** The row's number as a spreadsheet shows it (the header is row 1 when it is the first row). */
  rowNumber: number;
  service: { column: string; value: string };
  variation: { column: string; value: string };
  quantity: { column: string; value: string; typed: TypedQuantity };
}

function firstValue(cells: readonly string[], headers: readonly string[], columns: number[]) {
  for (const i of columns) {
    const value = (cells[i] ?? "").trim();
    if (value !== "" && value !== "None") return { column: headers[i] ?? "", value };
  }
  return { column: headers[columns[0] ?? 0] ?? "", value: "" };
}

/**
 * The file's rows (header found, blank and totals rows dropped): each read, or the problem with it.
 * Values are looked up later (recipes.server.ts); here only what the row itself says is checked.
 */
export function readRecipeRows(
  rows: readonly string[][],
):
  | { ok: true; headers: string[]; rows: RecipeFileRow[]; problems: RecipeRowProblem[] }
  | { ok: false; message: string } {
  if (rows.length === 0) return { ok: false, message: RECIPES_FILE_MESSAGES.empty };
  const headerAt = recipeHeaderRow(rows);
  if (headerAt < 0) {
    const first = rows[0] ?? [];
    const read = recipeColumns(first);
    return { ok: false, message: RECIPES_FILE_MESSAGES.noHeader(read.ok ? [] : read.missing) };
  }
  const headers = rows[headerAt] as string[];
  const read = recipeColumns(headers);
  if (!read.ok) return { ok: false, message: RECIPES_FILE_MESSAGES.noHeader(read.missing) };
  const data = rows.slice(headerAt + 1);
  if (data.length === 0) return { ok: false, message: RECIPES_FILE_MESSAGES.empty };
  if (data.length > RECIPES_LIMITS.maxRows) return { ok: false, message: RECIPES_FILE_MESSAGES.tooManyRows };
  const parsed: RecipeFileRow[] = [];
  const problems: RecipeRowProblem[] = [];
  for (const [i, cells] of data.entries()) {
    const rowNumber = headerAt + i + 2;
    const service = firstValue(cells, headers, read.columns.service);
    const variation = firstValue(cells, headers, read.columns.variation);
    const quantity = firstValue(cells, headers, read.columns.quantity);
    const problem = (at: { column: string; value: string }, message: string) => {
      problems.push({ rowNumber, column: at.column, value: at.value === "" ? null : at.value.slice(0, 200), message });
    };
    if (service.value === "") problem(service, "The service is empty: give its code or name.");
    else if (variation.value === "") problem(variation, "The product variation is empty: give its SKU or GTIN.");
    else if (quantity.value === "") problem(quantity, "The quantity is empty: say how much one service uses.");
    else {
      const typed = parseQuantity(quantity.value);
      if (!typed.ok) problem(quantity, typed.message);
      else parsed.push({ rowNumber, service, variation, quantity: { ...quantity, typed: typed.quantity } });
    }
  }
  return { ok: true, headers, rows: parsed, problems };
}
