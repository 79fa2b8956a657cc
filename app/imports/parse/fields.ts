// The fields a sales file's columns are mapped to (by header name, never by position). What the
// rows of a point-of-sale export mean to the clinic: when, what, how many, for how much, where, who.

export const SALES_FIELDS = [
  "date",
  "time",
  "timeZone",
  "item",
  "quantity",
  "sku",
  "gtin",
  "netSales",
  "transactionId",
  "eventType",
  "itemType",
  "saleType",
  "status",
  "location",
  "provider",
] as const;
export type SalesField = (typeof SALES_FIELDS)[number];

/** Field → header name (the exact header text of the file). */
export type ColumnMapping = Partial<Record<SalesField, string>>;

export const REQUIRED_SALES_FIELDS: readonly SalesField[] = ["date", "item", "quantity", "netSales"];

/** A header as compared: trimmed, lower-cased, inner spaces folded (exports differ in case and spacing). */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, "")
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();
}

/** The index of `header` among `headers`: the exact text first, else the same header by headerKey; -1 if absent. */
export function headerIndex(headers: readonly string[], header: string | undefined): number {
  if (header === undefined) return -1;
  const exact = headers.indexOf(header);
  if (exact >= 0) return exact;
  const key = headerKey(header);
  return headers.findIndex((h) => headerKey(h) === key);
}
