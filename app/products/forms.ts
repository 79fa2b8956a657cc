// The catalogue forms' rules, one zod schema each, shared by the route actions, the API and the
// tests. Server only: the pages import ./constants and ./format, never this module.
import { z } from "zod";
import { BARCODE_MESSAGES, checkBarcode } from "~/catalog/barcode";
import { formatScaled, isUnitScale, parseScaled, type UnitScale } from "~/catalog/format";
import { gtinProblem } from "~/catalog/gtin";
import { ParLevelPlace, ParLevelRow } from "~/catalog/par-level";
import { line, optionalLine, pageNumber, searchText } from "~/forms/text";
import { STORAGE_CONDITIONS, TRACKING_MODES } from "../../db/schema/catalog/constants";
import { PRODUCTS_PAGE_SIZE, STATUS_FILTERS } from "./constants";

const requiredText = (max: number, missing: string, tooLong: string) =>
  line({ error: missing }).trim().min(1, missing).max(max, tooLong);

/** An amount typed in a currency ("12.50", "$1,250") as integer cents; empty is none. */
const money = (what: string) =>
  line()
    .trim()
    .default("")
    .transform((text, ctx) => {
      if (text === "") return null;
      const cents = parseScaled(text, 100);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: `Enter the ${what} as an amount like 12.50 (at most two decimals).` });
        return z.NEVER;
      }
      return cents;
    });

const version = z.coerce
  .number({ error: "This form is out of date. Reload the page and try again." })
  .int("This form is out of date. Reload the page and try again.")
  .min(1, "This form is out of date. Reload the page and try again.");

const unitScale = line({ error: "Choose a scale: 1, 10, 100 or 1000." }).transform((v, ctx) => {
  const n = Number(v);
  if (!isUnitScale(n)) {
    ctx.addIssue({ code: "custom", message: "Choose a scale: 1, 10, 100 or 1000." });
    return z.NEVER;
  }
  return n;
});

export const ProductForm = z.object({
  name: requiredText(200, "Enter the product's name.", "The name is too long (at most 200 characters)."),
  sku: optionalLine(64, "The SKU is too long (at most 64 characters)."),
  category: requiredText(
    100,
    "Enter a category, like Neurotoxins.",
    "The category is too long (at most 100 characters).",
  ),
  manufacturer: optionalLine(200, "The manufacturer is too long (at most 200 characters)."),
  defaultVendorId: optionalLine(100, "Choose a vendor from the list."),
  tracking: z.enum(TRACKING_MODES, {
    error: "Choose how it is tracked: serialized (item by item) or bulk (quantities).",
  }),
  baseUnit: requiredText(
    20,
    "Enter the base unit, like U, mL or each.",
    "The base unit is too long (at most 20 characters).",
  ),
  unitScale,
  beyondUseHours: line()
    .trim()
    .default("")
    .transform((text, ctx) => {
      if (text === "") return null;
      const hours = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isInteger(hours) || hours < 1 || hours > 87_600) {
        ctx.addIssue({
          code: "custom",
          message:
            "Enter the hours as a whole number from 1 to 87600, like 24 (or 672 for 28 days), or leave it empty.",
        });
        return z.NEVER;
      }
      return hours;
    }),
  storage: z.enum(STORAGE_CONDITIONS, { error: "Choose room temperature, refrigerated or frozen." }),
  /** A ticked box sends "on"; an unticked one sends nothing. */
  controlled: z
    .union([z.string(), z.boolean()])
    .optional()
    .transform((v) => v === true || v === "on" || v === "true"),
  cost: money("cost"),
  price: money("price"),
});
export type ProductInput = z.output<typeof ProductForm>;

export const ProductEditForm = ProductForm.extend({ version });
export type ProductEditInput = z.output<typeof ProductEditForm>;

/** A GTIN as typed (spaces between digit groups allowed); empty is none. */
const gtin = line()
  .default("")
  .transform((text, ctx) => {
    const digits = text.replace(/\s+/g, "");
    if (digits === "") return null;
    const problem = gtinProblem(digits);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return digits;
  });

/**
 * A variation. Units per package are typed in the base unit ("1.5" mL) and stored at the scale the
 * page showed (`unitScale`, hidden): the server refuses the save if the scale changed meanwhile.
 */
const variationFields = z.object({
  name: requiredText(
    100,
    "Enter the variation's name, like 100 U vial.",
    "The name is too long (at most 100 characters).",
  ),
  sku: optionalLine(64, "The SKU is too long (at most 64 characters)."),
  gtin,
  unitScale,
  unitsPerPackage: line({ error: "Enter how many base units one package holds." }).trim(),
  cost: money("cost"),
});

/**
 * Base units (at the product's scale) one package may hold: with at most 1000 packages a receipt
 * line, no quantity × units passes 2^53. The product_variations and receipt_lines CHECKs agree.
 */
export const UNITS_PER_PACKAGE_MAX = 1_000_000;

/** Units per package typed in the base unit ("1.5" mL) → an integer at the scale. */
function withScaledUnits<T extends z.output<typeof variationFields>>(form: T, ctx: z.RefinementCtx) {
  const units = form.unitsPerPackage === "" ? null : parseScaled(form.unitsPerPackage, form.unitScale);
  if (units !== null && units > UNITS_PER_PACKAGE_MAX) {
    const max = Number(formatScaled(UNITS_PER_PACKAGE_MAX, form.unitScale, { trim: true })).toLocaleString("en-US");
    ctx.addIssue({
      code: "custom",
      path: ["unitsPerPackage"],
      message: `One package holds at most ${max} base units. Check the number.`,
    });
    return z.NEVER;
  }
  if (units === null || units < 1) {
    const decimals = String(form.unitScale).length - 1;
    ctx.addIssue({
      code: "custom",
      path: ["unitsPerPackage"],
      message:
        decimals === 0
          ? "Enter how many base units one package holds, as a whole number above 0."
          : `Enter how many base units one package holds, above 0 with at most ${decimals} decimal${decimals > 1 ? "s" : ""}.`,
    });
    return z.NEVER;
  }
  const { unitsPerPackage: _, cost, ...rest } = form;
  return { ...rest, unitsPerPackage: units, costCents: cost };
}

/**
 * A variation. Units per package are typed in the base unit and stored at the scale the page
 * showed (`unitScale`, hidden): the server refuses the save if the product's scale changed meanwhile.
 */
export const VariationForm = variationFields.transform(withScaledUnits);
export type VariationInput = z.output<typeof VariationForm>;

export const VariationEditForm = variationFields
  .extend({ version, variationId: line().min(1) })
  .transform(withScaledUnits);
export type VariationEditInput = z.output<typeof VariationEditForm>;

export const VariationRef = z.object({ variationId: line().min(1, "Choose a variation.") });

/**
 * A barcode typed or scanned, checked by the spec's rules (section 5). Nothing typed at all is
 * "required"; only spaces is "cannot be empty". The stripped code is offered back when it would do.
 */
export function parseBarcodeField(value: unknown) {
  return checkBarcode(value === "" ? undefined : value);
}
export { BARCODE_MESSAGES };

export const BarcodeRemoveForm = z.object({ barcodeId: line().min(1) });

export const ParLevelForm = ParLevelRow;
export const ParLevelClearForm = ParLevelPlace;

/** `?q=&category=&vendor=&tracking=&status=&page=` of the products list, forgiving of odd input. */
export const ProductListQuery = z.object({
  q: searchText(100),
  category: searchText(100),
  vendor: searchText(100),
  tracking: z.enum(TRACKING_MODES).or(z.literal("")).catch(""),
  status: z.enum(STATUS_FILTERS).catch("active"),
  page: pageNumber(),
  pageSize: z.coerce.number().int().min(1).max(100).catch(PRODUCTS_PAGE_SIZE),
});
export type ProductListQueryInput = z.output<typeof ProductListQuery>;

export const VariationListQuery = z.object({
  productId: searchText(100),
  q: searchText(100),
  status: z.enum(STATUS_FILTERS).catch("active"),
  page: pageNumber(),
  pageSize: z.coerce.number().int().min(1).max(100).catch(PRODUCTS_PAGE_SIZE),
});
export type VariationListQueryInput = z.output<typeof VariationListQuery>;

export type { UnitScale };

/** The text fields of a refused form, to show them again as typed (capped: it is echoed back). */
export function typedValues(form: Record<string, FormDataEntryValue>): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    if (typeof value === "string" && key !== "intent") typed[key] = value.slice(0, 500);
  }
  return typed;
}
