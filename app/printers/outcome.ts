// What a printer profile verb answers: done, or refused for a named reason the route turns into a
// message (or a 403/404). Same shape as the vendors and users verbs.
import type { Outcome as AnyOutcome, Refused } from "~/users/outcome";

export type PrinterProfileRefusal =
  | "forbidden"
  | "not_found"
  | "location_unavailable"
  | "name_taken"
  | "stale"
  | "already_default"
  | "archived"
  | "already_archived"
  | "already_active"
  | "default_changed";

export type Outcome<T extends object = object> = AnyOutcome<T, PrinterProfileRefusal>;
export type PrinterProfileRefused = Refused<PrinterProfileRefusal>;

export const PRINTER_PROFILE_REFUSALS: Record<PrinterProfileRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  not_found: "That printer profile does not exist at a location you can see.",
  location_unavailable: "That location is archived or does not exist in your organization. Choose another location.",
  name_taken: "Another printer profile at this location already has this name. Choose a different name.",
  stale:
    "Someone else changed this printer profile while you were editing. Your changes were not saved: review the current values and save again.",
  already_default: "This printer profile is already the default at its location.",
  archived: "This printer profile is archived. Restore it before making it the default.",
  already_archived: "This printer profile is already archived.",
  already_active: "This printer profile is already active.",
  default_changed: "Another profile was made the default at the same moment. Reload the page and try again.",
};

export function refuse<R extends PrinterProfileRefusal>(
  refusal: R,
  message = PRINTER_PROFILE_REFUSALS[refusal],
): Refused<R> {
  return { ok: false, refusal, message };
}
