// The locations verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, refusalsOf } from "~/outcome";

export const { messages: LOCATION_REFUSALS, refuse } = refusalsOf({
  not_found: "That location does not exist in your organization.",
  code_taken: "Another location already uses this code. Choose a different code.",
  already_archived: "This location is already archived.",
  already_active: "This location is already active.",
});

export type LocationRefusal = keyof typeof LOCATION_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, LocationRefusal>;
