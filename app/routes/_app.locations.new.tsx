// /locations/new: open a location. Organization-level, so organization admins only.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { FORBIDDEN, requirePermission } from "~/access/guard.server";
import { isOrganizationAdmin } from "~/access/permissions";
import { orOutage } from "~/db/outage.server";
import { createLocation } from "~/locations/create.server";
import { LocationForm } from "~/locations/forms";
import { LocationFields } from "~/locations/location-fields";
import { fieldErrorsOf } from "~/ui/field-errors";
import { flashToast } from "~/ui/flash.server";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New location · Clinic Inventory" }];

async function requireOrganizationAdmin(args: LoaderFunctionArgs) {
  const viewer = await requirePermission(args, "WRITE_LOCATIONS");
  if (!isOrganizationAdmin(viewer.user)) throw data(FORBIDDEN, { status: 403 });
  return viewer;
}

export async function loader(args: LoaderFunctionArgs) {
  await requireOrganizationAdmin(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const { user } = await requireOrganizationAdmin(args);
  const parsed = LocationForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return data({ fieldErrors: fieldErrorsOf(parsed.error), formError: null }, { status: 400 });

  const result = await orOutage(createLocation(args.context.db, user, parsed.data));
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    const onCode = result.refusal === "code_taken";
    return data(
      { fieldErrors: onCode ? { code: result.message } : {}, formError: onCode ? null : result.message },
      { status: 409 },
    );
  }
  return redirect("/locations", {
    headers: {
      "Set-Cookie": await flashToast({
        title: "Location created",
        description: `${parsed.data.name} (${parsed.data.code}) is open and now in the location switcher.`,
      }),
    },
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
