// The cycle counts' input rules, one zod schema per verb, shared by the JSON API (the body as sent)
// and the screens' forms (whose fields are mapped to the same body first, see `*FromForm`), and
// parsed again by the verb when a program calls it directly. Browser-safe. Quantities stay text
// here: the verb converts them exactly with the product's unit scale (parseScaled).
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines } from "~/forms/text";
import { z } from "~/forms/zod";
import { CATEGORY_MAX, COUNT_MESSAGES, NOTE_MAX, QUANTITY_TEXT_MAX, SCOPE_PRODUCTS_MAX } from "./constants";

const id = (message: string) => line({ error: message }).trim().min(1, message).max(100, message);

const idempotencyKey = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null)
  .refine((v) => v === null || IDEMPOTENCY_KEY_PATTERN.test(v), IDEMPOTENCY_MESSAGES.invalid);

/** A quantity as typed ("12", "2.5") or sent as a JSON number: kept as text, zero or more, converted by the verb. */
const quantityText = (message: string) =>
  z
    .union([z.string(), z.number()], { error: message })
    .transform((v) => (typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v.trim()))
    .refine((v) => v !== "" && v.length <= QUANTITY_TEXT_MAX && /^\d*\.?\d*$/.test(v) && /\d/.test(v), message);

export const CountScope = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("all") }),
    z.object({
      kind: z.literal("category"),
      category: line({ error: COUNT_MESSAGES.category }).trim().min(1, COUNT_MESSAGES.category).max(CATEGORY_MAX),
    }),
    z.object({
      kind: z.literal("products"),
      productIds: z
        .array(id(COUNT_MESSAGES.products), { error: COUNT_MESSAGES.products })
        .min(1, COUNT_MESSAGES.products)
        .max(SCOPE_PRODUCTS_MAX, COUNT_MESSAGES.products)
        .transform((ids) => [...new Set(ids)]),
    }),
  ],
  { error: COUNT_MESSAGES.scope },
);
export type CountScope = z.output<typeof CountScope>;

/** POST /api/audit-sessions `{locationId, scope, blind}`. */
export const StartBody = z.object({
  locationId: id(COUNT_MESSAGES.location),
  scope: CountScope,
  blind: z.boolean({ error: "Say whether the count is blind: true or false." }),
  idempotencyKey,
});
export type StartInput = z.input<typeof StartBody>;

/** POST /api/audit-sessions/{id}/counts: a vial scanned, or a bulk quantity of a variation and lot. */
export const CountBody = z.union(
  [
    z.object({
      labelCode: line({ error: COUNT_MESSAGES.labelCode })
        .trim()
        .min(1, COUNT_MESSAGES.labelCode)
        .max(100, COUNT_MESSAGES.labelCode),
      unitsRemaining: quantityText(COUNT_MESSAGES.unitsLeft)
        .nullish()
        .transform((v) => v ?? null),
      idempotencyKey,
    }),
    z.object({
      variationId: id(COUNT_MESSAGES.variation),
      lot: line({ error: COUNT_MESSAGES.lot })
        .trim()
        .max(40, COUNT_MESSAGES.lot)
        .nullish()
        .transform((v) => v || null),
      quantity: quantityText(COUNT_MESSAGES.quantity),
      idempotencyKey,
    }),
  ],
  { error: COUNT_MESSAGES.countOrScan },
);
export type CountInput = z.input<typeof CountBody>;
export type ParsedCount = z.output<typeof CountBody>;

/** POST .../reject `{note}`. */
export const RejectBody = z.object({
  note: lines({ error: COUNT_MESSAGES.note }).trim().min(1, COUNT_MESSAGES.note).max(NOTE_MAX, COUNT_MESSAGES.note),
  idempotencyKey,
});
export type RejectInput = z.input<typeof RejectBody>;

/** POST .../submit and .../approve: nothing but the key. */
export const KeyOnlyBody = z.object({ idempotencyKey });

const text = (form: Record<string, FormDataEntryValue | FormDataEntryValue[]>, name: string) => {
  const v = form[name];
  return typeof v === "string" ? v : "";
};

/** The start form's fields (scope, category, productIds chosen, blind ticked) as the API body. */
export function startFromForm(form: FormData, locationId: string): StartInput {
  const fields = Object.fromEntries(form);
  const kind = text(fields, "scope");
  const scope =
    kind === "category"
      ? { kind, category: text(fields, "category") }
      : kind === "products"
        ? { kind, productIds: form.getAll("productIds").filter((v): v is string => typeof v === "string" && v !== "") }
        : kind === "all"
          ? { kind }
          : { kind: kind || "none" };
  return {
    locationId,
    scope: scope as StartInput["scope"],
    blind: text(fields, "blind") === "on",
    idempotencyKey: text(fields, "idempotencyKey") || null,
  };
}

/** A count form (a scan with units left, or a bulk quantity) as the API body. */
export function countFromForm(form: FormData): CountInput {
  const fields = Object.fromEntries(form);
  const key = text(fields, "idempotencyKey") || null;
  if (text(fields, "intent") === "bulk") {
    return {
      variationId: text(fields, "variationId"),
      lot: text(fields, "lot") || null,
      quantity: text(fields, "quantity"),
      idempotencyKey: key,
    };
  }
  return {
    labelCode: text(fields, "labelCode"),
    unitsRemaining: text(fields, "unitsRemaining").trim() || null,
    idempotencyKey: key,
  };
}
