// What the adjustment form and the activity lines say about reasons, apart from the zod rules in
// ./adjust-form, which is built with zod's JIT (`new Function`, refused by the page's CSP): a page
// runs a schema only through ~/forms/zod and ~/forms/check-before-send (ADR 0023), never that module.
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { ADJUST_REASONS, type AdjustReason } from "../../db/schema/stock/constants";

export const ADJUST_NOTE_MAX = 500;
/** Longest quantity text read ("-100000.000 each" and some spaces fit). */
export const QUANTITY_TEXT_MAX = 40;

/** A reason as a toast and the recent changes name it, once chosen. */
export const ADJUST_REASON_LABELS: Record<AdjustReason, string> = {
  count_correction: "Count correction",
  damaged: "Damaged",
  expired: "Expired",
  donated: "Donated",
  other: "Other",
};

/** The reasons as the form offers them: only the choice says what "other" needs. */
export const ADJUST_REASON_CHOICES = ADJUST_REASONS.map((value) => ({
  value,
  label: value === "other" ? "Other (say what in the note)" : ADJUST_REASON_LABELS[value],
}));

/**
 * The unit a change is typed in, with the package the par levels count: "each (package of 200)",
 * "mL (package of 250 mL)"; the unit alone when a package is one unit. Staff count boxes on the
 * shelf and par levels in packages, while the change is in base units (issue 18.13).
 */
export function adjustUnitText(baseUnit: string, unitsPerPackage: number, unitScale: UnitScale): string {
  if (unitsPerPackage === unitScale) return baseUnit;
  const size = formatQuantity(unitsPerPackage, unitScale, baseUnit);
  return `${baseUnit} (package of ${baseUnit === "each" ? size.replace(/ each$/, "") : size})`;
}

/** What a saved adjustment's toast says: "Gauze 2x2 · Pack of 200 at Downtown: +5 each (Other). 1210 each on hand now." */
export function adjustedText(adjusted: {
  product: string;
  variation: string;
  location: string;
  quantity: number;
  onHand: number;
  unitScale: UnitScale;
  baseUnit: string;
  reason: AdjustReason;
}): string {
  const { unitScale, baseUnit } = adjusted;
  const change = `${adjusted.quantity > 0 ? "+" : ""}${formatQuantity(adjusted.quantity, unitScale, baseUnit)}`;
  const onHand = formatQuantity(adjusted.onHand, unitScale, baseUnit);
  return `${adjusted.product} · ${adjusted.variation} at ${adjusted.location}: ${change} (${ADJUST_REASON_LABELS[adjusted.reason]}). ${onHand} on hand now.`;
}
