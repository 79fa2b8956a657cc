// /locations/:locationId: a location's details; its admins (and organization admins) edit it;
// organization admins archive and restore it.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorAt, actorHere } from "~/access/door.server";
import { can, isOrganizationAdmin } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, invalid, refused } from "~/http/outcome.server";
import { archiveLocation, restoreLocation } from "~/locations/archive.server";
import { LOCATION_INTENTS } from "~/locations/constants";
import { LocationForm } from "~/locations/forms";
import { locationDetail } from "~/locations/list.server";
import { LocationFields } from "~/locations/location-fields";
import { updateLocation } from "~/locations/update.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { ArchiveCard, Card } from "~/ui/form";
import { DetailsForm, RecordHeader } from "~/ui/record-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.location.name ?? "Location"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, area("/locations").permission);
  const location = await orOutage(locationDetail(args.context.db, user, args.params.locationId ?? ""));
  if (!location) throw data("This location was not found.", { status: 404 });
  return {
    location,
    canEdit: can(user, "WRITE_LOCATIONS", location.id),
    canArchive: isOrganizationAdmin(user),
  };
}

export async function action(args: ActionFunctionArgs) {
  const locationId = args.params.locationId ?? "";
  // The permission is needed at this location, whichever one the user is working at.
  const user = await actorAt(args, "WRITE_LOCATIONS", locationId);
  const { db } = args.context;
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, LOCATION_INTENTS);

  if (intent === "update") {
    const parsed = LocationForm.safeParse(form);
    if (!parsed.success) return invalid(parsed.error, { intent });
    const result = await orOutage(updateLocation(db, user, { locationId, ...parsed.data }));
    if (!result.ok) return refused(result, { intent }, { fields: { code_taken: "code" } });
    return done(
      `/locations/${locationId}`,
      "Changes saved",
      `${parsed.data.name} (${parsed.data.code}) is up to date.`,
    );
  }

  const result = await orOutage(
    intent === "archive" ? archiveLocation(db, user, locationId) : restoreLocation(db, user, locationId),
  );
  if (!result.ok) return refused(result, { intent });
  return intent === "archive"
    ? done("/locations", "Location archived", `${result.name} (${result.code}) is hidden from the location switcher.`)
    : done("/locations", "Location restored", `${result.name} (${result.code}) is back in the location switcher.`);
}

export default function LocationScreen() {
  const { location, canEdit, canArchive } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const updateFailure = result?.intent === "update" ? result : null;
  const archiveFailure = result && result.intent !== "update" ? result.formError : null;
  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <RecordHeader
        back={{ to: "/locations", label: "Locations" }}
        title={location.name}
        active={location.active}
        tags={<span className="font-mono text-slate-600">{location.code}</span>}
      >
        <p className="text-slate-600 text-sm">
          {location.people} {location.people === 1 ? "person has" : "people have"} a role here.
        </p>
      </RecordHeader>

      {canEdit ? (
        <Card title="Details">
          <DetailsForm formError={updateFailure?.formError} busy={busy}>
            <LocationFields values={location} errors={updateFailure?.fieldErrors ?? {}} />
          </DetailsForm>
        </Card>
      ) : (
        <Card title="Details">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-600">Address</dt>
            <dd>{location.address ?? "—"}</dd>
            <dt className="text-slate-600">Time zone</dt>
            <dd>{location.timezone}</dd>
          </dl>
        </Card>
      )}

      {canArchive && (
        <ArchiveCard
          active={location.active}
          noun="location"
          busy={busy}
          failure={archiveFailure}
          archiveText={
            <>
              Archiving hides {location.name} from every location switcher. Nothing is deleted: its history and people's
              roles are kept, and you can restore it.
            </>
          }
          restoreText={<>Restoring puts {location.name} back in the location switcher.</>}
        />
      )}
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "Location not found",
  text: "This location does not exist, or is not one of yours.",
  back: { to: "/locations", label: "Back to Locations" },
});
