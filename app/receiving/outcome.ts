// The receiving verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";
import { OVER_RECEIPT_MESSAGES, RECEIPT_ITEMS_MAX, RECEIPT_LINES_MAX } from "./constants";

export const { messages: RECEIVING_REFUSALS, refuse } = refusalsOf({
  not_found: "That receipt does not exist at this location.",
  invalid: "Check the values entered.",
  location_unavailable: "That location is archived or does not exist in your organization. Choose another one.",
  vendor_unavailable: "That vendor is archived or does not exist. Choose an active vendor, or none.",
  variation_unavailable:
    "That product variation is archived or does not exist in your organization. Choose an active one.",
  untraced:
    "Vials and other serialized items need their lot and expiration date (both are printed on the package; scanning its GS1 code fills them).",
  line_not_found: "That line is not on this receipt any more. Reload the page to see its lines.",
  completed: "This receipt is already completed; correct stock with an adjustment.",
  cancelled: "This receipt was cancelled and can no longer change. Start receiving again for this delivery.",
  empty: "This receipt has no lines yet. Add what arrived before completing it.",
  changed:
    "This receipt changed while you were completing it (another user may have completed it). Reload and check it.",
  label_codes: "Could not give every item its own label code. Nothing was received: complete the receipt again.",
  gtin_invalid: "That GTIN is not valid.",
  gtin_taken: "Another variation already uses this GTIN.",
  variation_has_gtin: "That variation already has a GTIN. Choose a variation without one.",
  expiry_unconfirmed: "This lot is expired or dated implausibly far ahead: confirm it and give the reason.",
  expiry_reason: "Say why this lot is received anyway.",
  serial_taken: "This serial number was already received or is on an open receipt.",
  too_many_lines: `A receipt holds at most ${RECEIPT_LINES_MAX} lines. Complete this one and put the rest of the delivery on a new receipt.`,
  too_many_items: `One receipt makes at most ${RECEIPT_ITEMS_MAX.toLocaleString("en-US")} labelled items. Split the delivery into several receipts.`,
  key_misused: IDEMPOTENCY_MESSAGES.misused,
  order_not_found: "That purchase order does not exist at this location, or you cannot read orders here.",
  order_not_receivable:
    "This purchase order is not waiting for a delivery: only a submitted or partially received order is received against.",
  order_closed:
    "This receipt's purchase order was closed or cancelled: nothing more is received against it. Cancel this receipt, or reload and check the order.",
  over_receipt_reason: OVER_RECEIPT_MESSAGES.reason,
});

export type ReceivingRefusal = keyof typeof RECEIVING_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, ReceivingRefusal>;
export type ReceivingRefused = Refused<ReceivingRefusal>;

/**
 * More labelled items than one completion makes: adding a line to a receipt that `already` has
 * that many, or completing one that `would` make that many (lines added before the cap existed).
 */
export function tooManyItems(count: { already: number } | { would: number }): Refused<"too_many_items"> {
  const max = RECEIPT_ITEMS_MAX.toLocaleString("en-US");
  const split = "(a large delivery is split into several receipts)";
  return refuse(
    "too_many_items",
    "already" in count
      ? `One receipt makes at most ${max} labelled items, and this one already has ${count.already.toLocaleString("en-US")}. Complete it, and put the rest of the delivery on a new receipt ${split}.`
      : `This receipt would make ${count.would.toLocaleString("en-US")} labelled items; one receipt makes at most ${max}. Remove lines and put them on a new receipt ${split}.`,
  );
}

/** A receipt that is no longer open, refused with the reason its status gives. */
export function closedReceipt(status: string): Refused<"completed" | "cancelled"> {
  return status === "cancelled" ? refuse("cancelled") : refuse("completed");
}

/** Why an order cannot be received against, by its status. */
export function notReceivable(status: string): Refused<"order_not_receivable"> {
  const why: Record<string, string> = {
    draft: "This purchase order is still a draft: submit it to the vendor before receiving against it.",
    received: "Everything on this purchase order has arrived: there is nothing left to receive against it.",
    closed: "This purchase order is closed: nothing more is received against it.",
    cancelled: "This purchase order was cancelled: nothing is received against it.",
  };
  return refuse("order_not_receivable", why[status] ?? RECEIVING_REFUSALS.order_not_receivable);
}
