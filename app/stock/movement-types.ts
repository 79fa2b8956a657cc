// The kinds of stock movement (domain.md "Stock"): every change of on-hand stock is one of these,
// recorded in the append-only ledger. No dependencies: the schema, the server and the UI share it.

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
