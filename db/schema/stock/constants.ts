// The stock vocabulary the tables below check (domain.md "Stock"). Imports nothing, so the UI can
// use these lists without pulling database code into the browser.

/** The kinds of stock movement: every change of on-hand stock is one of these, in the append-only ledger. */
export const MOVEMENT_TYPES = [
  "RECEIVE",
  "START",
  "USE",
  "EMPTY",
  "DISCARD",
  "WASTE",
  "ADJUST",
  "COUNT",
  "TRANSFER_OUT",
  "TRANSFER_IN",
  "SALE",
] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

/** What a movement's reference points at (receipt, transfer, audit, CSV import, usage entry). */
export const MOVEMENT_REFERENCE_TYPES = ["receipt", "transfer", "audit", "import", "usage"] as const;
export type MovementReferenceType = (typeof MOVEMENT_REFERENCE_TYPES)[number];

/** States of a serialized item (a vial, syringe or kit). */
export const ITEM_STATES = ["sealed", "in_use", "empty", "discarded", "in_transit"] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** Why an item was discarded. */
export const DISCARD_REASONS = ["expired", "contaminated", "damaged", "other"] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

/** Receipts are open while lines are added, then completed (stock is in) or cancelled (nothing was). */
export const RECEIPT_STATUSES = ["open", "completed", "cancelled"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];
