// Sales files as the point-of-sale systems export them, for the imports' tests: Square's item
// sales export (its full header row, in its order) and Zenoti's sales accrual report (title rows
// above the header, a totals row at the end).
import Papa from "papaparse";

export const SQUARE_HEADERS = [
  "Date",
  "Time",
  "Time Zone",
  "Category",
  "Item",
  "Qty",
  "Price Point Name",
  "SKU",
  "Modifiers Applied",
  "Gross Sales",
  "Discounts",
  "Net Sales",
  "Tax",
  "Transaction ID",
  "Payment ID",
  "Device Name",
  "Notes",
  "Details",
  "Event Type",
  "Location",
  "Dining Option",
  "Customer ID",
  "Customer Name",
  "Customer Reference ID",
  "Unit",
  "Count",
  "Itemization Type",
  "Commission",
  "Employee",
  "Fulfillment Note",
  "Channel",
  "Token",
  "Card Brand",
  "PAN Suffix",
  "GTIN",
];

export const ZENOTI_HEADERS = [
  "Item Type",
  "Item Name",
  "Item Code",
  "Sale Type",
  "Sales (Exc. Tax)",
  "Invoice Closed Date",
  "Status",
  "Invoice No",
  "Center",
  "Employee",
  "Qty",
];

/** One Square row: the named columns set, every other column as Square leaves it (empty, or a customer's details). */
export function squareRow(values: Record<string, string>): string[] {
  const defaults: Record<string, string> = {
    "Time Zone": "Eastern Time (US & Canada)",
    "Customer Name": "Jane Customer",
    "Card Brand": "Visa",
    "PAN Suffix": "4242",
    Notes: "private note",
    "Itemization Type": "Physical Item",
    "Event Type": "Payment",
  };
  return SQUARE_HEADERS.map((h) => values[h] ?? defaults[h] ?? "");
}

export function squareCsv(rows: Record<string, string>[]): string {
  return `\uFEFF${Papa.unparse([SQUARE_HEADERS, ...rows.map(squareRow)], { newline: "\r\n" })}\r\n`;
}

export function zenotiRow(values: Record<string, string>): string[] {
  return ZENOTI_HEADERS.map((h) => values[h] ?? (h === "Status" ? "Closed" : h === "Sale Type" ? "Sale" : ""));
}

export function zenotiCsv(rows: Record<string, string>[]): string {
  const title = [["Sales Accrual Report"], ["Center: Downtown"], ["From 03/01/2026 To 03/31/2026"], []];
  const total = ["Total", "", "", "", "0.00", "", "", "", "", "", ""];
  return `${Papa.unparse([...title, ZENOTI_HEADERS, ...rows.map(zenotiRow), total], { newline: "\r\n" })}\r\n`;
}
