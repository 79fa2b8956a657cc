// The frame around every signed-in screen: a fixed sidebar from 768 px up, below that a 20rem
// slide-in drawer opened by a menu button and closed by any navigation, under a sticky header
// 3.5rem tall (a toast at the top sits below it, see ~/ui/toast) and opaque, so the page
// scrolling under it does not show through its words.
import { Dialog, DialogBackdrop, DialogPanel } from "@headlessui/react";
import { type ReactNode, useState } from "react";
import { Tooltip } from "~/ui/tooltip";
import type { MenuGroup } from "./menu";
import { SidebarContent } from "./sidebar";

export function AppShell({
  menu,
  status,
  children,
}: {
  menu: readonly MenuGroup[];
  /** What this device holds (the offline queue's badge): in the phone's header and the sidebar. */
  status?: ReactNode;
  children: ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <div className="min-h-full">
      <aside
        data-testid="sidebar"
        className="fixed inset-y-0 left-0 z-30 hidden w-64 border-slate-200 border-r md:block print:hidden"
      >
        <SidebarContent menu={menu} status={status} />
      </aside>

      <Dialog open={drawerOpen} onClose={closeDrawer} className="relative z-40 md:hidden">
        <DialogBackdrop transition className="fixed inset-0 bg-slate-900/40 transition-opacity data-closed:opacity-0" />
        <DialogPanel
          transition
          data-testid="drawer"
          className="fixed inset-y-0 left-0 w-[20rem] max-w-full shadow-xl transition-transform data-closed:-translate-x-full"
        >
          <SidebarContent menu={menu} onNavigate={closeDrawer} />
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
        <main className="mx-auto max-w-6xl p-4 md:p-6 print:max-w-none print:p-0">{children}</main>
      </div>
    </div>
  );
}
