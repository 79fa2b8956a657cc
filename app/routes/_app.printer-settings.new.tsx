// /printer-settings/new: add a printer profile at the location in scope (organization mode: the
// one in `?location=`). WRITE_SETTINGS there.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { actorAtOneLocation, actorAtPickedLocation } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { createPrinterProfile } from "~/printers/create.server";
import { PrinterProfileForm, profileFormValues } from "~/printers/forms";
import { locationQuery } from "~/printers/links";
import { NEW_PROFILE_VALUES, ProfileFields, typedValues } from "~/printers/profile-fields";
import { NewRecordScreen } from "~/ui/form";

export const meta: MetaFunction = () => [{ title: "New printer profile · Clinic Inventory" }];

/** Organization mode: the location picked on Printer Settings, kept in `?location=`. */
const pickedOf = (request: Request) => new URL(request.url).searchParams.get("location");

export async function loader(args: LoaderFunctionArgs) {
  const { organizationMode, locationId } = await actorAtOneLocation(args, "WRITE_SETTINGS", pickedOf(args.request));
  if (!locationId) throw redirect("/printer-settings");
  return { back: `/printer-settings${locationQuery(organizationMode, locationId)}` };
}

export async function action(args: ActionFunctionArgs) {
  const { actor, locationId } = await actorAtPickedLocation(args, "WRITE_SETTINGS", pickedOf(args.request));
  const form = await args.request.formData();
  const values = typedValues(form);
  const parsed = PrinterProfileForm.safeParse(profileFormValues(form));
  if (!parsed.success) return invalid(parsed.error, { values });
  const result = await orOutage(createPrinterProfile(args.context.db, actor, { ...parsed.data, locationId }));
  if (!result.ok) return refused(result, { values }, { fields: { name_taken: "name" } });
  return done(`/printer-settings/${result.profileId}`, {
    title: "Printer profile created",
    description: result.isDefault
      ? `${parsed.data.name} is the default: print labels uses it at this location.`
      : `${parsed.data.name} is ready. Make it the default to print labels with it.`,
  });
}

export default function NewPrinterProfileScreen() {
  const { back } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <NewRecordScreen
      noun="printer profile"
      back={{ to: back, label: "Printer Settings" }}
      cardTitle="Printer profile"
      formError={result?.formError}
      wide
    >
      <ProfileFields values={result?.values ?? NEW_PROFILE_VALUES} errors={result?.fieldErrors ?? {}} />
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
