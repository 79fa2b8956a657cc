// What the adjustment form and the activity lines say about reasons, apart from the zod rules in
// ./adjust-form: zod builds its schemas with `new Function`, which the page's Content-Security-Policy
// refuses, so nothing the browser loads may import that module.
import type { AdjustReason } from "../../db/schema/stock/constants";

export const ADJUST_NOTE_MAX = 500;
/** Longest quantity text read ("-100000.000 each" and some spaces fit). */
export const QUANTITY_TEXT_MAX = 40;

export const ADJUST_REASON_LABELS: Record<AdjustReason, string> = {
  count_correction: "Count correction",
  damaged: "Damaged",
  expired: "Expired",
  donated: "Donated",
  other: "Other (say what in the note)",
};
