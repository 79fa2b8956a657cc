// Plain values the receiving pages render, apart from the zod schemas (in forms.ts):
// page size, status names, field limits and the messages a refused line shows under its field.
import { GS1_LOT_MAX, GS1_SERIAL_MAX, GS1_TEXT_MESSAGES } from "~/stock/gs1";

export const RECEIPTS_PAGE_SIZE = 25;

export const RECEIPT_STATUS_FILTERS = ["all", "open", "completed", "cancelled"] as const;
export type ReceiptStatusFilter = (typeof RECEIPT_STATUS_FILTERS)[number];
export const RECEIPT_STATUS_LABELS: Record<ReceiptStatusFilter, string> = {
  all: "All",
  open: "Open",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** Packages on one line (vials, boxes): the receipt_lines CHECK allows 1 to 1000. */
export const LINE_QUANTITY_MAX = 1000;
/** Lines on one receipt, and labelled items one completion makes: a bigger delivery is split into receipts. */
export const RECEIPT_LINES_MAX = 200;
export const RECEIPT_ITEMS_MAX = 1000;
/** A lot dated more than this many years ahead is implausible: it needs a confirmed reason, like an expired one. */
export const EXPIRY_YEARS_MAX = 10;
export const EXPIRY_REASON_MIN = 3;
export const EXPIRY_REASON_MAX = 200;
/** A lot (GS1 AI 10) and a serial (AI 21) are "X..20" in GS1 character set 82 (see ~/stock/gs1). */
export const LOT_MAX = GS1_LOT_MAX;
export const SERIAL_MAX = GS1_SERIAL_MAX;
export const REFERENCE_MAX = 100;
export const NOTES_MAX = 2000;

export const LINE_MESSAGES = {
  variation: "Choose the product variation that arrived.",
  quantity: `Enter the number of packages received, a whole number from 1 to ${LINE_QUANTITY_MAX}.`,
  lot: GS1_TEXT_MESSAGES.lotTooLong,
  lotCharacters: GS1_TEXT_MESSAGES.lotCharacters,
  serial: GS1_TEXT_MESSAGES.serialTooLong,
  serialCharacters: GS1_TEXT_MESSAGES.serialCharacters,
  serialOne: "A serial number identifies one package: set the quantity to 1, or leave the serial empty.",
  expirationDate: "Enter the expiration date as a real date, YYYY-MM-DD (e.g. 2027-03-31), or leave it empty.",
  unitCost: "Enter the unit cost as an amount like 12.50 (at most two decimals), or leave it empty.",
  expiryReason: `Say why this lot is received anyway, in ${EXPIRY_REASON_MIN} to ${EXPIRY_REASON_MAX} characters (e.g. Received for return to vendor).`,
  expiryConfirm: "Tick the box to confirm this lot is received anyway, and give the reason.",
} as const;

/** Which confirmation a lot's expiration date needs on the day it is received (UTC), if any. */
export type ExpiryCheck = "expired" | "far_future";

/** What the Add line form says about such a lot, worded on the server (dates as screens show them). */
export interface ExpiryNotice {
  check: ExpiryCheck;
  warning: string;
}

/**
 * The message under the expiration date when a lot needs confirming; `shownDate` is the date as
 * screens show it (formatDate in ~/ui/dates, spec section 4).
 */
export function expiryWarning(check: ExpiryCheck, shownDate: string): string {
  return check === "expired"
    ? `This lot expired on ${shownDate}. To receive it anyway (for example to return it to the vendor), tick the confirmation and give the reason.`
    : `This expiration date (${shownDate}) is more than ${EXPIRY_YEARS_MAX} years away: check it for a typo. If it is right, tick the confirmation and give the reason.`;
}

/** Why more arrived than the order still expected (receipts.over_receipt_reason). */
export const OVER_RECEIPT_REASON_MIN = 3;
export const OVER_RECEIPT_REASON_MAX = 200;
export const OVER_RECEIPT_MESSAGES = {
  label: "Received more than ordered: say why",
  reason: `This receipt brings more than the order still expects (or something not on it): say why, in ${OVER_RECEIPT_REASON_MIN} to ${OVER_RECEIPT_REASON_MAX} characters (e.g. Vendor sent a case instead of a box).`,
} as const;

export const OPEN_MESSAGES = {
  location: "Choose the location receiving this delivery.",
  reference: `The reference is too long (at most ${REFERENCE_MAX} characters).`,
  notes: `The notes are too long (at most ${NOTES_MAX} characters).`,
} as const;

/** What the add-products page's forms ask its action to do. */
export const RECEIPT_INTENTS = ["scan", "attach-gtin", "add-line", "remove-line", "complete", "cancel"] as const;
export type ReceiptIntent = (typeof RECEIPT_INTENTS)[number];

export const addProductsPath = (receiptId: string) => `/receiving/${receiptId}/add-products`;
export const printLabelsPath = (receiptId: string) => `/receiving/${receiptId}/print-labels`;

/** What the "Add line" form shows: filled by a scan, or what was typed before a refusal. */
export interface LineFormValues {
  variationId: string;
  quantity: string;
  lot: string;
  expirationDate: string;
  unitCost: string;
  serial: string;
  /** The expiry confirmation, once the page has asked for it. */
  expiryConfirmed?: boolean;
  expiryReason?: string;
}

export const EMPTY_LINE: LineFormValues = {
  variationId: "",
  quantity: "",
  lot: "",
  expirationDate: "",
  unitCost: "",
  serial: "",
};

/** What the page learnt from a scan. */
export type ScanReading =
  | { kind: "found"; gtin: string; label: string; prefill: LineFormValues }
  /** A GTIN no variation of the catalogue has: the page offers to attach it. */
  | { kind: "unknown"; gtin: string; prefill: LineFormValues }
  | { kind: "unreadable"; message: string };
