// The signed-in part of the product: every screen of spec section 2 renders inside this shell.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Outlet, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { currentUserOf } from "~/access/current-user";
import { signedIn } from "~/access/door.server";
import { isOrganizationAdmin } from "~/access/permissions";
import { saveUser } from "~/access/saved-user";
import { ViewerProvider } from "~/access/viewer-context";
import { browserQueryClient, createQueryClient } from "~/browser/query-client";
import { SavedCopyNotice } from "~/browser/saved-copy-notice";
import { useConnectivityMonitor } from "~/connectivity/use-connectivity";
import { useOfflineQueue } from "~/offline/use-offline-queue";
import { HeldAtSignOut, WaitingBadge } from "~/offline/waiting-badge";
import { AppShell } from "~/shell/app-shell";
import { menuFor } from "~/shell/menu";
import { isNoLocation, type NoLocation, NoLocationScreen } from "~/shell/no-location";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";
import { takeFlashToast } from "~/ui/flash.server";
import { ToastProvider } from "~/ui/toast";

export async function loader(args: LoaderFunctionArgs) {
  const user = await signedIn(args);
  const { scope } = user;
  // No location and no organization role: no screen here is theirs yet. Every URL answers the one
  // screen saying so (403), drawn by this route's boundary, rather than links that each refuse.
  if (scope.kind === "none" && !isOrganizationAdmin(user)) {
    throw data<NoLocation>({ noLocation: { user: currentUserOf(user), scope } }, { status: 403 });
  }
  const { toast, clear } = await takeFlashToast(args.request);
  return data(
    { user: currentUserOf(user), scope, locations: user.locationRoles, menu: menuFor(user), toast },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

// The shell reads nothing again after a refused form, or one answered on the device (the cart's offline queue).
export { readAgainOnline as shouldRevalidate } from "~/offline/queued";

export default function SignedInLayout() {
  const { user, scope, locations, menu, toast } = useLoaderData<typeof loader>();
  // One client per browser (client actions refresh it); one per request on the server.
  const [queryClient] = useState(() => (typeof document === "undefined" ? createQueryClient() : browserQueryClient()));
  const revalidator = useRevalidator();
  // Back online (spec section 4): the active queries are refetched, and so is the screen's own data,
  // which may be a copy this device saved while it was offline.
  useConnectivityMonitor(() => {
    revalidator.revalidate();
    return queryClient.refetchQueries({ type: "active" });
  });

  useOfflineQueue(user.id);

  // Mirror the session into the browser's storage under the spec's keys (spec section 3).
  useEffect(() => {
    saveUser(sessionStorage, user);
  }, [user]);
  useEffect(() => {
    localStorage.setItem("selectedLocationId", scope.kind === "location" ? scope.locationId : "");
    localStorage.setItem("isOrganizationMode", String(scope.kind === "organization"));
  }, [scope]);

  return (
    <QueryClientProvider client={queryClient}>
      <ViewerProvider user={user} scope={scope} locations={locations}>
        <ToastProvider flash={toast}>
          <AppShell menu={menu} status={<WaitingBadge />} notice={<SavedCopyNotice />} signOutNote={<HeldAtSignOut />}>
            <Outlet />
          </AppShell>
        </ToastProvider>
      </ViewerProvider>
    </QueryClientProvider>
  );
}

// The shell's own loader failed (e.g. the database is down at the session lookup): no shell to
// draw, so the screen's boundary takes the whole page. A person with no location gets the shell
// (their name, the switcher's "No locations assigned", Logout) around the screen that says why.
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && isNoLocation(error.data)) {
    const { user, scope } = error.data.noLocation;
    return (
      <ViewerProvider user={user} scope={scope} locations={[]}>
        <AppShell menu={[]}>
          <NoLocationScreen user={user} />
        </AppShell>
      </ViewerProvider>
    );
  }
  return (
    <div className="mx-auto max-w-3xl p-6">
      <ScreenErrorBoundary />
    </div>
  );
}
