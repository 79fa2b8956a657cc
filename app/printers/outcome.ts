// The printer profile verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: PRINTER_PROFILE_REFUSALS, refuse } = refusalsOf({
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
});

export type PrinterProfileRefusal = keyof typeof PRINTER_PROFILE_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, PrinterProfileRefusal>;
export type PrinterProfileRefused = Refused<PrinterProfileRefusal>;
