// What a vendor verb answers: done, or refused for a named reason the route turns into a message
// next to the right field (or a 403/404). Same shape as the users, locations and products verbs.
import type { Outcome as AnyOutcome, Refused } from "~/users/outcome";

export type VendorRefusal = "forbidden" | "not_found" | "name_taken" | "stale" | "already_archived" | "already_active";

export type Outcome<T extends object = object> = AnyOutcome<T, VendorRefusal>;
export type VendorRefused = Refused<VendorRefusal>;

export const VENDOR_REFUSALS: Record<VendorRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  not_found: "That vendor does not exist in your organization.",
  name_taken: "Another vendor already has this name. Choose a different name, or edit that vendor instead.",
  stale:
    "Someone else changed this vendor while you were editing. Your changes were not saved: review the current values and save again.",
  already_archived: "This vendor is already archived.",
  already_active: "This vendor is already active.",
};

export function refuse<R extends VendorRefusal>(refusal: R, message = VENDOR_REFUSALS[refusal]): Refused<R> {
  return { ok: false, refusal, message };
}
