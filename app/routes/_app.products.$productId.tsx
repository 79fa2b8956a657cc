// /products/:productId: one product with its variations, barcodes, on-hand and par levels at the
// viewer's locations, and its recent changes (one round trip). Writers (WRITE_PRODUCTS where they
// stand) edit it here; par levels need WRITE_PRODUCTS at the row's own location. Readers see it all
// read-only, and the server refuses their forged posts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { canChangeSafetyFields } from "~/access/may-change";
import { can } from "~/access/permissions";
import { reachesAt } from "~/access/scope.server";
import { centsInput, formatBeyondUse, formatMoney } from "~/catalog/format";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { describeChange } from "~/products/changes";
import { FIELD_LABELS, PRODUCT_INTENTS, STORAGE_LABELS, TRACKING_LABELS } from "~/products/constants";
import { ControlledBadge } from "~/products/controlled-badge";
import { productDetail } from "~/products/detail.server";
import { PRODUCT_INTENT_HANDLERS } from "~/products/intents.server";
import { ProductFields } from "~/products/product-fields";
import { VariationFields } from "~/products/variation-fields";
import { VariationSection } from "~/products/variation-section";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { showInstant, Time } from "~/ui/dates";
import { ArchiveCard, Button, Card, Facts, FormAlert } from "~/ui/form";
import { DetailsForm, RecordHeader } from "~/ui/record-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.product.name ?? "Product"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/products/{id}").permission);
  const found = await orOutage(productDetail(args.context.db, actor, args.params.productId ?? ""));
  if (!found) throw data("This product was not found.", { status: 404 });
  const vendorNames = new Map(found.vendors.map((v) => [v.id, v.name]));
  return {
    product: { ...found.product, trackingLocked: Boolean(found.product.trackingLocked) },
    variations: found.variations.map((v) => ({
      ...v,
      locations: v.locations.map((l) => ({ ...l, canEdit: reachesAt(actor, "WRITE_PRODUCTS", l.locationId) })),
    })),
    changes: found.changes.map((c) => ({
      id: c.id,
      at: showInstant(c.at, found.timezone),
      who: c.firstName ? `${c.firstName} ${c.lastName}` : "Someone",
      ...describeChange(c, vendorNames),
    })),
    categories: found.categories,
    vendors: found.vendors,
    canWrite: can(actor, "WRITE_PRODUCTS", actor.locationId),
    canChangeSafety: canChangeSafetyFields(actor),
  };
}

export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, PRODUCT_INTENTS);
  // Every intent needs WRITE_PRODUCTS where the viewer stands; a par row is also reached only there.
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const productId = args.params.productId ?? "";
  return PRODUCT_INTENT_HANDLERS[intent]({ db: args.context.db, actor, productId, form });
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
    controlled: product.controlled ? "on" : "",
    cost: centsInput(product.costCents),
    price: centsInput(product.priceCents),
  };
}

export default function ProductScreen() {
  const { product, variations, changes, categories, vendors, canWrite, canChangeSafety } =
    useLoaderData<typeof loader>();
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
      ? Object.keys(current)
          .filter((k) => (productFailure.typed?.[k] ?? "").trim() !== current[k])
          .map((k) => {
            const yours = productFailure.typed?.[k] ?? "";
            const shown =
              k === "defaultVendorId" ? vendorName(yours) : k === "controlled" ? (yours ? "yes" : "no") : yours;
            return `${FIELD_LABELS[k] ?? k}: ${shown || "(empty)"}`;
          })
      : [];

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <RecordHeader
        back={{ to: "/products", label: "Products" }}
        title={product.name}
        active={product.active}
        badges={product.controlled && <ControlledBadge />}
      >
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
      </RecordHeader>

      <Card title="Details">
        {canWrite ? (
          <DetailsForm
            version={product.version}
            formError={productFailure?.intent === "update" ? productFailure.formError : null}
            busy={busy}
          >
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
            <ProductFields
              values={product}
              typed={productFailure?.intent === "update" && !productFailure.conflict ? productFailure.typed : null}
              errors={productFailure?.intent === "update" ? productFailure.fieldErrors : {}}
              categories={categories}
              vendors={vendors}
              scaleLocked={variations.length > 0}
              safetyLocked={!canChangeSafety}
              trackingLocked={product.trackingLocked}
            />
          </DetailsForm>
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
              ["Controlled substance", product.controlled ? "Yes: wasting units needs a witness" : "No"],
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

export const ErrorBoundary = recordErrorBoundary({
  title: "Product not found",
  text: "This product does not exist, or is not in your organization's catalogue.",
  back: { to: "/products", label: "Back to Products" },
});
