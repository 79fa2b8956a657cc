// The lot recall verbs' refusals (mark, lift): their names, which the JSON API also answers as its
// error `code`, and messages that say what is wrong and what to do.
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: RECALL_REFUSALS, refuse } = refusalsOf({
  not_found: "That recall does not exist in your organization.",
  variation_not_found: "That product variation does not exist in your organization. Choose one from the catalogue.",
  invalid: "Check the values entered.",
  already_recalled:
    "This lot of this variation is already recalled. Lift that recall first if it was marked by mistake, or leave it in force.",
  already_lifted: "This recall was already lifted.",
  confirm_no_match:
    "No unused vial of this lot is in stock at any location: the recall would quarantine none now, only vials of it received later. Check the lot as printed on the vials, or confirm the recall.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type RecallRefusal = keyof typeof RECALL_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, RecallRefusal>;
export type RecallRefused = Refused<RecallRefusal>;
