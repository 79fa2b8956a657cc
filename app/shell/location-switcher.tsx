// The location switcher at the top of the sidebar (spec section 2). Each choice is a form post to
// /location, which remembers it, shows the spec's toast and returns to the dashboard.
import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { useSubmit } from "@remix-run/react";
import { isOrganizationAdmin } from "~/access/permissions";
import { useCurrentUser, useLocationScope } from "~/access/viewer-context";
import { RoleBadge } from "~/ui/role-badge";

export const ORGANIZATION_LABEL = "ALL LOCATIONS";
export const ORGANIZATION_DESCRIPTION = "Manage all locations";
export const NO_LOCATIONS = "No locations assigned";

export function LocationSwitcher({ onSwitch }: { onSwitch?: () => void }) {
  const user = useCurrentUser();
  const { scope, locations } = useLocationScope();
  const orgAdmin = isOrganizationAdmin(user);
  const submit = useSubmit();
  // The menu unmounts its items as it closes, so each choice submits from its click handler.
  const switchTo = (choice: { locationId: string } | { organization: "1" }) => {
    onSwitch?.();
    submit(choice, { method: "post", action: "/location" });
  };

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
  return (
    <Menu as="div" className="relative" data-testid="location-switcher">
      <MenuButton className="flex w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm hover:bg-slate-50">
        <span className="flex min-w-0 flex-col">
          <span className="text-slate-500 text-xs">Location</span>
          <span className="truncate font-medium">{current ? current.location.name : "Organization"}</span>
        </span>
        {current ? <RoleBadge role={current.role} /> : <OrganizationTag />}
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-50 mt-1 w-(--button-width) min-w-60 rounded-md border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
      >
        {orgAdmin && (
          <MenuItem>
            <button
              type="button"
              onClick={() => switchTo({ organization: "1" })}
              aria-current={scope.kind === "organization" ? "true" : undefined}
              className="flex w-full items-center justify-between gap-2 rounded px-3 py-2 text-left text-sm data-focus:bg-sky-50"
            >
              <span className="flex flex-col">
                <span className="font-semibold">{ORGANIZATION_LABEL}</span>
                <span className="text-slate-500 text-xs">{ORGANIZATION_DESCRIPTION}</span>
              </span>
              <OrganizationTag />
            </button>
          </MenuItem>
        )}
        {locations.map((l) => (
          <MenuItem key={l.locationId}>
            <button
              type="button"
              onClick={() => switchTo({ locationId: l.locationId })}
              aria-current={scope.locationId === l.locationId ? "true" : undefined}
              className="flex w-full items-center justify-between gap-2 rounded px-3 py-2 text-left text-sm data-focus:bg-sky-50"
            >
              <span className="truncate">
                {l.location.name} <span className="text-slate-500">{l.location.code}</span>
              </span>
              <RoleBadge role={l.role} />
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

function OrganizationTag() {
  return (
    <span className="inline-flex shrink-0 items-center rounded bg-violet-100 px-1.5 py-0.5 font-semibold text-[0.65rem] text-violet-800 ring-1 ring-violet-600/20 ring-inset">
      ORG
    </span>
  );
}
