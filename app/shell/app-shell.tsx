// The frame around every signed-in screen: a fixed sidebar from 768 px up, below that a 20rem
// slide-in drawer opened by a menu button and closed by any navigation, under a sticky header
// 3.5rem tall (a toast at the top sits below it, see ~/ui/toast) and opaque, so the page
// scrolling under it does not show through its words.
import { Dialog, DialogBackdrop, DialogPanel } from "@headlessui/react";
import { useLocation } from "@remix-run/react";
import { type ReactNode, useState } from "react";
import { ConnectivityBanner } from "~/connectivity/banner";
import { OFFLINE_DISABLED_REASON, worksOffline } from "~/connectivity/offline-paths";
import { useConnectivity } from "~/connectivity/use-connectivity";
import { Tooltip } from "~/ui/tooltip";
import type { MenuGroup } from "./menu";
import { SidebarContent } from "./sidebar";

export function AppShell({
  menu,
  children,
  status,
  notice,
  signOutNote,
}: {
  menu: readonly MenuGroup[];
  children: ReactNode;
  /** What the device is holding for the server (the offline queue's badge): in the header and the sidebar. */
  status?: ReactNode;
  /** Above the screen, under the connection's banner (e.g. that the screen is a saved copy). */
  notice?: ReactNode;
  /** Above Logout in the sidebar and the drawer (what signing out leaves on the device). */
  signOutNote?: ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <div className="min-h-full">
      <aside
        data-testid="sidebar"
        className="fixed inset-y-0 left-0 z-30 hidden w-64 border-slate-200 border-r md:block print:hidden"
      >
        <SidebarContent menu={menu} status={status} signOutNote={signOutNote} />
      </aside>

      <Dialog open={drawerOpen} onClose={closeDrawer} className="relative z-40 md:hidden">
        <DialogBackdrop transition className="fixed inset-0 bg-slate-900/40 transition-opacity data-closed:opacity-0" />
        <DialogPanel
          transition
          data-testid="drawer"
          className="fixed inset-y-0 left-0 w-[20rem] max-w-full shadow-xl transition-transform data-closed:-translate-x-full"
        >
          <SidebarContent menu={menu} onNavigate={closeDrawer} status={status} signOutNote={signOutNote} />
        </DialogPanel>
      </Dialog>

      <div className="md:pl-64 print:pl-0">
        <header className="sticky top-0 z-20 flex h-14 items-center gap-3 border-slate-200 border-b bg-white px-4 md:hidden print:hidden">
          <Tooltip label="Open menu">
            <button
              type="button"
              aria-label="Open menu"
              onClick={() => setDrawerOpen(true)}
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor">
                <path strokeLinecap="round" strokeWidth={2} d="M4 6h16M4 12h16M4 18h16" />
              </svg>
            </button>
          </Tooltip>
          <span className="font-semibold">Clinic Inventory</span>
          {status && <div className="ml-auto">{status}</div>}
        </header>
        <main className="mx-auto max-w-6xl p-4 md:p-6 print:max-w-none print:p-0">
          <ConnectivityBanner />
          {notice}
          <OfflineGate>{children}</OfflineGate>
        </main>
      </div>
    </div>
  );
}

/**
 * Offline, a screen whose changes cannot wait on this device (receiving, transfers, admin) keeps
 * what it shows but its controls are disabled, and it says why above them. The fieldset is always
 * there, so going offline and back does not remount the screen and lose what was typed.
 */
function OfflineGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const offline = useConnectivity() === "offline";
  const disabled = offline && !worksOffline(pathname);
  return (
    <>
      {disabled && (
        <p data-testid="offline-disabled" className="mb-4 rounded-md bg-slate-100 px-4 py-3 text-slate-800 text-sm">
          {OFFLINE_DISABLED_REASON}
        </p>
      )}
      <fieldset disabled={disabled} className="min-w-0">
        {children}
      </fieldset>
    </>
  );
}
