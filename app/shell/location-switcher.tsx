// The location switcher at the top of the sidebar (spec section 2). Each choice is a form post to
// /location, which remembers it, shows the spec's toast and returns to the dashboard.
import { Form } from "@remix-run/react";
import { isOrganizationAdmin } from "~/access/permissions";
import { useCurrentUser, useLocationScope } from "~/access/viewer-context";
import { useConnectivity } from "~/connectivity/use-connectivity";
import { RoleBadge } from "~/ui/role-badge";

export const ORGANIZATION_LABEL = "ALL LOCATIONS";
export const ORGANIZATION_DESCRIPTION = "Manage all locations";
export const NO_LOCATIONS = "No locations assigned";

export function LocationSwitcher({ onSwitch }: { onSwitch?: () => void }) {
  const offline = useConnectivity() === "offline";
  const user = useCurrentUser();
  const { scope, locations } = useLocationScope();
  const orgAdmin = isOrganizationAdmin(user);

  if (!orgAdmin && locations.length === 0) {
    return (
      <p data-testid="location-switcher" className="rounded-md bg-slate-100 px-3 py-2 text-slate-600 text-sm">
        {NO_LOCATIONS}
      </p>
    );
  }
  if (!orgAdmin && locations.length === 1 && locations[0]) {
    const only = locations[0];
    return (
      <div data-testid="location-switcher" className="flex items-center justify-between gap-2 rounded-md px-3 py-2">
        <span className="truncate font-medium text-sm">{only.location.name}</span>
        <RoleBadge role={only.role} />
      </div>
    );
  }

  const current = scope.kind === "location" ? locations.find((l) => l.locationId === scope.locationId) : undefined;
  // A disclosure of plain submit buttons: it opens and switches before JavaScript loads too.
  return (
    <details
      className="group relative"
      data-testid="location-switcher"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !event.currentTarget.open) return;
        event.currentTarget.open = false;
        event.currentTarget.querySelector("summary")?.focus();
      }}
      onBlur={(event) => {
        // Focus moving elsewhere closes it, as a menu would. Not a blur to nowhere: Safari does not
        // focus a tapped button, and closing then would swallow the tap on a location.
        const next = event.relatedTarget;
        if (next && !event.currentTarget.contains(next)) event.currentTarget.open = false;
      }}
    >
      <summary className="flex w-full cursor-pointer list-none items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-600 [&::-webkit-details-marker]:hidden">
        <span className="flex min-w-0 flex-col">
          <span className="text-slate-500 text-xs">Location</span>
          <span className="truncate font-medium">{current ? current.location.name : "Organization"}</span>
        </span>
        {current ? <RoleBadge role={current.role} /> : <OrganizationTag />}
      </summary>
      <Form
        method="post"
        action="/location"
        aria-label="Where you work"
        onSubmit={(event) => {
          const details = event.currentTarget.closest("details");
          if (details) details.open = false;
          onSwitch?.();
        }}
        className="absolute inset-x-0 z-50 mt-1 min-w-60 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
      >
        {offline && <p className="px-3 py-2 text-slate-600 text-xs">{SWITCH_NEEDS_CONNECTION}</p>}
        <fieldset disabled={offline} className="min-w-0">
          <ul className="flex flex-col">
            {orgAdmin && (
              <li>
                <button
                  type="submit"
                  name="organization"
                  value="1"
                  aria-current={scope.kind === "organization" ? "true" : undefined}
                  className={CHOICE}
                >
                  <span className="flex flex-col">
                    <span className="font-semibold">{ORGANIZATION_LABEL}</span>
                    <span className="text-slate-500 text-xs">{ORGANIZATION_DESCRIPTION}</span>
                  </span>
                  <OrganizationTag />
                </button>
              </li>
            )}
            {locations.map((l) => (
              <li key={l.locationId}>
                <button
                  type="submit"
                  name="locationId"
                  value={l.locationId}
                  aria-current={scope.locationId === l.locationId ? "true" : undefined}
                  className={CHOICE}
                >
                  <span className="truncate">
                    {l.location.name} <span className="text-slate-500">{l.location.code}</span>
                  </span>
                  <RoleBadge role={l.role} />
                </button>
              </li>
            ))}
          </ul>
        </fieldset>
      </Form>
    </details>
  );
}

/** Offline, the switch (a post that changes the session) is not offered: said where it would be. */
export const SWITCH_NEEDS_CONNECTION = "Switching location needs the connection: you can switch again once it is back.";

const CHOICE =
  "flex w-full items-center justify-between gap-2 rounded px-3 py-2 text-left text-sm hover:bg-sky-50 focus-visible:bg-sky-50 focus-visible:outline-2 focus-visible:outline-sky-600 aria-[current=true]:font-medium";

function OrganizationTag() {
  return (
    <span className="inline-flex shrink-0 items-center rounded bg-violet-100 px-1.5 py-0.5 font-semibold text-[0.65rem] text-violet-800 ring-1 ring-violet-600/20 ring-inset">
      ORG
    </span>
  );
}
