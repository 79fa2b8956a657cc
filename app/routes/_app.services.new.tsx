// /services/new: add a service to the organization's catalogue (WRITE_PRODUCTS at the location in
// scope); its recipe is built on the service's page next.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { createService } from "~/services/create.server";
import { ServiceForm, submittedService } from "~/services/forms";
import { ServiceFields } from "~/services/service-fields";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New service · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  await actorHere(args, "WRITE_PRODUCTS");
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const form = Object.fromEntries(await args.request.formData());
  const submitted = submittedService(form);
  const parsed = ServiceForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { submitted });

  const result = await orOutage(createService(args.context.db, actor, parsed.data));
  if (!result.ok) return refused(result, { submitted }, { fields: { code_taken: "code" } });
  return done(`/services/${result.serviceId}`, {
    title: "Service created",
    description: `${parsed.data.name} (${parsed.data.code}) is in the catalogue. Add its recipe below.`,
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
