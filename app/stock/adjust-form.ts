// The rules of a stock adjustment as people type it, one zod schema shared by the /stock-levels
// form (strings), POST /api/stock-adjustments (numbers or strings) and the verb itself. No server
// code, but kept out of the browser (see ./adjust-labels): the quantity is checked here as typed, and turned into base units by the server with
// the product's scale (app/stock/adjust.server.ts), exactly, never through a float.
import { z } from "zod";
import { AMOUNT_MESSAGES, parseQuantity, type TypedQuantity } from "~/catalog/amounts";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines } from "~/forms/text";
import { ADJUST_REASONS, type AdjustReason } from "../../db/schema/stock/constants";
import { ADJUST_NOTE_MAX, QUANTITY_TEXT_MAX } from "./adjust-labels";

export const ADJUST_MESSAGES = {
  quantity: "Enter the change in the product's unit: positive to add (like 5), negative to remove (like -5), not zero.",
  reason: "Choose a reason: count correction, damaged, expired, donated or other.",
  noteNeeded: "Say what happened in the note: a reason of other needs one.",
  noteTooLong: `The note is too long (at most ${ADJUST_NOTE_MAX} characters).`,
  variation: "Choose the product variation to adjust.",
  location: "Choose the location to adjust stock at.",
} as const;

/** A typed change: its sign and its size as an exact fraction (see parseQuantity). */
export interface SignedQuantity extends TypedQuantity {
  sign: 1 | -1;
}

/** "-2.5 mL", "+5", "−3" (a typographic minus) → sign and size; zero, blanks and words are refused. */
export function parseSignedQuantity(
  text: string,
): { ok: true; quantity: SignedQuantity } | { ok: false; message: string } {
  const match = /^\s*([+\-\u2212]?)\s*(.*)$/s.exec(text) ?? [];
  const parsed = parseQuantity(match[2] ?? "");
  if (parsed.ok)
    return { ok: true, quantity: { ...parsed.quantity, sign: match[1] ? (match[1] === "+" ? 1 : -1) : 1 } };
  // Size limits keep their own words; anything else is told how to type a change.
  const own = parsed.message === AMOUNT_MESSAGES.quantityPlaces || parsed.message === AMOUNT_MESSAGES.quantityTooLarge;
  return { ok: false, message: own ? parsed.message : ADJUST_MESSAGES.quantity };
}

const id = (message: string) => line({ error: message }).trim().min(1, message).max(100, message);

/** A quantity as typed (a JSON number is read as its decimal text), the problem with it if any. */
export function quantityProblem(value: string | number): string | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  // No change is typed in more than a few characters: a long text is a mistake, not a number to read.
  if (text.length > QUANTITY_TEXT_MAX) return ADJUST_MESSAGES.quantity;
  const parsed = parseSignedQuantity(text);
  return parsed.ok ? null : parsed.message;
}

/** Checked here, kept as its text (so the verb can parse its own input again), scaled by the verb. */
const quantity = z.union([z.number(), z.string()], { error: ADJUST_MESSAGES.quantity }).transform((value, ctx) => {
  const problem = quantityProblem(value);
  if (problem) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return String(value).trim();
});

const fields = {
  variationId: id(ADJUST_MESSAGES.variation),
  quantity,
  reason: z.enum(ADJUST_REASONS, { error: ADJUST_MESSAGES.reason }),
  note: lines({ error: ADJUST_MESSAGES.noteTooLong })
    .trim()
    .max(ADJUST_NOTE_MAX, ADJUST_MESSAGES.noteTooLong)
    .nullish()
    .transform((v) => v || null),
};

/** "other" says nothing by itself: it needs the note. */
function noteForOther(value: { reason: AdjustReason; note: string | null }, ctx: z.RefinementCtx) {
  if (value.reason === "other" && !value.note) {
    ctx.addIssue({ code: "custom", path: ["note"], message: ADJUST_MESSAGES.noteNeeded });
  }
}

/** The JSON body of POST /api/stock-adjustments. */
export const AdjustBody = z.object({ locationId: id(ADJUST_MESSAGES.location), ...fields }).superRefine(noteForOther);
export type AdjustFields = z.output<typeof AdjustBody>;

/** The form on /stock-levels: the location is the one in scope (organization mode: the row's). */
export const AdjustForm = z
  .object({
    locationId: id(ADJUST_MESSAGES.location),
    ...fields,
    idempotencyKey: z
      .string()
      .regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES.invalid)
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine(noteForOther);
