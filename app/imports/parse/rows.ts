// One data row of a sales file → a sale, a row deliberately skipped (gift cards, packages, open
// invoices...) or an error saying which column holds what. Never throws: a file's worst row is an
// error in its report, never a failed import.

import { readSaleInstant } from "./dates";
import { type ColumnMapping, headerIndex, type SalesField } from "./fields";
import { readGtin } from "./gtin";
import { parseMoney } from "./money";
import { parseQuantity } from "./quantity";

export type SkipReason = "package" | "membership" | "gift_card" | "custom_amount" | "not_closed";

export type ParsedSalesRow =
  | {
      kind: "sale";
      rowNumber: number;
      soldAt: Date;
      item: { name: string; sku: string | null; gtin: string | null };
      itemKey: string;
      quantity: number;
      netCents: number;
      transactionRef: string | null;
      provider: string | null;
      locationValue: string | null;
      keyMaterial: string;
    }
  | { kind: "skip"; rowNumber: number; reason: SkipReason }
  | { kind: "error"; rowNumber: number; column: string | null; value: string | null; message: string };

/** The longest value kept with a row's error (import_row_errors.value). */
export const ERROR_VALUE_MAX = 200;

/** Item types that are not stock or services: skipped, and why (Square's Itemization Type, Zenoti's Item Type). */
const SKIPPED_TYPES: Record<string, SkipReason> = {
  "gift card": "gift_card",
  giftcard: "gift_card",
  "prepaid card": "gift_card",
  "custom amount": "custom_amount",
  package: "package",
  membership: "membership",
};

function fold(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** How lines find their sale item: the GTIN (as GTIN-14), else the SKU, else the name folded. */
export function itemKeyOf(item: { name: string; sku: string | null; gtin: string | null }): string {
  if (item.gtin) return `gtin:${item.gtin.padStart(14, "0")}`;
  if (item.sku) return `sku:${item.sku.trim()}`;
  return `name:${fold(item.name)}`;
}

function cut(value: string): string {
  return value.length > ERROR_VALUE_MAX ? value.slice(0, ERROR_VALUE_MAX) : value;
}

/** One data row (cells in header order) → a sale, a skip or an error. Never throws. */
export function parseSalesRow(
  cells: readonly string[],
  headers: readonly string[],
  mapping: ColumnMapping,
  rowNumber: number,
  defaultTimeZone: string,
): ParsedSalesRow {
  try {
    return readRow(cells, headers, mapping, rowNumber, defaultTimeZone);
  } catch {
    return { kind: "error", rowNumber, column: null, value: null, message: "This row could not be read." };
  }
}

function readRow(
  cells: readonly string[],
  headers: readonly string[],
  mapping: ColumnMapping,
  rowNumber: number,
  defaultTimeZone: string,
): ParsedSalesRow {
  const columnOf = (field: SalesField): number => headerIndex(headers, mapping[field]);
  const columnName = (field: SalesField): string | null => {
    const index = columnOf(field);
    return index >= 0 ? (headers[index] ?? null) : (mapping[field] ?? null);
  };
  const value = (field: SalesField): string => {
    const index = columnOf(field);
    if (index < 0) return "";
    const cell = String(cells[index] ?? "").trim();
    return cell === "None" ? "" : cell;
  };
  const error = (field: SalesField, message: string): ParsedSalesRow => {
    const read = value(field);
    return { kind: "error", rowNumber, column: columnName(field), value: read === "" ? null : cut(read), message };
  };

  // What is skipped is skipped before anything else is checked (a gift card's row needs no valid date).
  const itemType = fold(value("itemType"));
  const skipped = SKIPPED_TYPES[itemType];
  if (skipped) return { kind: "skip", rowNumber, reason: skipped };
  if (columnOf("status") >= 0 && fold(value("status")) !== "closed") {
    return { kind: "skip", rowNumber, reason: "not_closed" };
  }

  const name = value("item");
  if (name === "") return error("item", "The item is empty: every line names what was sold.");

  const instant = readSaleInstant(
    { date: value("date"), time: value("time"), timeZone: value("timeZone") },
    defaultTimeZone,
  );
  if (!instant.ok) return error(instant.part, instant.message);

  let quantity = 1;
  if (columnOf("quantity") >= 0) {
    const read = parseQuantity(value("quantity"));
    if (!read.ok) return error("quantity", read.message);
    if (read.quantity === 0) return error("quantity", "The quantity is 0: a line sells at least one unit.");
    quantity = read.quantity;
  }

  const money = parseMoney(value("netSales"));
  if (!money.ok) return error("netSales", money.message);

  const gtin = readGtin(value("gtin"));
  if (!gtin.ok) return error("gtin", gtin.message);

  // A refund: Square writes a negative Qty, or Event Type "Refund" with a positive one; Zenoti a Sale
  // Type "Refund". Quantity and amount are both negative then.
  const refund = quantity < 0 || fold(value("eventType")) === "refund" || fold(value("saleType")) === "refund";
  const netCents = refund ? -Math.abs(money.cents) : money.cents;
  if (refund) quantity = -Math.abs(quantity);

  const sku = value("sku");
  const item = { name, sku: sku === "" ? null : sku, gtin: gtin.gtin };
  const itemKey = itemKeyOf(item);
  const transactionRef = value("transactionId") || null;
  const provider = value("provider") || null;
  const locationValue = value("location") || null;
  const keyMaterial = transactionRef
    ? `tx|${transactionRef}|${itemKey}|${quantity}|${netCents}|${refund ? "refund" : "sale"}`
    : `row|${instant.at.toISOString()}|${itemKey}|${quantity}|${netCents}|${locationValue ?? ""}|${provider ?? ""}`;
  return {
    kind: "sale",
    rowNumber,
    soldAt: instant.at,
    item,
    itemKey,
    quantity,
    netCents,
    transactionRef,
    provider,
    locationValue,
    keyMaterial,
  };
}
