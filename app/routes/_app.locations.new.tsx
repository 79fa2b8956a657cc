// /locations/new: open a location. Organization-level, so organization admins only.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { organizationAdmin } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { createLocation } from "~/locations/create.server";
import { LocationForm } from "~/locations/forms";
import { LocationFields } from "~/locations/location-fields";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New location · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  await organizationAdmin(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const user = await organizationAdmin(args);
  const parsed = LocationForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return invalid(parsed.error);

  const result = await orOutage(createLocation(args.context.db, user, parsed.data));
  if (!result.ok) return refused(result, {}, { fields: { code_taken: "code" } });
  return done("/locations", {
    title: "Location created",
    description: `${parsed.data.name} (${parsed.data.code}) is open and now in the location switcher.`,
  });
}

export default function NewLocationScreen() {
  const result = useActionData<typeof action>();
  return (
    <NewRecordScreen
      noun="location"
      back={{ to: "/locations", label: "Locations" }}
      cardTitle="Location"
      formError={result?.formError}
    >
      <LocationFields errors={result?.fieldErrors ?? {}} />
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
