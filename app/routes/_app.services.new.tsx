// /services/new: add a service to the organization's catalogue (WRITE_PRODUCTS at the location in
// scope); its recipe is built on the service's page next.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { orOutage } from "~/db/outage.server";
import { createService } from "~/services/create.server";
import { ServiceForm, submittedService } from "~/services/forms";
import { ServiceFields } from "~/services/service-fields";
import { fieldErrorsOf } from "~/ui/field-errors";
import { flashToast } from "~/ui/flash.server";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New service · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  await requirePermission(args, "WRITE_PRODUCTS");
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const { user, locationId } = await requirePermission(args, "WRITE_PRODUCTS");
  const form = Object.fromEntries(await args.request.formData());
  const submitted = submittedService(form);
  const parsed = ServiceForm.safeParse(form);
  if (!parsed.success) {
    return data({ fieldErrors: fieldErrorsOf(parsed.error), formError: null, submitted }, { status: 400 });
  }

  const result = await orOutage(createService(args.context.db, { ...user, locationId }, parsed.data));
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    const onCode = result.refusal === "code_taken";
    return data(
      { fieldErrors: onCode ? { code: result.message } : {}, formError: onCode ? null : result.message, submitted },
      { status: 409 },
    );
  }
  return redirect(`/services/${result.serviceId}`, {
    headers: {
      "Set-Cookie": await flashToast({
        title: "Service created",
        description: `${parsed.data.name} (${parsed.data.code}) is in the catalogue. Add its recipe below.`,
      }),
    },
  });
}

export default function NewServiceScreen() {
  const result = useActionData<typeof action>();
  return (
    <NewRecordScreen
      noun="service"
      back={{ to: "/services", label: "Services" }}
      cardTitle="Service"
      formError={result?.formError}
    >
      <ServiceFields submitted={result?.submitted} errors={result?.fieldErrors ?? {}} />
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
