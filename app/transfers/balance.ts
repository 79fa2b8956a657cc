// What a balancing suggestion is (issue 22): stock moved between two locations of the organization
// before anyone orders more, with why in one line. Read by app/transfers/balance.server.ts, shown on
// /transfers, and made into a draft transfer in one click. Browser-safe: no database code here.

/** A variation below its reorder point at one location and above its max at another; or a lot that expires before its location can use it. */
export type SuggestionKind = "below_reorder" | "expiring";

/** A line of the draft a suggestion becomes: a vial, or a bulk quantity in base units. */
export type SuggestedLine = { itemId: string } | { variationId: string; quantity: number };

export interface BalancingSuggestion {
  kind: SuggestionKind;
  fromLocationId: string;
  fromLocationName: string;
  toLocationId: string;
  toLocationName: string;
  productName: string;
  variationId: string;
  variationName: string;
  /** What the draft would carry. */
  lines: SuggestedLine[];
  /** Why, in one line: "Westside uses 12 vials a month; these 8 expire in 20 days at North, which used 2 in 90 days". */
  why: string;
}
