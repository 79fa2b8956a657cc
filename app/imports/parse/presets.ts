// The exports recognised by their headers, and their columns. Square's item sales export (older
// exports have fewer columns) and Zenoti's sales accrual report (title rows above the header, a
// totals row at the end). Customer names, notes and card data are never mapped to anything.

import { type ColumnMapping, headerIndex, headerKey } from "./fields";

export type PresetId = "square" | "zenoti";

export const PRESETS: Record<PresetId, { name: string; mapping: ColumnMapping }> = {
  square: {
    name: "Square item sales",
    mapping: {
      date: "Date",
      time: "Time",
      timeZone: "Time Zone",
      item: "Item",
      quantity: "Qty",
      sku: "SKU",
      gtin: "GTIN",
      netSales: "Net Sales",
      transactionId: "Transaction ID",
      eventType: "Event Type",
      itemType: "Itemization Type",
      location: "Location",
      provider: "Employee",
    },
  },
  zenoti: {
    name: "Zenoti sales accrual",
    mapping: {
      date: "Invoice Closed Date",
      item: "Item Name",
      quantity: "Qty",
      sku: "Item Code",
      netSales: "Sales (Exc. Tax)",
      transactionId: "Invoice No",
      itemType: "Item Type",
      saleType: "Sale Type",
      status: "Status",
      location: "Center",
      provider: "Employee",
    },
  },
};

function has(keys: Set<string>, ...headers: string[]): boolean {
  return headers.every((h) => keys.has(headerKey(h)));
}

export function recognisePreset(headers: readonly string[]): PresetId | null {
  const keys = new Set(headers.map(headerKey));
  if (
    has(keys, "Date", "Item", "Qty", "Net Sales") &&
    (has(keys, "Transaction ID") || has(keys, "Itemization Type") || has(keys, "Event Type"))
  ) {
    return "square";
  }
  if (
    has(keys, "Item Name", "Sales (Exc. Tax)", "Invoice Closed Date") &&
    (has(keys, "Item Type") || has(keys, "Invoice No"))
  ) {
    return "zenoti";
  }
  return null;
}

/** A preset's mapping limited to the columns this file has (an older Square export has no GTIN; a Zenoti report may have no Qty). */
export function presetMapping(preset: PresetId, headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const [field, header] of Object.entries(PRESETS[preset].mapping) as [keyof ColumnMapping, string][]) {
    const index = headerIndex(headers, header);
    if (index >= 0) mapping[field] = headers[index];
  }
  return mapping;
}

export function headerSignature(headers: readonly string[]): string {
  return headers
    .map((h) => h.trim().toLowerCase())
    .sort()
    .join("\u001f");
}

/** How far down a file its header may be (Zenoti puts the report's title, center and period above it). */
const HEADER_SEARCH_ROWS = 30;

export function findHeaderRow(rows: readonly string[][]): number {
  const top = rows.slice(0, HEADER_SEARCH_ROWS);
  const preset = top.findIndex((row) => recognisePreset(row) !== null);
  if (preset >= 0) return preset;
  // Otherwise the first row naming at least two columns, none of them a number (a title row names one).
  return top.findIndex((row) => {
    const named = row.filter((cell) => cell.trim() !== "");
    return named.length >= 2 && named.every((cell) => !/^[-+($]*[\d.,]+\)?$/.test(cell.trim()));
  });
}

export function isTotalsRow(cells: readonly string[]): boolean {
  const first = cells.find((cell) => cell.trim() !== "");
  return first !== undefined && /^(?:grand\s+)?totals?\s*:?$/i.test(first.trim());
}
