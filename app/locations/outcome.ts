// What a locations verb answers (same shape as the users verbs').
import type { Outcome as AnyOutcome, Refused } from "~/users/outcome";

export type LocationRefusal = "forbidden" | "not_found" | "code_taken" | "already_archived" | "already_active";
export type Outcome<T extends object = object> = AnyOutcome<T, LocationRefusal>;

export const LOCATION_REFUSALS: Record<LocationRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  not_found: "That location does not exist in your organization.",
  code_taken: "Another location already uses this code. Choose a different code.",
  already_archived: "This location is already archived.",
  already_active: "This location is already active.",
};

export function refuse<R extends LocationRefusal>(refusal: R, message = LOCATION_REFUSALS[refusal]): Refused<R> {
  return { ok: false, refusal, message };
}
