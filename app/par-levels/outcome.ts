// What the bulk par level save answers (same shape as the other catalogue verbs).
import type { Outcome as AnyOutcome, Refused } from "~/users/outcome";

export type ParSheetRefusal = "forbidden" | "location_unavailable" | "variation_not_found";
export type Outcome<T extends object = object> = AnyOutcome<T, ParSheetRefusal>;
export type ParSheetRefused = Refused<ParSheetRefusal>;

export const PAR_SHEET_REFUSALS: Record<ParSheetRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  location_unavailable: "That location is archived or does not exist. Nothing was saved.",
  variation_not_found:
    "A variation on this page no longer exists in your organization. Nothing was saved: reload the page and try again.",
};

export function refuse<R extends ParSheetRefusal>(refusal: R, message = PAR_SHEET_REFUSALS[refusal]): Refused<R> {
  return { ok: false, refusal, message };
}

/** The form-level message when rows are refused by the row rules. */
export function invalidRowsMessage(count: number): string {
  return `${count === 1 ? "One row has a problem" : `${count} rows have problems`}. Nothing was saved: fix ${
    count === 1 ? "it" : "them"
  } and save again.`;
}
