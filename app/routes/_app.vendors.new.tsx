// /vendors/new: add a vendor (WRITE_VENDORS at the location in scope).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { NewRecordScreen } from "~/ui/form";
import { createVendor } from "~/vendors/create.server";
import { VendorForm } from "~/vendors/forms";
import { typedValues, VendorFields } from "~/vendors/vendor-fields";

export const meta: MetaFunction = () => [{ title: "New vendor · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  await actorHere(args, "WRITE_VENDORS");
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_VENDORS");
  const form = Object.fromEntries(await args.request.formData());
  const values = typedValues(form);
  const parsed = VendorForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { values });
  const result = await orOutage(createVendor(args.context.db, actor, parsed.data));
  if (!result.ok) return refused(result, { values }, { fields: { name_taken: "name" } });
  return done(`/vendors/${result.vendorId}`, {
    title: "Vendor created",
    description: `${parsed.data.name} can now be chosen as a product's default vendor.`,
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
