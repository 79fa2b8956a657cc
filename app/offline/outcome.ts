// The flagged records' refusals (the replay door and a manager's resolution), with messages that say
// what is wrong and what to do instead; the JSON API answers their names as its error `code`.
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, refusalsOf } from "~/outcome";

export const { messages: FLAG_REFUSALS, refuse } = refusalsOf({
  invalid_body: "The replayed command is not one the server reads: check its kind, vial or count, body and times.",
  invalid: "Check the values entered.",
  not_found: "No flagged record with this id at a location you can reach. Open it from Flagged Records.",
  not_manager: "Only a manager at this location can resolve this.",
  already_resolved: "This flagged record is already resolved.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type FlagRefusal = keyof typeof FLAG_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, FlagRefusal>;
