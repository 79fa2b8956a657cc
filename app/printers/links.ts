// Links of the printer settings screens, shared by their loaders and pages (browser-safe).

/** `?location=` to keep on links and form actions in organization mode. */
export function locationQuery(organizationMode: boolean, locationId: string | null): string {
  return organizationMode && locationId ? `?location=${encodeURIComponent(locationId)}` : "";
}
