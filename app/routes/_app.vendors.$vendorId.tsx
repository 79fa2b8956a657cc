// /vendors/:vendorId: one vendor, the products whose default vendor it is, and (with
// WRITE_VENDORS) editing with optimistic concurrency, archiving and restoring.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, type EditFailure, type FormAnswer, intentOf, invalid, refusedEdit } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { ArchiveCard, Card, StatusBadge } from "~/ui/form";
import { DetailsForm, RecordHeader } from "~/ui/record-screen";
import { CELL, DataRow, DataTable, NameCell } from "~/ui/table";
import { archiveVendor, restoreVendor } from "~/vendors/archive.server";
import { VENDOR_INTENTS, VENDOR_PRODUCTS_SHOWN, type VendorIntent } from "~/vendors/constants";
import { VendorEditForm } from "~/vendors/forms";
import { vendorDetail } from "~/vendors/list.server";
import { updateVendor } from "~/vendors/update.server";
import { typedValues, VendorFields, type VendorFieldValues } from "~/vendors/vendor-fields";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.vendor.name ?? "Vendor"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/vendors").permission);
  const found = await orOutage(vendorDetail(args.context.db, actor, args.params.vendorId ?? ""));
  if (!found) throw data("This vendor was not found.", { status: 404 });
  return { ...found, canWrite: can(actor, "WRITE_VENDORS", actor.locationId) };
}

export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

export async function action(args: ActionFunctionArgs): FormAnswer<EditFailure<VendorIntent, VendorFieldValues>> {
  const actor = await actorHere(args, "WRITE_VENDORS");
  const { db } = args.context;
  const vendorId = args.params.vendorId ?? "";
  const here = `/vendors/${vendorId}`;
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, VENDOR_INTENTS);

  if (intent === "update") {
    const values = typedValues(form);
    const parsed = VendorEditForm.safeParse(form);
    if (!parsed.success) return invalid(parsed.error, { intent, values });
    const result = await orOutage(updateVendor(db, actor, { vendorId, ...parsed.data }));
    if (!result.ok) return refusedEdit(result, { intent }, values, { name_taken: "name" });
    return result.changed
      ? done(here, "Changes saved", `${parsed.data.name} is up to date.`)
      : done(here, "Nothing to save", `${parsed.data.name} already had these values.`);
  }

  const result = await orOutage(
    intent === "archive" ? archiveVendor(db, actor, vendorId) : restoreVendor(db, actor, vendorId),
  );
  if (!result.ok) return refusedEdit(result, { intent }, null, { name_taken: "name" });
  return intent === "archive"
    ? done(here, "Vendor archived", `${result.name} is no longer offered as a default vendor. Its products keep it.`)
    : done(here, "Vendor restored", `${result.name} can be chosen as a default vendor again.`);
}

export default function VendorScreen() {
  const { vendor, products, productCount, canWrite } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const updateFailure = result?.intent === "update" ? result : null;
  const statusFailure = result && result.intent !== "update" ? result.formError : null;

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <RecordHeader back={{ to: "/vendors", label: "Vendors" }} title={vendor.name} active={vendor.active}>
        {!vendor.active && (
          <p className="text-slate-600 text-sm">
            Archived: no longer offered as a product's default vendor. Products that have it keep it.
          </p>
        )}
      </RecordHeader>

      {canWrite ? (
        <Card title="Details">
          <DetailsForm version={vendor.version} formError={updateFailure?.formError} busy={busy}>
            <VendorFields values={updateFailure?.values ?? vendor} errors={updateFailure?.fieldErrors ?? {}} />
          </DetailsForm>
        </Card>
      ) : (
        <Card title="Details">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-600">Account number</dt>
            <dd className="font-mono">{vendor.accountNumber ?? "—"}</dd>
            <dt className="text-slate-600">Contact name</dt>
            <dd>{vendor.contactName ?? "—"}</dd>
            <dt className="text-slate-600">Email</dt>
            <dd>{vendor.email ? <a href={`mailto:${vendor.email}`}>{vendor.email}</a> : "—"}</dd>
            <dt className="text-slate-600">Phone</dt>
            <dd>{vendor.phone ?? "—"}</dd>
            <dt className="text-slate-600">Lead time</dt>
            <dd>{vendor.leadTimeDays === null ? "—" : `${vendor.leadTimeDays} days`}</dd>
            <dt className="text-slate-600">Notes</dt>
            <dd className="whitespace-pre-line">{vendor.notes ?? "—"}</dd>
          </dl>
        </Card>
      )}

      <Card title="Products">
        <p className="mb-3 text-slate-600 text-sm">
          {productCount === 0
            ? "No product has this vendor as its default vendor."
            : `${productCount} ${productCount === 1 ? "product has" : "products have"} this vendor as their default vendor.`}
          {productCount > VENDOR_PRODUCTS_SHOWN && ` Showing the first ${VENDOR_PRODUCTS_SHOWN}.`}
        </p>
        {productCount > 0 && (
          <DataTable
            caption={`Products of ${vendor.name}`}
            columns={["Product", "SKU", "Category", { label: "Status", key: true }]}
            rowCount={products.length}
            empty=""
          >
            {products.map((p) => (
              <DataRow key={p.id}>
                <NameCell to={`/products/${p.id}`} name={p.name} />
                <td className={`${CELL} font-mono text-slate-700`}>{p.sku ?? "—"}</td>
                <td className={`${CELL} text-slate-700`}>{p.category}</td>
                <td className={CELL}>
                  <StatusBadge active={p.active} labels={["Active", "Archived"]} />
                </td>
              </DataRow>
            ))}
          </DataTable>
        )}
        {productCount > VENDOR_PRODUCTS_SHOWN && (
          <p className="mt-3 text-sm">
            <Link to={`/products?vendor=${vendor.id}&status=all`} className="text-sky-800 hover:underline">
              See all {productCount} products of {vendor.name}
            </Link>
          </p>
        )}
      </Card>

      {canWrite && (
        <ArchiveCard
          active={vendor.active}
          noun="vendor"
          busy={busy}
          failure={statusFailure}
          archiveText={
            <>
              Archiving stops offering {vendor.name} as a product's default vendor. Nothing is deleted: products, orders
              and receipts keep it, and you can restore it.
            </>
          }
          restoreText={<>Restoring offers {vendor.name} as a default vendor again.</>}
        />
      )}
    </div>
  );
}

export const _ErrorBoundary = recordErrorBoundary({
  title: "Vendor not found",
  text: "This vendor does not exist in your organization.",
  back: { to: "/vendors", label: "Back to Vendors" },
});
