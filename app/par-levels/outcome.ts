// The bulk par level save's refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: PAR_SHEET_REFUSALS, refuse } = refusalsOf({
  location_unavailable: "That location is archived or does not exist. Nothing was saved.",
  variation_not_found:
    "A variation on this page no longer exists in your organization. Nothing was saved: reload the page and try again.",
});

export type ParSheetRefusal = keyof typeof PAR_SHEET_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, ParSheetRefusal>;
export type ParSheetRefused = Refused<ParSheetRefusal>;

/** The form-level message when rows are refused by the row rules. */
export function invalidRowsMessage(count: number): string {
  return `${count === 1 ? "One row has a problem" : `${count} rows have problems`}. Nothing was saved: fix ${
    count === 1 ? "it" : "them"
  } and save again.`;
}
