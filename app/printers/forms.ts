// The printer profile form's rules, one zod schema, shared by the route actions and the tests.
// Server only: the pages import ./options, never this module. People type millimetres with one
// decimal ("57.2"); the database keeps tenths of a millimetre (572).
import { z } from "zod";
import { line } from "~/forms/text";
import {
  CUSTOM_SIZE,
  LABEL_COPIES,
  LABEL_OFFSET_TENTH_MM,
  LABEL_SIZE_PRESETS,
  LABEL_SIZE_TENTH_MM,
} from "~/labels/options";
import {
  LABEL_FIELDS,
  LABEL_OUTPUTS,
  LABEL_SYMBOLOGIES,
  type LabelField,
  PRINTER_DPIS,
  type PrinterDpi,
  ZPL_DELIVERIES,
} from "../../db/schema/settings/constants";

export const PRINTER_PROFILE_MESSAGES = {
  name: "Enter a name for this profile, like “Front desk Zebra”.",
  nameTooLong: "The name is too long (at most 100 characters).",
  output: "Choose how labels are printed: a browser print sheet or ZPL for a Zebra printer.",
  zplDelivery: "Choose how the ZPL reaches the printer: a downloaded file or Zebra Browser Print.",
  size: "Choose a label size, or Custom size and type its width and height.",
  width: "Enter the label width in millimetres from 10 to 200, with at most one decimal, like 57.2.",
  height: "Enter the label height in millimetres from 10 to 200, with at most one decimal, like 31.8.",
  dpi: "Choose the printer's resolution: 203 or 300 dpi.",
  symbology: "Choose the barcode: Code 128, DataMatrix, or both.",
  fields: "Choose only fields from the list.",
  copies: `Enter how many copies of each label to print, a whole number from ${LABEL_COPIES.min} to ${LABEL_COPIES.max}.`,
  offsetX: "Enter the left offset in millimetres from -10 to 10, with at most one decimal, like -1.5 (0 for none).",
  offsetY: "Enter the top offset in millimetres from -10 to 10, with at most one decimal, like 0.5 (0 for none).",
  version: "This form is out of date. Reload the page and try again.",
} as const;

/** "57.2" or "57,2" → 572 tenths, inside [min, max]; anything else is the field's message. */
const millimetres = (range: { min: number; max: number }, message: string) =>
  line({ error: message })
    .trim()
    .transform((text, ctx) => {
      const tenths = /^-?\d{1,3}(?:[.,]\d)?$/.test(text) ? Math.round(Number(text.replace(",", ".")) * 10) : Number.NaN;
      if (!(tenths >= range.min && tenths <= range.max)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return tenths;
    });

const SIZES: [string, ...string[]] = [CUSTOM_SIZE, ...LABEL_SIZE_PRESETS.map((p) => p.key)];

const ProfileFields = z.object({
  name: line({ error: PRINTER_PROFILE_MESSAGES.name })
    .trim()
    .min(1, PRINTER_PROFILE_MESSAGES.name)
    .max(100, PRINTER_PROFILE_MESSAGES.nameTooLong),
  output: z.enum(LABEL_OUTPUTS, { error: PRINTER_PROFILE_MESSAGES.output }),
  zplDelivery: z.enum(ZPL_DELIVERIES, { error: PRINTER_PROFILE_MESSAGES.zplDelivery }).catch("download"),
  size: z.enum(SIZES, { error: PRINTER_PROFILE_MESSAGES.size }),
  // Read only for a custom size: a preset sets both.
  width: line().default(""),
  height: line().default(""),
  dpi: z.coerce
    .number({ error: PRINTER_PROFILE_MESSAGES.dpi })
    .refine((n): n is PrinterDpi => (PRINTER_DPIS as readonly number[]).includes(n), PRINTER_PROFILE_MESSAGES.dpi),
  symbology: z.enum(LABEL_SYMBOLOGIES, { error: PRINTER_PROFILE_MESSAGES.symbology }),
  // Checkboxes: none ticked sends nothing; the label prints them in the list's order.
  fields: z
    .array(z.enum(LABEL_FIELDS, { error: PRINTER_PROFILE_MESSAGES.fields }))
    .default([])
    .transform((chosen): LabelField[] => LABEL_FIELDS.filter((f) => chosen.includes(f))),
  copies: line({ error: PRINTER_PROFILE_MESSAGES.copies })
    .trim()
    .regex(/^\d{1,2}$/, PRINTER_PROFILE_MESSAGES.copies)
    .transform(Number)
    .refine((n) => n >= LABEL_COPIES.min && n <= LABEL_COPIES.max, PRINTER_PROFILE_MESSAGES.copies),
  offsetX: millimetres(LABEL_OFFSET_TENTH_MM, PRINTER_PROFILE_MESSAGES.offsetX),
  offsetY: millimetres(LABEL_OFFSET_TENTH_MM, PRINTER_PROFILE_MESSAGES.offsetY),
});

/** The profile as stored: a preset's size or the typed one, in tenths of a millimetre. */
function toProfile(form: z.output<typeof ProfileFields>, ctx: z.RefinementCtx) {
  const preset = LABEL_SIZE_PRESETS.find((p) => p.key === form.size);
  let widthTenthMm: number = preset?.widthTenthMm ?? 0;
  let heightTenthMm: number = preset?.heightTenthMm ?? 0;
  if (!preset) {
    const width = millimetres(LABEL_SIZE_TENTH_MM, PRINTER_PROFILE_MESSAGES.width).safeParse(form.width);
    const height = millimetres(LABEL_SIZE_TENTH_MM, PRINTER_PROFILE_MESSAGES.height).safeParse(form.height);
    if (!width.success) ctx.addIssue({ code: "custom", path: ["width"], message: PRINTER_PROFILE_MESSAGES.width });
    if (!height.success) ctx.addIssue({ code: "custom", path: ["height"], message: PRINTER_PROFILE_MESSAGES.height });
    if (!width.success || !height.success) return z.NEVER;
    widthTenthMm = width.data;
    heightTenthMm = height.data;
  }
  return {
    name: form.name,
    output: form.output,
    zplDelivery: form.zplDelivery,
    widthTenthMm,
    heightTenthMm,
    dpi: form.dpi as PrinterDpi,
    symbology: form.symbology,
    fields: form.fields,
    copies: form.copies,
    offsetXTenthMm: form.offsetX,
    offsetYTenthMm: form.offsetY,
  };
}

export const PrinterProfileForm = ProfileFields.transform(toProfile);
export type PrinterProfileInput = z.output<typeof PrinterProfileForm>;

/** The edit form names the version it started from: a save over someone else's change is refused. */
export const PrinterProfileEditForm = ProfileFields.extend({
  version: z.coerce
    .number({ error: PRINTER_PROFILE_MESSAGES.version })
    .int(PRINTER_PROFILE_MESSAGES.version)
    .min(1, PRINTER_PROFILE_MESSAGES.version),
}).transform((form, ctx) => {
  const profile = toProfile(form, ctx);
  return profile === z.NEVER ? z.NEVER : { ...profile, version: form.version };
});
export type PrinterProfileEditInput = z.output<typeof PrinterProfileEditForm>;

/** The form's fields as the action reads them: every ticked `fields` checkbox, not just the last. */
export function profileFormValues(form: FormData): Record<string, unknown> {
  return { ...Object.fromEntries(form), fields: form.getAll("fields") };
}
