// The recall forms, one zod schema each, used by the /recalls screen (strings) and POST /api/recalls
// (JSON) alike; the verbs check the same rules again.
import { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "~/forms/idempotency-key";
import { line, lines, searchText } from "~/forms/text";
import { RECALL_LOT_MAX, RECALL_NOTE_MAX } from "./constants";

export const RECALL_MESSAGES = {
  variation: "Choose the product variation whose lot is recalled.",
  lot: "Enter the lot number as printed on the vials, e.g. C8123C3.",
  lotTooLong: `The lot number is too long (at most ${RECALL_LOT_MAX} characters).`,
  note: "Say why the lot is recalled (e.g. the manufacturer's notice and its date).",
  liftNote: "Say why the recall is lifted (e.g. the manufacturer withdrew the notice).",
  noteTooLong: `The note is too long (at most ${RECALL_NOTE_MAX} characters).`,
  recall: "Choose the recall to lift.",
  confirmNoMatch: "confirmNoMatch is true (recall the lot although no vial of it is in stock) or false.",
} as const;

const M = RECALL_MESSAGES;

const note = (required: string) =>
  lines({ error: required }).trim().min(1, required).max(RECALL_NOTE_MAX, M.noteTooLong);

/**
 * The lot as printed. The GS1 lot rule (~/stock/gs1, the same as receiving's) is the verb's: a lot
 * received before that rule, on vials of the variation, can still be recalled.
 */
const lot = line({ error: M.lot }).trim().min(1, M.lot).max(RECALL_LOT_MAX, M.lotTooLong);

export const RecallForm = z.object({
  variationId: line({ error: M.variation }).trim().min(1, M.variation).max(100, M.variation),
  lot,
  note: note(M.note),
  /**
   * Recall the lot although no unused vial of it is in stock (a recall noticed before delivery):
   * true in JSON, "true" from the screen's confirmation step. Without it such a mark is refused,
   * naming the lots that differ only in case or spacing.
   */
  confirmNoMatch: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], { error: M.confirmNoMatch })
    .optional(),
});
export type RecallInput = z.output<typeof RecallForm>;

export const LiftForm = z.object({
  recallId: line({ error: M.recall }).trim().min(1, M.recall).max(100, M.recall),
  note: note(M.liftNote),
});
export type LiftInput = z.output<typeof LiftForm>;

/** The screen's mark form: the recall and the key the page rendered (a double tap marks once). */
export const MarkRecallForm = RecallForm.extend({
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN).nullable().catch(null),
});

/** The screen's lot lookup (a GET form): the lot as printed and an optional product search; "" when absent. */
export const LotLookupQuery = z.object({
  lot: searchText(RECALL_LOT_MAX),
  product: searchText(100),
});
