// /printer-settings: how each location prints item labels. The profiles of the location in scope
// (organization admins in organization mode pick one first), which one print-labels uses, and a
// test print for each. READ_SETTINGS there to view; WRITE_SETTINGS (admins) to change.

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CHOOSE_A_LOCATION } from "~/access/actor";
import { actorAtOneLocation, actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, refused } from "~/http/outcome.server";
import { BUILT_IN_PROFILE, describeProfile, LABEL_OUTPUT_LABELS } from "~/labels/options";
import { locationQuery } from "~/printers/links";
import { printerSettings } from "~/printers/list.server";
import { changeProfileStatus, type StatusIntent } from "~/printers/status-actions.server";
import { area } from "~/shell/areas";
import { FormAlert, LINK_BUTTON, StatusBadge } from "~/ui/form";
import { LocationPicker } from "~/ui/search-form";
import { CELL, DataRow, DataTable, NameCell } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Printer Settings · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const picked = new URL(args.request.url).searchParams.get("location");
  const permission = area("/printer-settings").permission;
  const { actor, organizationMode, locationId } = await actorAtOneLocation(args, permission, picked);
  const settings = await orOutage(printerSettings(args.context.db, actor, locationId));
  const location = settings.locations.find((l) => l.id === locationId) ?? null;
  const profiles = location ? settings.profiles : [];
  return {
    organizationMode,
    locations: organizationMode ? settings.locations : [],
    location,
    profiles: profiles.map((p) => ({ ...p, summary: describeProfile(p) })),
    builtIn: describeProfile(BUILT_IN_PROFILE),
    canWrite: location !== null && can(actor, "WRITE_SETTINGS", location.id),
  };
}

const STATUS_INTENTS: readonly StatusIntent[] = ["make_default", "archive", "restore"];

export async function action(args: ActionFunctionArgs) {
  // Every intent changes a profile: WRITE_SETTINGS where the viewer stands, before reading the form.
  const user = await actorHere(args, "WRITE_SETTINGS");
  const form = await args.request.formData();
  const intent = intentOf(form, STATUS_INTENTS);
  const profileId = form.get("profileId");
  if (typeof profileId !== "string") throw data("Choose a printer profile.", { status: 400 });
  // The verb checks WRITE_SETTINGS at the profile's location, reached from the location in scope.
  const result = await orOutage(changeProfileStatus(args.context.db, user, intent, profileId));
  if (!result.ok) return refused(result, { profileId });
  const url = new URL(args.request.url);
  return done(url.pathname + url.search, result.toast);
}

const SMALL_BUTTON = "rounded-md border border-slate-300 bg-white px-2 py-1 font-medium text-xs hover:bg-slate-100";

export default function PrinterSettingsScreen() {
  const { organizationMode, locations, location, profiles, builtIn, canWrite } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const query = locationQuery(organizationMode, location?.id ?? null);
  const hasDefault = profiles.some((p) => p.isDefault);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Printer Settings{location ? ` at ${location.name}` : ""}</h1>
          <p className="text-slate-600 text-sm">
            How item labels print at this location: sticker size, printer resolution, barcode and texts. Print labels
            uses the default profile.
          </p>
        </div>
        {canWrite && (
          <Link to={`/printer-settings/new${query}`} className={LINK_BUTTON}>
            New printer profile
          </Link>
        )}
      </div>

      {organizationMode && (
        <LocationPicker
          action="/printer-settings"
          locations={locations}
          selected={location?.id}
          submitLabel="Show profiles"
        />
      )}

      {location === null ? (
        <p className="text-slate-600">
          {organizationMode
            ? `${CHOOSE_A_LOCATION} Printer profiles are set up per location.`
            : "You have no location to set up printers for."}
        </p>
      ) : (
        <>
          {!hasDefault && (
            <p
              className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900 text-sm"
              role="status"
            >
              No default printer profile at {location.name}: print labels uses the built-in settings ({builtIn}).
              {canWrite &&
                (profiles.length > 0 ? " Make a profile the default to use it." : " Add a profile to change them.")}
            </p>
          )}
          <FormAlert message={failure?.formError} />
          <DataTable
            caption={`Printer profiles at ${location.name}`}
            columns={["Profile", "Settings", { label: "Status", key: true }, { label: "Actions", key: true }]}
            rowCount={profiles.length}
            empty={canWrite ? "No printer profiles yet. Add one with New printer profile." : "No printer profiles yet."}
          >
            {profiles.map((p) => (
              <DataRow key={p.id}>
                <NameCell to={`/printer-settings/${p.id}`} name={p.name}>
                  <div className="text-slate-500 text-xs">{LABEL_OUTPUT_LABELS[p.output]}</div>
                </NameCell>
                <td className={`${CELL} text-slate-700`}>{p.summary}</td>
                <td className={CELL}>
                  <div className="flex flex-wrap gap-1">
                    {p.isDefault && (
                      <span className="inline-flex items-center rounded bg-sky-50 px-1.5 py-0.5 font-medium text-sky-800 text-xs ring-1 ring-sky-600/20 ring-inset">
                        Default
                      </span>
                    )}
                    <StatusBadge active={p.active} labels={["Active", "Archived"]} />
                  </div>
                </td>
                <td className={CELL}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={`/printer-settings/${p.id}/test-print`} className={SMALL_BUTTON}>
                      Test print
                    </Link>
                    {canWrite && (
                      <Form method="post" className="flex flex-wrap gap-2">
                        <input type="hidden" name="profileId" value={p.id} />
                        {p.active && !p.isDefault && (
                          <button
                            type="submit"
                            name="intent"
                            value="make_default"
                            disabled={busy}
                            className={SMALL_BUTTON}
                          >
                            Make default
                          </button>
                        )}
                        <button
                          type="submit"
                          name="intent"
                          value={p.active ? "archive" : "restore"}
                          disabled={busy}
                          className={SMALL_BUTTON}
                        >
                          {p.active ? "Archive" : "Restore"}
                        </button>
                      </Form>
                    )}
                  </div>
                </td>
              </DataRow>
            ))}
          </DataTable>
        </>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
