// /vendors/new: add a vendor (WRITE_VENDORS at the location in scope).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { orOutage } from "~/db/outage.server";
import { fieldErrorsOf } from "~/ui/field-errors";
import { flashToast } from "~/ui/flash.server";
import { NewRecordScreen } from "~/ui/form";
import { createVendor } from "~/vendors/create.server";
import { VendorForm } from "~/vendors/forms";
import { typedValues, VendorFields } from "~/vendors/vendor-fields";

export const meta: MetaFunction = () => [{ title: "New vendor · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  await requirePermission(args, "WRITE_VENDORS");
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const viewer = await requirePermission(args, "WRITE_VENDORS");
  const form = Object.fromEntries(await args.request.formData());
  const values = typedValues(form);
  const parsed = VendorForm.safeParse(form);
  if (!parsed.success) {
    return data({ fieldErrors: fieldErrorsOf(parsed.error), formError: null, values }, { status: 400 });
  }
  const actor = { ...viewer.user, locationId: viewer.locationId };
  const result = await orOutage(createVendor(args.context.db, actor, parsed.data));
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    const onName = result.refusal === "name_taken";
    return data(
      { fieldErrors: onName ? { name: result.message } : {}, formError: onName ? null : result.message, values },
      { status: 409 },
    );
  }
  return redirect(`/vendors/${result.vendorId}`, {
    headers: {
      "Set-Cookie": await flashToast({
        title: "Vendor created",
        description: `${parsed.data.name} can now be chosen as a product's default vendor.`,
      }),
    },
  });
}

export default function NewVendorScreen() {
  const result = useActionData<typeof action>();
  return (
    <NewRecordScreen
      noun="vendor"
      back={{ to: "/vendors", label: "Vendors" }}
      cardTitle="Vendor"
      formError={result?.formError}
    >
      <VendorFields values={result?.values} errors={result?.fieldErrors ?? {}} />
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
