// The product page's actions (/products/:productId), one small handler per intent: parse its form,
// call one catalogue verb, answer with the shared glue (app/http/outcome.server.ts). The route only
// reads the intent, checks the permission and looks the handler up in PRODUCT_INTENT_HANDLERS.
import { data } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import {
  done,
  type FormAnswer,
  type FormProblem,
  invalid as invalidForm,
  refused as refusedForm,
} from "~/http/outcome.server";
import { archiveProduct, restoreProduct } from "./archive.server";
import { addBarcode, removeBarcode } from "./barcodes.server";
import type { ProductIntent } from "./constants";
import {
  BarcodeRemoveForm,
  ParLevelClearForm,
  ParLevelForm,
  ProductEditForm,
  parseBarcodeField,
  typedValues,
  VariationEditForm,
  VariationForm,
  VariationRef,
} from "./forms";
import type { ProductRefused } from "./outcome";
import { clearParLevel, setParLevel } from "./par-levels.server";
import { updateProduct } from "./update.server";
import { archiveVariation, createVariation, restoreVariation, updateVariation } from "./variations.server";
import { type Failure, parTarget } from "./view";

export interface IntentArgs {
  db: Database;
  actor: ScopedActor;
  productId: string;
  form: Record<string, FormDataEntryValue>;
}

type About = Omit<Failure, keyof FormProblem>;

function failed(failure: About & Partial<FormProblem>, status: number) {
  return data<Failure>({ fieldErrors: {}, formError: null, ...failure }, { status });
}

/** A form's field errors; a problem with one of its hidden fields is told above the form. */
function invalid(intent: ProductIntent, target: string | null, error: z.ZodError, typed: Record<string, string>) {
  const fieldErrors = fieldErrorsOf(error);
  const hiddenFields = intent === "update" ? ["version"] : ["version", "variationId", "unitScale"];
  const hidden = hiddenFields.map((name) => fieldErrors[name]).find(Boolean) ?? null;
  return invalidForm(error, { intent, target, typed, formError: hidden });
}

/** A refusal next to the form it was about; a product or variation that is gone is the 404 screen. */
function refused(
  intent: ProductIntent,
  target: string | null,
  result: ProductRefused,
  fields: Partial<Record<ProductRefused["refusal"], string>> = {},
  extra: Partial<About> = {},
) {
  const about: About = { intent, target, ...extra };
  // Safety fields sent changed by someone not allowed to (a forged post: the page does not offer it).
  const status = result.refusal === "safety_admin_only" ? 403 : undefined;
  return refusedForm(result, about, { fields, notFound: ["not_found", "variation_not_found"], status });
}

const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");
const optional = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : null);
const pageOf = (productId: string, variationId?: string | null) =>
  `/products/${productId}${variationId ? `#variation-${variationId}` : ""}`;

async function update({ db, actor, productId, form }: IntentArgs) {
  const typed = typedValues(form);
  const parsed = ProductEditForm.safeParse(form);
  if (!parsed.success) return invalid("update", null, parsed.error, typed);
  const result = await orOutage(updateProduct(db, actor, { productId, ...parsed.data }));
  if (!result.ok) {
    return refused(
      "update",
      null,
      result,
      {
        sku_taken: "sku",
        vendor_unavailable: "defaultVendorId",
        scale_locked: "unitScale",
        tracking_locked: "tracking",
      },
      result.refusal === "stale" ? { conflict: true, typed } : { typed },
    );
  }
  return result.changed
    ? done(pageOf(productId), "Changes saved", `${parsed.data.name} is up to date.`)
    : done(pageOf(productId), "Nothing to save", `${parsed.data.name} already had these values.`);
}

async function archive({ db, actor, productId }: IntentArgs) {
  const result = await orOutage(archiveProduct(db, actor, productId));
  if (!result.ok) return refused("archive", null, result);
  return done(
    pageOf(productId),
    "Product archived",
    `${result.name} is hidden from the product list. Nothing was deleted.`,
  );
}

async function restore({ db, actor, productId }: IntentArgs) {
  const result = await orOutage(restoreProduct(db, actor, productId));
  if (!result.ok) return refused("restore", null, result);
  return done(pageOf(productId), "Product restored", `${result.name} is back in the product list.`);
}

async function variationCreate({ db, actor, productId, form }: IntentArgs) {
  const typed = typedValues(form);
  const parsed = VariationForm.safeParse(form);
  if (!parsed.success) return invalid("variation-create", null, parsed.error, typed);
  const result = await orOutage(createVariation(db, actor, { productId, ...parsed.data }));
  if (!result.ok) {
    return refused("variation-create", null, result, { gtin_taken: "gtin", variation_name_taken: "name" }, { typed });
  }
  return done(pageOf(productId, result.variationId), "Variation added", `${parsed.data.name} was added.`);
}

async function variationUpdate({ db, actor, productId, form }: IntentArgs) {
  const typed = typedValues(form);
  const target = optional(form.variationId);
  const parsed = VariationEditForm.safeParse(form);
  if (!parsed.success) return invalid("variation-update", target, parsed.error, typed);
  const result = await orOutage(updateVariation(db, actor, { productId, ...parsed.data }));
  if (!result.ok) {
    const stale = result.refusal === "variation_stale" || result.refusal === "scale_changed";
    return refused(
      "variation-update",
      target,
      result,
      { gtin_taken: "gtin", variation_name_taken: "name", units_locked: "unitsPerPackage" },
      stale ? { conflict: true, typed } : { typed },
    );
  }
  return done(
    pageOf(productId, parsed.data.variationId),
    result.changed ? "Variation saved" : "Nothing to save",
    result.changed ? `${result.name} is up to date.` : `${result.name} already had these values.`,
  );
}

/** Archive or restore one variation: its history and barcodes are kept either way. */
function variationStatus(intent: "variation-archive" | "variation-restore") {
  return async ({ db, actor, productId, form }: IntentArgs) => {
    const parsed = VariationRef.safeParse(form);
    if (!parsed.success) throw data("Choose a variation.", { status: 400 });
    const { variationId } = parsed.data;
    const verb = intent === "variation-archive" ? archiveVariation : restoreVariation;
    const result = await orOutage(verb(db, actor, { productId, variationId }));
    if (!result.ok) return refused(intent, variationId, result);
    return intent === "variation-archive"
      ? done(
          pageOf(productId, variationId),
          "Variation archived",
          `${result.name} is archived. Its history and barcodes are kept.`,
        )
      : done(pageOf(productId, variationId), "Variation restored", `${result.name} is active again.`);
  };
}

async function barcodeAdd({ db, actor, productId, form }: IntentArgs) {
  const typed = typedValues(form);
  const parsed = VariationRef.safeParse(form);
  if (!parsed.success) throw data("Choose a variation.", { status: 400 });
  const target = parsed.data.variationId;
  const checked = parseBarcodeField(form.code);
  if (!checked.valid) {
    const fits = checked.code.length >= 4 && checked.code.length <= 50;
    const suggestion = fits ? checked.code : null;
    return failed({ intent: "barcode-add", target, barcodeErrors: checked.errors, suggestion, typed }, 400);
  }
  const result = await orOutage(addBarcode(db, actor, { productId, variationId: target, code: checked.code }));
  if (!result.ok) {
    // The barcode field lists every rule a code breaks: a taken or invalid code is one more.
    if (result.refusal === "barcode_taken" || result.refusal === "barcode_invalid") {
      return failed({ intent: "barcode-add", target, barcodeErrors: [result.message], typed }, 409);
    }
    return refused("barcode-add", target, result);
  }
  return done(pageOf(productId, target), "Barcode added", `${result.code} now identifies ${result.variation}.`);
}

async function barcodeRemove({ db, actor, productId, form }: IntentArgs) {
  const variationId = optional(form.variationId);
  const parsed = BarcodeRemoveForm.safeParse(form);
  if (!parsed.success) throw data("Choose a barcode.", { status: 400 });
  const result = await orOutage(removeBarcode(db, actor, { productId, barcodeId: parsed.data.barcodeId }));
  if (!result.ok) return refused("barcode-remove", variationId, result);
  return done(pageOf(productId, variationId), "Barcode removed", `${result.code} no longer identifies anything.`);
}

/** The par level row a form was about: `variation:location`. */
function parRow(form: IntentArgs["form"]) {
  const variationId = text(form.variationId);
  return variationId ? parTarget(variationId, text(form.locationId)) : null;
}

async function parSet({ db, actor, productId, form }: IntentArgs) {
  const target = parRow(form);
  const parsed = ParLevelForm.safeParse(form);
  if (!parsed.success) return invalid("par-set", target, parsed.error, typedValues(form));
  const result = await orOutage(setParLevel(db, actor, { productId, ...parsed.data }));
  if (!result.ok) return refused("par-set", target, result);
  return done(
    pageOf(productId, parsed.data.variationId),
    result.changed ? "Par level saved" : "Nothing to save",
    `${result.variation} at ${result.location}: par ${parsed.data.par}, reorder at ${parsed.data.reorderPoint}.`,
  );
}

async function parClear({ db, actor, productId, form }: IntentArgs) {
  const target = parRow(form);
  const parsed = ParLevelClearForm.safeParse(form);
  if (!parsed.success) throw data("Choose a variation and a location.", { status: 400 });
  const result = await orOutage(clearParLevel(db, actor, { productId, ...parsed.data }));
  if (!result.ok) return refused("par-clear", target, result);
  return done(
    pageOf(productId, parsed.data.variationId),
    "Par level cleared",
    `${result.variation} has no par level at ${result.location}.`,
  );
}

export const PRODUCT_INTENT_HANDLERS: Record<ProductIntent, (args: IntentArgs) => FormAnswer<Failure>> = {
  update,
  archive,
  restore,
  "variation-create": variationCreate,
  "variation-update": variationUpdate,
  "variation-archive": variationStatus("variation-archive"),
  "variation-restore": variationStatus("variation-restore"),
  "barcode-add": barcodeAdd,
  "barcode-remove": barcodeRemove,
  "par-set": parSet,
  "par-clear": parClear,
};
