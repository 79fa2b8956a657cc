// The vial verbs' input rules, one zod schema each, shared by the HTML forms (every value a string,
// empty meaning none) and the JSON API (values may be missing, null or, for units, a number).
// Browser-safe: no server code. The verbs check again what only they can check (the units against
// the product's unit scale, the service, the time window), with the same messages.
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines, secret } from "~/forms/text";
import { z } from "~/forms/zod";
import { CHOSEN_DISCARD_REASONS, PATIENT_REF_MAX, PATIENT_REF_PATTERN } from "../../db/schema/stock/constants";

export const PROVIDER_MAX = 100;
export const DISCARD_NOTE_MAX = 500;
/** Longest units text read: more digits than any vial holds is a typo, not a draw. */
export const UNITS_TEXT_MAX = 20;
/** A draw may be recorded up to this long after the treatment. */
export const USED_AT_BACK_DAYS = 7;
/** ...and a device clock this far ahead of the server's is still believed. */
export const USED_AT_SKEW_MS = 60 * 1000;
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 200;

export const VIAL_MESSAGES = {
  units: "Enter the units drawn as a number more than zero, e.g. 20 or 0.5.",
  unitsScale: (decimals: number, unit: string) =>
    decimals === 0
      ? `Enter the units drawn as a whole number of ${unit}, more than zero.`
      : `Enter the units drawn in ${unit}, more than zero, with at most ${decimals} decimal${decimals === 1 ? "" : "s"}.`,
  service: "Choose an active service of your organization, or none.",
  provider: `A provider's name has at most ${PROVIDER_MAX} characters.`,
  patientRef: `A patient reference (e.g. a chart number, never a name) has at most ${PATIENT_REF_MAX} characters.`,
  patientRefName: "Use the chart number, not a name.",
  patientRefCharacters: "A patient reference is a chart number: letters, digits and - _ . / # only.",
  usedAt: `Enter when the units were used as a date and time, not in the future and at most ${USED_AT_BACK_DAYS} days ago.`,
  /** A draw lies within the vial's life: from its start (or the draw that starts it) to its deadline, not after now. */
  usedAtWindow: (from: string, to: string) =>
    `Enter when the units were used between ${from} and ${to}: a draw lies between the vial's start (a draw that starts it is its start) and its Use-By Deadline, and not in the future.`,
  startedAt: `Enter when the vial was started as a date and time, not in the future and at most ${USED_AT_BACK_DAYS} days ago.`,
  /** A start lies between the vial's receipt and now (within USED_AT_BACK_DAYS). */
  startedAtWindow: (from: string, to: string) =>
    `Enter when the vial was started between ${from} and ${to}: not before it was received, not in the future and at most ${USED_AT_BACK_DAYS} days ago.`,
  reason: `Choose why the vial is discarded: ${CHOSEN_DISCARD_REASONS.join(", ")}.`,
  noteRequired: 'Say in the note why the vial is discarded when the reason is "other".',
  note: `A note has at most ${DISCARD_NOTE_MAX} characters.`,
  witnessEmail: "Enter the witness's email address.",
  witnessPassword: "Enter the witness's password.",
  witnessPair: "Enter both the witness's email and password, or neither.",
} as const;

/** A value a form sends as "" and the API may leave out or send as null: trimmed, "" becomes null. */
const optionalText = (max: number, tooLong: string) =>
  line({ error: tooLong })
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || v.length <= max, tooLong);

const idempotencyKey = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null)
  .refine((v) => v === null || IDEMPOTENCY_KEY_PATTERN.test(v), IDEMPOTENCY_MESSAGES.invalid);

/**
 * A patient reference: an opaque chart number, or none. A space means a name was typed; a longer
 * value is refused with its limit, never cut to fit.
 */
const patientRef = line({ error: VIAL_MESSAGES.patientRefCharacters })
  .nullish()
  .transform((v) => v?.trim() || null)
  .superRefine((v, ctx) => {
    if (v === null) return;
    const message = /\s/.test(v)
      ? VIAL_MESSAGES.patientRefName
      : !PATIENT_REF_PATTERN.test(v)
        ? VIAL_MESSAGES.patientRefCharacters
        : v.length > PATIENT_REF_MAX
          ? VIAL_MESSAGES.patientRef
          : null;
    if (message) ctx.addIssue({ code: "custom", message });
  });

/** Units as typed ("20", "0.5") or sent as a JSON number (20, 0.5): kept as text, converted exactly by the verb. */
const units = z
  .union([z.string(), z.number()], { error: VIAL_MESSAGES.units })
  .transform((v) => (typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v.trim()))
  .refine(
    (v) => v !== "" && v.length <= UNITS_TEXT_MAX && /^\d*\.?\d*$/.test(v) && /[1-9]/.test(v),
    VIAL_MESSAGES.units,
  );

/** An instant: an ISO 8601 text (a form's value, the API's) or a Date; empty is now. */
const instant = (message: string) =>
  z
    .union([z.string(), z.date()], { error: message })
    .nullish()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === "") return null;
      const at = v instanceof Date ? v : v.length <= 40 ? new Date(v.trim()) : new Date(Number.NaN);
      if (Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return at;
    });

const usedAt = instant(VIAL_MESSAGES.usedAt);

export const DrawForm = z.object({
  units,
  serviceId: optionalText(100, VIAL_MESSAGES.service),
  provider: optionalText(PROVIDER_MAX, VIAL_MESSAGES.provider),
  patientRef,
  usedAt,
  idempotencyKey,
});
export type DrawInput = z.output<typeof DrawForm>;

export interface Witness {
  email: string;
  password: string;
}

/** The API's witness: `{ witness: { email, password } }`, or none. */
export const WitnessBody = z.object({
  witness: z
    .object({
      email: line({ error: VIAL_MESSAGES.witnessEmail }).trim().min(1, VIAL_MESSAGES.witnessEmail).max(EMAIL_MAX),
      password: secret({ error: VIAL_MESSAGES.witnessPassword })
        .min(1, VIAL_MESSAGES.witnessPassword)
        .max(PASSWORD_MAX),
    })
    .nullish()
    .transform((w): Witness | null => w ?? null),
});

/** The form's witness fields, both empty or both filled. */
const witnessFields = {
  witnessEmail: optionalText(EMAIL_MAX, VIAL_MESSAGES.witnessEmail),
  // A password is not trimmed: spaces may be part of it.
  witnessPassword: secret()
    .max(PASSWORD_MAX, VIAL_MESSAGES.witnessPassword)
    .nullish()
    .transform((v) => v || null),
};

function witnessPaired(form: { witnessEmail: string | null; witnessPassword: string | null }, ctx: z.RefinementCtx) {
  if ((form.witnessEmail === null) !== (form.witnessPassword === null)) {
    const path = form.witnessEmail === null ? "witnessEmail" : "witnessPassword";
    ctx.addIssue({ code: "custom", path: [path], message: VIAL_MESSAGES.witnessPair });
  }
}

/** The witness a form named, or null when it named none. */
export function witnessOf(form: { witnessEmail: string | null; witnessPassword: string | null }): Witness | null {
  return form.witnessEmail && form.witnessPassword
    ? { email: form.witnessEmail, password: form.witnessPassword }
    : null;
}

/** A start, now or when it happened (`startedAt`, e.g. recorded offline at the cart): its deadline counts from then. */
export const StartForm = z.object({ startedAt: instant(VIAL_MESSAGES.startedAt), idempotencyKey });

/** The units left a person confirmed to waste (base units, as the question named them); absent before it asked. */
const confirmWaste = z
  .string()
  .nullish()
  .transform((v) => (v && /^\d{1,12}$/.test(v) ? Number(v) : null));

export const EmptyForm = z.object({ ...witnessFields, confirmWaste, idempotencyKey }).superRefine(witnessPaired);

/** The API's empty body: `{ witness? }` (the key comes in the Idempotency-Key header). */
export const EmptyBody = WitnessBody;

const discardFields = {
  reason: z.enum(CHOSEN_DISCARD_REASONS, { error: VIAL_MESSAGES.reason }),
  // A textarea: its newlines and tabs are kept.
  note: lines({ error: VIAL_MESSAGES.note })
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || v.length <= DISCARD_NOTE_MAX, VIAL_MESSAGES.note),
};

function noteForOther(form: { reason: string; note: string | null }, ctx: z.RefinementCtx) {
  if (form.reason === "other" && !form.note) {
    ctx.addIssue({ code: "custom", path: ["note"], message: VIAL_MESSAGES.noteRequired });
  }
}

export const DiscardForm = z
  .object({ ...discardFields, ...witnessFields, confirmWaste, idempotencyKey })
  .superRefine((form, ctx) => {
    noteForOther(form, ctx);
    witnessPaired(form, ctx);
  });
export type DiscardFormInput = z.output<typeof DiscardForm>;

/** The API's discard body: `{ reason, note?, witness? }`. */
export const DiscardBody = WitnessBody.extend(discardFields).superRefine(noteForOther);
