// The vial verbs' refusals (start, draw, empty, discard): their names, which the JSON API also
// answers as its error `code`, and messages that say what is wrong and what to do instead.
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";
import { MANUFACTURER_EXPIRATION, USE_BY_DEADLINE } from "~/stock/expiry";

export const { messages: VIAL_REFUSALS, refuse } = refusalsOf({
  not_found:
    "No vial with this id at the location you are working at. Scan its label again, or switch to the vial's location.",
  invalid: "Check the values entered.",
  recalled:
    'This vial\'s lot is recalled: it is quarantined and cannot be started or drawn from. Discard it with the reason "recalled".',
  use_by_passed: `This vial is past its ${USE_BY_DEADLINE}: it can no longer be drawn from. Empty or discard it.`,
  manufacturer_expired: `This vial is past its ${MANUFACTURER_EXPIRATION}: it cannot be started or drawn from. Discard it with the reason "expired".`,
  not_sealed: "Only a sealed vial can be started; this one is already open or finished.",
  not_in_use: "Only an open (in use) vial can be emptied. Start it first, or discard it if it is sealed.",
  finished: "This vial is already emptied or discarded; nothing more can be done with it.",
  in_transit: "This vial is in transit to another location; receive the transfer first.",
  not_enough_units: "Not enough left in this vial for that draw.",
  witness_required:
    "This is a controlled substance with units left: a second person of this location must witness the waste with their own email and password.",
  witness_invalid:
    "The witness could not be confirmed: check their email and password. The witness must be another active user of this location.",
  confirm_waste:
    "Emptying or discarding this vial wastes what is left in it: confirm first, naming the units that are lost.",
  changed:
    "Someone else changed this vial at the same moment. Here is how it stands now; try again if it still applies.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type VialRefusal = keyof typeof VIAL_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, VialRefusal>;
export type VialRefused = Refused<VialRefusal>;
