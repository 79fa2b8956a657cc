// /printer-settings/:profileId: one printer profile, its test print, and (with WRITE_SETTINGS at
// its location) editing under optimistic concurrency, making it the default, archiving, restoring.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, type EditFailure, type FormAnswer, intentOf, invalid, refusedEdit } from "~/http/outcome.server";
import {
  describeProfile,
  LABEL_FIELD_LABELS,
  LABEL_OUTPUT_LABELS,
  LABEL_SYMBOLOGY_LABELS,
  millimetres,
  PRINTER_PROFILE_INTENTS,
  type PrinterProfileIntent,
  ZPL_DELIVERY_LABELS,
} from "~/labels/options";
import { PrinterProfileEditForm, profileFormValues } from "~/printers/forms";
import { printerProfileDetail } from "~/printers/list.server";
import { ProfileFields, type ProfileFieldValues, profileValues, typedValues } from "~/printers/profile-fields";
import { changeProfileStatus } from "~/printers/status-actions.server";
import { updatePrinterProfile } from "~/printers/update.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { ArchiveCard, Button, Card, Facts, FormAlert } from "~/ui/form";
import { DetailsForm, RecordHeader } from "~/ui/record-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.profile.name ?? "Printer profile"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, area("/printer-settings").permission);
  const profile = await orOutage(printerProfileDetail(args.context.db, user, args.params.profileId ?? ""));
  if (!profile) throw data("This printer profile was not found.", { status: 404 });
  return { profile, summary: describeProfile(profile), canWrite: can(user, "WRITE_SETTINGS", profile.locationId) };
}

export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

export async function action(
  args: ActionFunctionArgs,
): FormAnswer<EditFailure<PrinterProfileIntent, ProfileFieldValues>> {
  // Every intent changes a profile: WRITE_SETTINGS where the viewer stands, before reading the form.
  const user = await actorHere(args, "WRITE_SETTINGS");
  const { db } = args.context;
  const profileId = args.params.profileId ?? "";
  const here = `/printer-settings/${profileId}`;
  const form = await args.request.formData();
  const intent = intentOf(form, PRINTER_PROFILE_INTENTS);

  if (intent === "update") {
    const values = typedValues(form);
    const parsed = PrinterProfileEditForm.safeParse(profileFormValues(form));
    if (!parsed.success) return invalid(parsed.error, { intent, values });
    // The verb checks WRITE_SETTINGS at the profile's location, which is the one in scope.
    const result = await orOutage(updatePrinterProfile(db, user, { ...parsed.data, profileId }));
    if (!result.ok) return refusedEdit(result, { intent }, values, { name_taken: "name" });
    const toast = result.changed
      ? { title: "Changes saved", description: `${parsed.data.name} is up to date.` }
      : { title: "Nothing to save", description: `${parsed.data.name} already had these settings.` };
    return done(here, toast);
  }

  const result = await orOutage(changeProfileStatus(db, user, intent, profileId));
  if (!result.ok) return refusedEdit(result, { intent }, null, { name_taken: "name" });
  return done(here, result.toast);
}

export default function PrinterProfileScreen() {
  const { profile, summary, canWrite } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const updateFailure = result?.intent === "update" ? result : null;
  const statusFailure = result && result.intent !== "update" ? result.formError : null;

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <RecordHeader
        back={{ to: "/printer-settings", label: "Printer Settings" }}
        title={profile.name}
        active={profile.active}
        tags={
          profile.isDefault && (
            <span className="inline-flex items-center rounded bg-sky-50 px-1.5 py-0.5 font-medium text-sky-800 text-xs ring-1 ring-sky-600/20 ring-inset">
              Default
            </span>
          )
        }
      >
        <p className="text-slate-600 text-sm">
          At {profile.locationName}: {summary}.
        </p>
        <p className="mt-2 flex flex-wrap gap-3 text-sm">
          <Link to={`/printer-settings/${profile.id}/test-print`} className="text-sky-800 hover:underline">
            Test print a sample label
          </Link>
        </p>
      </RecordHeader>

      {canWrite && profile.active && !profile.isDefault && (
        <Card title="Default">
          <FormAlert message={statusFailure} />
          <Form method="post" className="flex flex-wrap items-center gap-3">
            <p className="text-slate-600 text-sm">
              Print labels at {profile.locationName} uses the default profile. Making this one the default replaces the
              current one.
            </p>
            <Button name="intent" value="make_default" disabled={busy}>
              Make default
            </Button>
          </Form>
        </Card>
      )}

      {canWrite ? (
        <Card title="Settings">
          <DetailsForm version={profile.version} formError={updateFailure?.formError} busy={busy}>
            <ProfileFields
              values={updateFailure?.values ?? profileValues(profile)}
              errors={updateFailure?.fieldErrors ?? {}}
            />
          </DetailsForm>
        </Card>
      ) : (
        <Card title="Settings">
          <Facts
            items={[
              ["Print with", LABEL_OUTPUT_LABELS[profile.output]],
              ...(profile.output === "zpl"
                ? [["ZPL goes to the printer by", ZPL_DELIVERY_LABELS[profile.zplDelivery]] as [string, string]]
                : []),
              ["Label size", `${millimetres(profile.widthTenthMm)} × ${millimetres(profile.heightTenthMm)} mm`],
              ["Printer resolution", `${profile.dpi} dpi`],
              ["Barcode", LABEL_SYMBOLOGY_LABELS[profile.symbology]],
              ["Texts", profile.fields.map((f) => LABEL_FIELD_LABELS[f]).join(", ") || "None"],
              ["Copies of each label", String(profile.copies)],
              [
                "Offsets",
                `${millimetres(profile.offsetXTenthMm)} mm right, ${millimetres(profile.offsetYTenthMm)} mm down`,
              ],
            ]}
          />
        </Card>
      )}

      {canWrite && (
        <ArchiveCard
          active={profile.active}
          noun="printer profile"
          busy={busy}
          failure={profile.active && !profile.isDefault ? null : statusFailure}
          archiveText={
            profile.isDefault ? (
              <>
                This is the default: after archiving it, print labels uses the built-in settings until you make another
                profile the default. Nothing is deleted, and you can restore it.
              </>
            ) : (
              <>Archiving hides {profile.name} from print labels. Nothing is deleted, and you can restore it.</>
            )
          }
          restoreText={<>Restoring offers {profile.name} again; it becomes the default if the location has none.</>}
        />
      )}
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "Printer profile not found",
  text: "This printer profile does not exist at a location you can see.",
  back: { to: "/printer-settings", label: "Back to Printer Settings" },
});
