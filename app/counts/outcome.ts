// The cycle counts' refusals: their names, which the JSON API answers as its error `code`, and
// messages that say what is wrong and what to do instead.
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: COUNT_REFUSALS, refuse } = refusalsOf({
  not_found: "No count with this id at a location you can reach. Open it from the counts list.",
  invalid: "Check the values entered.",
  location_unavailable: "This location is not an active location of your organization.",
  category_unknown: "No product of your organization is in this category.",
  products_unknown: "Choose active products of your organization.",
  closed:
    "This count is closed: it was submitted for review or approved. Start a new count, or ask a reviewer to send it back.",
  unknown_label: "No vial of your organization has this label code. Check the code, or scan the label again.",
  out_of_scope: "This product is not part of this count. Count only what the count covers.",
  units_needed: "This vial is started: enter the units left in it.",
  too_many_units: "More units than a full vial holds: check the units left.",
  bulk_only: "This product is tracked vial by vial: scan each vial's label instead of entering a quantity.",
  variation_unavailable: "Choose a product and size of your organization.",
  already_counted: "This vial is already counted in this count.",
  nothing_counted: "Nothing is counted yet: scan or enter what is on the shelves before submitting.",
  not_in_progress: "Only a count being counted can be submitted. A count sent back is counted again first.",
  not_submitted: "Only a submitted count can be approved or sent back.",
  another_count_open:
    "Another count is open at this location: a count sent back is counted again, and only one count is counted at a time. Submit or finish that count first, then send this one back.",
  changed: "The stock moved while the approval was being booked. Look at the count again and approve it again.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type CountRefusal = keyof typeof COUNT_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, CountRefusal>;
export type CountRefused = Refused<CountRefusal>;

/** A closed session's refusal, by its status. */
export function closedRefusal(status: string): CountRefused {
  if (status === "submitted") {
    return refuse("closed", "This count is submitted and waits for review: it can no longer be counted.");
  }
  if (status === "approved") return refuse("closed", "This count is approved and closed: start a new count.");
  return refuse("closed");
}
