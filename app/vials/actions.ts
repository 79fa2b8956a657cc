// The vial page's actions, browser-safe: the intents its forms post and which of them it shows.
export const VIAL_INTENTS = ["start", "draw", "empty", "discard"] as const;
export type VialIntent = (typeof VIAL_INTENTS)[number];

/** Which forms the page shows: the actions that would not be refused as the vial stands now. */
export type { VialActions } from "./rules";

/** What a refused form came back with: which form, what was typed (never a password), and what is wrong. */
export interface VialProblem {
  intent: VialIntent;
  typed: Record<string, string>;
  fieldErrors: Record<string, string | undefined>;
  formError: string | null;
  /** An empty or discard that asks first: the question, and the units left it names (sent back to confirm). */
  ask?: { question: string; wasting: number } | null;
}
