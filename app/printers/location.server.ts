// The location the printer settings screens work at: the one in scope, or in organization mode the
// one picked with `?location=` (none yet: the screen asks for one). The permission is checked there.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { requirePermission, requireViewer } from "~/access/guard.server";
import type { Permission } from "~/access/permissions";

export async function settingsLocation(args: { request: Request; context: AppLoadContext }, permission: Permission) {
  const viewer = await requireViewer(args);
  const organizationMode = viewer.scope.kind === "organization";
  const asked = organizationMode
    ? new URL(args.request.url).searchParams.get("location") || null
    : viewer.scope.locationId;
  const { user } = await requirePermission(args, permission, { locationId: asked });
  return { user, organizationMode, locationId: asked };
}
