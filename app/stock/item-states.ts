// States of a serialized item (a vial, syringe or kit) and why one is discarded (domain.md "Stock").
// No dependencies: the schema, the server and the UI share it.

export const ITEM_STATES = ["sealed", "in_use", "empty", "discarded", "in_transit"] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export const DISCARD_REASONS = ["expired", "contaminated", "damaged", "other"] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

/** Receipts are open while lines are added, then completed (stock is in) or cancelled (nothing was). */
export const RECEIPT_STATUSES = ["open", "completed", "cancelled"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];
