// Why stock was wasted, as the dashboard groups it: each WASTE or DISCARD movement of the ledger
// by its reason (db/schema/stock/constants.ts). Browser-safe: the words the widget shows.
import type { DiscardReason } from "../../db/schema/stock/constants";

/**
 * The reasons, in the order the widget lists them: the deadline first (toxin left in an opened
 * vial at its Use-By Deadline is a clinic's largest avoidable loss), then what was left in a vial
 * emptied by hand (a WASTE movement without a reason), then a discard's reasons.
 */
export const WASTE_REASONS = [
  "beyond_use_deadline",
  "left_when_emptied",
  "expired",
  "damaged",
  "contaminated",
  "recalled",
  "lost_in_transit",
  "missing_in_count",
  "other",
] as const satisfies readonly (DiscardReason | "left_when_emptied")[];
export type WasteReason = (typeof WASTE_REASONS)[number];

export const WASTE_REASON_NAMES: Record<WasteReason, string> = {
  beyond_use_deadline: "Left at its Use-By Deadline",
  left_when_emptied: "Left in a vial emptied by hand",
  expired: "Expired",
  damaged: "Damaged",
  contaminated: "Contaminated",
  recalled: "Recalled",
  lost_in_transit: "Lost in transit",
  missing_in_count: "Missing in a count",
  other: "Other",
};

/**
 * A movement's waste reason: a WASTE movement books the units left in a vial, at its deadline
 * (reason beyond_use_deadline, the jobs worker) or when a person emptied it (no reason); a DISCARD
 * movement carries the discard's reason. A reason this list does not know reads as "other".
 */
export function wasteReasonOf(type: string, reason: string | null): WasteReason {
  if (type === "WASTE" && !reason) return "left_when_emptied";
  return (WASTE_REASONS as readonly string[]).includes(reason ?? "") ? (reason as WasteReason) : "other";
}

export interface WasteFigure {
  /** Base units wasted (the movements' quantities, each in its product's base unit). */
  units: number;
  /** Their value at cost, in cents. */
  cents: number;
  /** How many movements (a vial's ending is one). */
  count: number;
}

export const NO_WASTE: WasteFigure = { units: 0, cents: 0, count: 0 };

export function addWaste(a: WasteFigure, b: WasteFigure): WasteFigure {
  return { units: a.units + b.units, cents: a.cents + b.cents, count: a.count + b.count };
}
