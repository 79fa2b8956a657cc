// A vial verb performed from the scan screen: a form posted to the scan screen's action (the vial
// page's handlers), after which the screen's clientAction refreshes the spec's set (section 7), so
// every list on screen shows the change.
import type { ClinicAction } from "~/browser/query-client";
import type { VialIntent } from "~/vials/actions";

/** The four verbs, as the vial page's intents and the API's paths name them. */
export type VialVerb = VialIntent;

/**
 * What each verb makes out of date. A draw is not among the spec's actions: it changes the vial
 * and may start it (a draw from a sealed vial opens it), so it refreshes what a start does.
 */
export const REFRESH_OF: Record<VialVerb, ClinicAction> = {
  start: "start_vial",
  draw: "start_vial",
  empty: "empty_vial",
  discard: "discard_vial",
};

/** 128 random bits as hex: a valid Idempotency-Key, made without crypto.randomUUID (secure pages only). */
export function newAttemptKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
