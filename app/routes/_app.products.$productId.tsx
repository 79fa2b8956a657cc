// /products/:productId: one product with its variations, barcodes, on-hand and par levels at the
// viewer's locations, and its recent changes (one round trip). Writers (WRITE_PRODUCTS where they
// stand) edit it here; par levels need WRITE_PRODUCTS at the row's own location. Readers see it all
// read-only, and the server refuses their forged posts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/db/outage.server";
import { archiveProduct, restoreProduct } from "~/products/archive.server";
import { addBarcode, removeBarcode } from "~/products/barcodes.server";
import { describeChange } from "~/products/changes";
import { PRODUCT_INTENTS, type ProductIntent, STORAGE_LABELS, TRACKING_LABELS } from "~/products/constants";
import { productDetail } from "~/products/detail.server";
import { Facts } from "~/products/fields";
import { centsInput, formatBeyondUse, formatMoney } from "~/products/format";
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
} from "~/products/forms";
import type { ProductRefused } from "~/products/outcome";
import { clearParLevel, setParLevel } from "~/products/par-levels.server";
import { ProductFields } from "~/products/product-fields";
import { updateProduct } from "~/products/update.server";
import { VariationFields } from "~/products/variation-fields";
import { VariationSection } from "~/products/variation-section";
import { archiveVariation, createVariation, restoreVariation, updateVariation } from "~/products/variations.server";
import { type Failure, parTarget } from "~/products/view";
import { area } from "~/shell/areas";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";
import { showInstant, Time } from "~/ui/dates";
import { fieldErrorsOf } from "~/ui/field-errors";
import { flashToast } from "~/ui/flash.server";
import { ArchiveCard, Button, Card, FormAlert, StatusBadge } from "~/ui/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.product.name ?? "Product"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const viewer = await requirePermission(args, area("/products/{id}").permission);
  const { user, scope } = viewer;
  const found = await orOutage(productDetail(args.context.db, viewer, args.params.productId ?? ""));
  if (!found) throw data("This product was not found.", { status: 404 });
  const vendorNames = new Map(found.vendors.map((v) => [v.id, v.name]));
  return {
    product: found.product,
    variations: found.variations.map((v) => ({
      ...v,
      locations: v.locations.map((l) => ({ ...l, canEdit: can(user, "WRITE_PRODUCTS", l.locationId) })),
    })),
    changes: found.changes.map((c) => ({
      id: c.id,
      at: showInstant(c.at, found.timezone),
      who: c.firstName ? `${c.firstName} ${c.lastName}` : "Someone",
      ...describeChange(c, vendorNames),
    })),
    categories: found.categories,
    vendors: found.vendors,
    canWrite: can(user, "WRITE_PRODUCTS", scope.locationId),
  };
}

export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

function failed(failure: Omit<Failure, "fieldErrors" | "formError"> & Partial<Failure>, status: number) {
  return data<Failure>({ fieldErrors: {}, formError: null, ...failure }, { status });
}

/** A form's field errors; a problem with one of its hidden fields is told above the form. */
function invalid(intent: ProductIntent, target: string | null, error: z.ZodError, typed: Record<string, string>) {
  const fieldErrors = fieldErrorsOf(error);
  const hiddenFields = intent === "update" ? ["version"] : ["version", "variationId", "unitScale"];
  const hidden = hiddenFields.map((name) => fieldErrors[name]).find(Boolean) ?? null;
  return failed({ intent, target, fieldErrors, formError: hidden, typed }, 400);
}

/** A refusal as the page shows it: 403/404 as error screens, the rest next to the form. */
function refused(
  intent: ProductIntent,
  target: string | null,
  result: ProductRefused,
  fields: Partial<Record<ProductRefused["refusal"], string>> = {},
  extra: Partial<Failure> = {},
) {
  if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
  if (result.refusal === "not_found" || result.refusal === "variation_not_found") {
    throw data(result.message, { status: 404 });
  }
  const field = fields[result.refusal];
  return failed(
    {
      intent,
      target,
      fieldErrors: field ? { [field]: result.message } : {},
      formError: field ? null : result.message,
      ...extra,
    },
    409,
  );
}

export async function action(args: ActionFunctionArgs) {
  const productId = args.params.productId ?? "";
  const form = Object.fromEntries(await args.request.formData());
  const intent = PRODUCT_INTENTS.find((i) => i === form.intent);
  if (!intent) throw data("Unknown action.", { status: 400 });
  // Par levels need the permission at their own location; everything else where the viewer stands.
  const parLevel = intent === "par-set" || intent === "par-clear";
  const locationId = typeof form.locationId === "string" ? form.locationId : "";
  const viewer = await requirePermission(args, "WRITE_PRODUCTS", parLevel ? { locationId } : {});
  const actor: ScopedActor = { ...viewer.user, locationId: viewer.scope.locationId };
  const { db } = args.context;
  const here = `/products/${productId}`;
  const typed = typedValues(form);
  const variationId = typeof form.variationId === "string" ? form.variationId : null;
  const done = async (title: string, description: string, hash = "") =>
    redirect(`${here}${hash}`, { headers: { "Set-Cookie": await flashToast({ title, description }) } });

  switch (intent) {
    case "update": {
      const parsed = ProductEditForm.safeParse(form);
      if (!parsed.success) return invalid(intent, null, parsed.error, typed);
      const result = await orOutage(updateProduct(db, actor, { productId, ...parsed.data }));
      if (!result.ok) {
        return refused(
          intent,
          null,
          result,
          { sku_taken: "sku", vendor_unavailable: "defaultVendorId", scale_locked: "unitScale" },
          result.refusal === "stale" ? { conflict: true, typed } : { typed },
        );
      }
      return result.changed
        ? done("Changes saved", `${parsed.data.name} is up to date.`)
        : done("Nothing to save", `${parsed.data.name} already had these values.`);
    }
    case "archive":
    case "restore": {
      const result = await orOutage((intent === "archive" ? archiveProduct : restoreProduct)(db, actor, productId));
      if (!result.ok) return refused(intent, null, result);
      return intent === "archive"
        ? done("Product archived", `${result.name} is hidden from the product list. Nothing was deleted.`)
        : done("Product restored", `${result.name} is back in the product list.`);
    }
    case "variation-create": {
      const parsed = VariationForm.safeParse(form);
      if (!parsed.success) return invalid(intent, null, parsed.error, typed);
      const result = await orOutage(createVariation(db, actor, { productId, ...parsed.data }));
      if (!result.ok) {
        return refused(intent, null, result, { gtin_taken: "gtin", variation_name_taken: "name" }, { typed });
      }
      return done("Variation added", `${parsed.data.name} was added.`, `#variation-${result.variationId}`);
    }
    case "variation-update": {
      const parsed = VariationEditForm.safeParse(form);
      if (!parsed.success) {
        return invalid(intent, variationId, parsed.error, typed);
      }
      const result = await orOutage(updateVariation(db, actor, { productId, ...parsed.data }));
      if (!result.ok) {
        return refused(
          intent,
          variationId,
          result,
          { gtin_taken: "gtin", variation_name_taken: "name", units_locked: "unitsPerPackage" },
          result.refusal === "variation_stale" || result.refusal === "scale_changed"
            ? { conflict: true, typed }
            : { typed },
        );
      }
      return done(
        result.changed ? "Variation saved" : "Nothing to save",
        result.changed ? `${result.name} is up to date.` : `${result.name} already had these values.`,
        `#variation-${parsed.data.variationId}`,
      );
    }
    case "variation-archive":
    case "variation-restore": {
      const parsed = VariationRef.safeParse(form);
      if (!parsed.success) throw data("Choose a variation.", { status: 400 });
      const verb = intent === "variation-archive" ? archiveVariation : restoreVariation;
      const result = await orOutage(verb(db, actor, { productId, variationId: parsed.data.variationId }));
      if (!result.ok) return refused(intent, parsed.data.variationId, result);
      return done(
        intent === "variation-archive" ? "Variation archived" : "Variation restored",
        intent === "variation-archive"
          ? `${result.name} is archived. Its history and barcodes are kept.`
          : `${result.name} is active again.`,
        `#variation-${parsed.data.variationId}`,
      );
    }
    case "barcode-add": {
      const parsed = VariationRef.safeParse(form);
      if (!parsed.success) throw data("Choose a variation.", { status: 400 });
      const target = parsed.data.variationId;
      const checked = parseBarcodeField(form.code);
      if (!checked.valid) {
        const fits = checked.code.length >= 4 && checked.code.length <= 50;
        return failed(
          { intent, target, barcodeErrors: checked.errors, suggestion: fits ? checked.code : null, typed },
          400,
        );
      }
      const result = await orOutage(addBarcode(db, actor, { productId, variationId: target, code: checked.code }));
      if (!result.ok) {
        if (result.refusal === "barcode_taken" || result.refusal === "barcode_invalid") {
          return failed({ intent, target, barcodeErrors: [result.message], typed }, 409);
        }
        return refused(intent, target, result);
      }
      return done("Barcode added", `${result.code} now identifies ${result.variation}.`, `#variation-${target}`);
    }
    case "barcode-remove": {
      const parsed = BarcodeRemoveForm.safeParse(form);
      if (!parsed.success) throw data("Choose a barcode.", { status: 400 });
      const result = await orOutage(removeBarcode(db, actor, { productId, barcodeId: parsed.data.barcodeId }));
      if (!result.ok) return refused(intent, variationId, result);
      return done(
        "Barcode removed",
        `${result.code} no longer identifies anything.`,
        variationId ? `#variation-${variationId}` : "",
      );
    }
    case "par-set": {
      const target = variationId ? parTarget(variationId, locationId) : null;
      const parsed = ParLevelForm.safeParse(form);
      if (!parsed.success) return invalid(intent, target, parsed.error, typed);
      const result = await orOutage(setParLevel(db, actor, { productId, ...parsed.data }));
      if (!result.ok) return refused(intent, target, result);
      return done(
        result.changed ? "Par level saved" : "Nothing to save",
        `${result.variation} at ${result.location}: par ${parsed.data.par}, reorder at ${parsed.data.reorderPoint}.`,
        `#variation-${parsed.data.variationId}`,
      );
    }
    case "par-clear": {
      const target = variationId ? parTarget(variationId, locationId) : null;
      const parsed = ParLevelClearForm.safeParse(form);
      if (!parsed.success) throw data("Choose a variation and a location.", { status: 400 });
      const result = await orOutage(clearParLevel(db, actor, { productId, ...parsed.data }));
      if (!result.ok) return refused(intent, target, result);
      return done(
        "Par level cleared",
        `${result.variation} has no par level at ${result.location}.`,
        `#variation-${parsed.data.variationId}`,
      );
    }
  }
}

/** The product's values as its form shows them, to list what a refused save had changed. */
function formValues(product: ReturnType<typeof useLoaderData<typeof loader>>["product"]): Record<string, string> {
  return {
    name: product.name,
    sku: product.sku ?? "",
    category: product.category,
    manufacturer: product.manufacturer ?? "",
    defaultVendorId: product.defaultVendorId ?? "",
    tracking: product.tracking,
    baseUnit: product.baseUnit,
    unitScale: String(product.unitScale),
    beyondUseHours: product.beyondUseHours === null ? "" : String(product.beyondUseHours),
    storage: product.storage,
    cost: centsInput(product.costCents),
    price: centsInput(product.priceCents),
  };
}

const FORM_LABELS: Record<string, string> = {
  name: "Name",
  sku: "SKU",
  category: "Category",
  manufacturer: "Manufacturer",
  defaultVendorId: "Default vendor",
  tracking: "Tracking",
  baseUnit: "Base unit",
  unitScale: "Scale",
  beyondUseHours: "Beyond-use (hours)",
  storage: "Storage",
  cost: "Cost",
  price: "Price",
};

export default function ProductScreen() {
  const { product, variations, changes, categories, vendors, canWrite } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() ?? null;
  const busy = useNavigation().state === "submitting";
  const productFailure =
    failure && (failure.intent === "update" || failure.intent === "archive" || failure.intent === "restore")
      ? failure
      : null;
  const createFailure = failure?.intent === "variation-create" ? failure : null;
  const current = formValues(product);
  const vendorName = (id: string) => (id ? (vendors.find((v) => v.id === id)?.name ?? "another vendor") : "none");
  const unsaved =
    productFailure?.conflict && productFailure.typed
      ? Object.keys(FORM_LABELS)
          .filter((k) => (productFailure.typed?.[k] ?? "").trim() !== current[k])
          .map((k) => {
            const yours = productFailure.typed?.[k] ?? "";
            return `${FORM_LABELS[k]}: ${k === "defaultVendorId" ? vendorName(yours) : yours || "(empty)"}`;
          })
      : [];

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <div>
        <Link to="/products" className="text-sky-800 text-sm hover:underline">
          ← Products
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="font-semibold text-2xl">{product.name}</h1>
          <StatusBadge active={product.active} labels={["Active", "Archived"]} />
        </div>
        <p className="text-slate-600 text-sm">
          {[
            product.category,
            product.manufacturer,
            product.sku ? `SKU ${product.sku}` : null,
            STORAGE_LABELS[product.storage],
            product.beyondUseHours ? `beyond-use ${formatBeyondUse(product.beyondUseHours)} after opening` : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
      </div>

      <Card title="Details">
        {canWrite ? (
          <Form key={`product-${product.version}`} method="post" className="flex flex-col gap-4" noValidate>
            <FormAlert message={productFailure?.intent === "update" ? productFailure.formError : null} />
            {unsaved.length > 0 && (
              <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900 text-sm">
                <p className="font-medium">What you tried to save (not saved):</p>
                <ul className="list-disc pl-5">
                  {unsaved.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </div>
            )}
            <input type="hidden" name="version" value={product.version} />
            <ProductFields
              values={product}
              typed={productFailure?.intent === "update" && !productFailure.conflict ? productFailure.typed : null}
              errors={productFailure?.intent === "update" ? productFailure.fieldErrors : {}}
              categories={categories}
              vendors={vendors}
              scaleLocked={variations.length > 0}
            />
            <div>
              <Button name="intent" value="update" disabled={busy}>
                Save changes
              </Button>
            </div>
          </Form>
        ) : (
          <Facts
            items={[
              ["Category", product.category],
              ["SKU", product.sku ?? "—"],
              ["Manufacturer", product.manufacturer ?? "—"],
              ["Default vendor", product.defaultVendorName ?? "—"],
              ["Tracking", TRACKING_LABELS[product.tracking]],
              ["Base unit", `${product.baseUnit} (scale ${product.unitScale})`],
              ["Beyond-use after opening", formatBeyondUse(product.beyondUseHours)],
              ["Storage", STORAGE_LABELS[product.storage]],
              ["Cost", formatMoney(product.costCents)],
              ["Price", formatMoney(product.priceCents)],
            ]}
          />
        )}
      </Card>

      {canWrite && (
        <ArchiveCard
          active={product.active}
          noun="product"
          busy={busy}
          failure={productFailure && productFailure.intent !== "update" ? productFailure.formError : null}
          archiveText={
            <>
              Archiving hides {product.name} from the product list. Nothing is deleted: its variations, barcodes and
              history are kept, and you can restore it.
            </>
          }
          restoreText={<>Restoring puts {product.name} back in the product list.</>}
        />
      )}

      <section aria-labelledby="variations-title" className="flex flex-col gap-3">
        <h2 id="variations-title" className="font-semibold text-xl">
          Variations
        </h2>
        {variations.length === 0 && (
          <p className="text-slate-600 text-sm">
            {canWrite
              ? "No variations yet. Add how the product is stocked below, like a 100 U vial."
              : "No variations yet."}
          </p>
        )}
        {variations.map((v) => (
          <VariationSection
            key={v.id}
            variation={v}
            baseUnit={product.baseUnit}
            unitScale={product.unitScale}
            canWrite={canWrite}
            failure={failure}
            busy={busy}
          />
        ))}
      </section>

      {canWrite && (
        <Card title="Add a variation">
          <Form key={`new-variation-${variations.length}`} method="post" className="flex flex-col gap-4" noValidate>
            <FormAlert message={createFailure?.formError} />
            <VariationFields
              idPrefix="new-variation-"
              typed={createFailure?.typed}
              errors={createFailure?.fieldErrors ?? {}}
              baseUnit={product.baseUnit}
              unitScale={product.unitScale}
            />
            <div>
              <Button name="intent" value="variation-create" disabled={busy}>
                Add variation
              </Button>
            </div>
          </Form>
        </Card>
      )}

      <Card title="Recent changes">
        {changes.length === 0 ? (
          <p className="text-slate-600 text-sm">No changes recorded yet.</p>
        ) : (
          <ol aria-label="Recent changes" className="flex flex-col gap-2 text-sm">
            {changes.map((c) => (
              <li key={c.id} className="border-slate-100 border-b pb-2 last:border-0">
                <p>
                  <span className="font-medium">{c.title}</span>{" "}
                  <span className="text-slate-500">
                    · {c.who} · <Time at={c.at} />
                  </span>
                </p>
                {c.details.length > 0 && (
                  <ul className="text-slate-600">
                    {c.details.map((d) => (
                      <li key={d}>{d}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <ScreenErrorBoundary
      notFound={{
        title: "Product not found",
        text: "This product does not exist, or is not in your organization's catalogue.",
        back: { to: "/products", label: "Back to Products" },
      }}
    />
  );
}
