// The words printed on an item's label, in the order the profile lists its fields. Dates as the
// spec writes them ('MMM d, yyyy'), taken as calendar dates in UTC. Used on the server only.
import { format } from "date-fns";
import type { LabelField } from "~/printers/options";

/** What one item's label is made of. */
export interface LabelItem {
  labelCode: string;
  product: string;
  variation: string;
  lot: string | null;
  /** YYYY-MM-DD, the manufacturer's expiry. */
  expirationDate: string | null;
  receivedAt: Date;
}

/** "2027-03-31" → "Mar 31, 2027", whatever the server's time zone (a calendar date has none). */
export function formatLabelDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return format(new Date(year ?? 0, (month ?? 1) - 1, day ?? 1), "MMM d, yyyy");
}

/** The UTC calendar date of an instant, as YYYY-MM-DD. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function labelLine(item: LabelItem, field: LabelField): string {
  switch (field) {
    case "product":
      return item.product;
    case "variation":
      return item.variation;
    case "lot":
      return item.lot ? `Lot ${item.lot}` : "No lot";
    case "expiry":
      return item.expirationDate ? `Exp ${formatLabelDate(item.expirationDate)}` : "No expiration date";
    case "received":
      return `Rcvd ${formatLabelDate(utcDate(item.receivedAt))}`;
    case "label_code":
      return item.labelCode;
  }
}

export function labelLines(item: LabelItem, fields: readonly LabelField[]): string[] {
  return fields.map((field) => labelLine(item, field));
}

/** Stands in for a real item on the test-print page; every text says it is a sample. */
export function sampleLabelItem(today: Date): LabelItem {
  const nextYear = new Date(Date.UTC(today.getUTCFullYear() + 1, today.getUTCMonth(), 1));
  return {
    labelCode: "VTEST00000",
    product: "SAMPLE product (test print)",
    variation: "Sample 100 U vial",
    lot: "SAMPLE",
    expirationDate: utcDate(nextYear),
    receivedAt: today,
  };
}
