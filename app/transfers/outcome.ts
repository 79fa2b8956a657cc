// The transfers verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";
import { TRANSFER_LINES_MAX } from "./constants";

export const { messages: TRANSFER_REFUSALS, refuse } = refusalsOf({
  not_found: "That transfer does not exist at this location.",
  invalid: "Check the values entered.",
  location_unavailable: "That location is archived or is not one of your organization's. Choose another one.",
  same_location: "A transfer goes to another location: choose a different one.",
  not_open: "This transfer is no longer being filled: lines can only change on a request or a draft.",
  not_draft: "Only a draft with lines can be sent.",
  empty: "This transfer has no lines yet. Add vials or bulk quantities before sending it.",
  not_in_transit: "This transfer is not on the way: there is nothing to receive.",
  not_cancellable: "Only a request or a draft can be cancelled; a transfer on the way can be recalled by its sender.",
  not_recallable: "Only a transfer on the way, with nothing received yet, can be recalled.",
  vial_not_found: "No vial has that label code in your organization. Check the code and scan again.",
  vial_elsewhere: "This vial is not at the sending location: only vials on its shelves can be sent.",
  vial_in_transit: "This vial is already on the way in another transfer.",
  vial_on_transfer: "This vial is already on an open transfer. Remove it from that one first.",
  vial_started: "This vial is open: a started vial stays where it was opened.",
  vial_ended: "This vial is empty or discarded: there is nothing to send.",
  lot_recalled: "This vial's lot is recalled: a recalled lot cannot be sent.",
  vial_expired: "This vial is past its expiration date: it cannot be sent. Discard it here as expired.",
  variation_unavailable: "That product variation is archived, not a bulk product, or not your organization's.",
  not_enough: "There is not that much on hand at the sending location.",
  too_many_lines: `A transfer holds at most ${TRANSFER_LINES_MAX} lines.`,
  line_not_found: "That line is not on this transfer any more. Reload the page to see its lines.",
  line_closed: "That line was already received or marked. Reload the page to see it.",
  receive_too_much: "More than was sent cannot arrive: enter at most the quantity sent.",
  short_vial: "A vial arrives whole or not at all: mark it received, missing or damaged.",
  not_a_discrepancy: "That line has no open discrepancy to resolve.",
  changed: "This transfer changed while you were working on it. Reload the page and check it.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type TransferRefusal = keyof typeof TRANSFER_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, TransferRefusal>;
export type TransferRefused = Refused<TransferRefusal>;
