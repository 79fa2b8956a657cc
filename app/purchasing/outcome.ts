// The purchasing verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";
import { ORDER_LINES_MAX } from "./constants";

export const { messages: PURCHASING_REFUSALS, refuse } = refusalsOf({
  not_found: "That purchase order does not exist at this location.",
  invalid: "Check the values entered.",
  location_unavailable: "That location is archived or is not one of your organization's. Choose another one.",
  vendor_unavailable: "That vendor is archived or is not one of your organization's. Choose another one.",
  variation_unavailable: "That product variation is archived or is not one of your organization's.",
  already_on_order: "That product variation is on this order already: change its line instead.",
  duplicate_line: "The same product variation is listed twice: put it on one line.",
  too_many_lines: `An order holds at most ${ORDER_LINES_MAX} lines.`,
  line_not_found: "That line is not on this order any more. Reload the page to see its lines.",
  not_draft: "Only a draft is edited freely: revise a submitted order instead, with a reason.",
  empty: "This order has no lines yet. Add items before submitting it.",
  not_revisable: "Only a submitted or partly received order can be revised.",
  below_received: "A line cannot be revised below what has already arrived.",
  line_received: "Part of this line has arrived: it stays on the order (lower it to what arrived instead).",
  nothing_changed: "The revision changes nothing: change a line's packages or cost, add a line or remove one.",
  not_cancellable: "Only a draft, or a submitted order of which nothing has arrived, can be cancelled.",
  reason_needed: "Say why: a submitted order is cancelled only with a reason.",
  not_closable: "Only a submitted, partly received or received order can be closed.",
  close_reason_needed: "Closing an order with lines outstanding asks for a reason.",
  receipt_open: "A receipt against this order is still open: complete or cancel it first.",
  changed: "This order changed while you were working on it. Reload the page and check it.",
  number_taken: "Another order took that number at the same moment. Try again.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type PurchasingRefusal = keyof typeof PURCHASING_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, PurchasingRefusal>;
export type PurchasingRefused = Refused<PurchasingRefusal>;
