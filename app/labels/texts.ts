// The words printed on an item's label, in the order the profile lists its fields. Dates as the
// spec writes them ('MMM d, yyyy'): the expiration date as written, the received day as it was at
// the receiving location (the receipt's screens show its times there too). Used on the server only.

import { formatDate, formatDayOf, utcDay } from "~/ui/dates";
import type { LabelField } from "../../db/schema/settings/constants";

/** What one item's label is made of. */
export interface LabelItem {
  labelCode: string;
  product: string;
  variation: string;
  lot: string | null;
  /** YYYY-MM-DD, the manufacturer's expiry. */
  expirationDate: string | null;
  receivedAt: Date;
  /** The receiving location's time zone: "Rcvd" prints the day it was there. */
  timeZone: string;
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
      return item.expirationDate ? `Exp ${formatDate(item.expirationDate)}` : "No expiration date";
    case "received":
      return `Rcvd ${formatDayOf(item.receivedAt, item.timeZone)}`;
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
    expirationDate: utcDay(nextYear),
    receivedAt: today,
    // A sample's day need not be any location's.
    timeZone: "UTC",
  };
}
