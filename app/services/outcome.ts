// The services verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
// Services are catalogue objects: WRITE_PRODUCTS at the location in scope changes them (app/access/may-change.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: SERVICE_REFUSALS, refuse } = refusalsOf({
  not_found: "That service does not exist in your organization.",
  code_taken: "Another service already uses this code. Choose a different code.",
  changed_meanwhile:
    "Someone else changed this service while you were editing. Your changes were not saved: review the current values and save again.",
  already_archived: "This service is already archived.",
  already_active: "This service is already active.",
  variation_unavailable: "That product variation is not in your catalogue. Choose one from the list.",
  quantity_step: "That quantity is finer than the product is measured in.",
  unit_mismatch: "Enter the quantity in the product's unit.",
  line_exists: "That product variation is already in this recipe. Change its quantity instead.",
  no_line: "That line is no longer in this recipe: someone else may have removed it.",
  duplicate_line: "Each product variation can appear only once in a recipe.",
});

export type ServiceRefusal = keyof typeof SERVICE_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, ServiceRefusal>;
export type ServiceRefused = Refused<ServiceRefusal>;

export function codeTakenMessage(code: string): string {
  return `A service with the code ${code} already exists. Choose a different code.`;
}
