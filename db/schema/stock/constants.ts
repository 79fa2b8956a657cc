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

/** Why an item was discarded (domain.md "Stock"): the first five a person picks, the rest are booked by the system or by later flows. */
export const DISCARD_REASONS = [
  "expired",
  "contaminated",
  "damaged",
  "recalled",
  "other",
  "beyond_use_deadline",
  "lost_in_transit",
  "missing_in_count",
] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

/** The reasons a person may give when discarding a vial by hand ("other" needs a note). */
export const CHOSEN_DISCARD_REASONS = ["expired", "contaminated", "damaged", "recalled", "other"] as const;
export type ChosenDiscardReason = (typeof CHOSEN_DISCARD_REASONS)[number];

/** Why bulk stock was adjusted by hand ("other" needs a note); stored as the ADJUST movement's reason. */
export const ADJUST_REASONS = ["count_correction", "damaged", "expired", "donated", "other"] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

/** Longest patient reference kept on a usage entry: an opaque chart number, never a name. */
export const PATIENT_REF_MAX = 64;
/**
 * What a chart number is made of: letters, digits and - _ . / #. No spaces (a space means a
 * name was typed), nothing invisible, nothing a search or a CSV export could read differently.
 */
export const PATIENT_REF_PATTERN = /^[A-Za-z0-9\-_./#]+$/;

/** Receipts are open while lines are added, then completed (stock is in) or cancelled (nothing was). */
export const RECEIPT_STATUSES = ["open", "completed", "cancelled"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];
