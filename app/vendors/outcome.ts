// The vendor verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: VENDOR_REFUSALS, refuse } = refusalsOf({
  not_found: "That vendor does not exist in your organization.",
  name_taken: "Another vendor already has this name. Choose a different name, or edit that vendor instead.",
  stale:
    "Someone else changed this vendor while you were editing. Your changes were not saved: review the current values and save again.",
  already_archived: "This vendor is already archived.",
  already_active: "This vendor is already active.",
});

export type VendorRefusal = keyof typeof VENDOR_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, VendorRefusal>;
export type VendorRefused = Refused<VendorRefusal>;
