// The sidebar's content, shared by the fixed sidebar (wide screens) and the drawer (phones).
import { Form, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { clearSavedUser } from "~/access/saved-user";
import { forgetFallbackData } from "~/browser/request";
import { LocationSwitcher } from "./location-switcher";
import type { MenuGroup } from "./menu";

export function SidebarContent({
  menu,
  onNavigate,
  status,
  signOutNote,
}: {
  menu: readonly MenuGroup[];
  onNavigate?: () => void;
  /** What the device holds for the server (the offline queue's badge), under the location. */
  status?: ReactNode;
  /** Said above Logout (what signing out leaves on the device). */
  signOutNote?: ReactNode;
}) {
  return (
    <div className="flex h-full flex-col gap-4 bg-white p-4">
      <a href="/" className="flex items-center gap-2 px-1" onClick={onNavigate}>
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <span className="font-semibold">Clinic Inventory</span>
      </a>
      <LocationSwitcher onSwitch={onNavigate} />
      {status}
      <nav aria-label="Main" className="-mx-1 flex-1 overflow-y-auto">
        {menu.map((group) => (
          <div key={group.label} className="mb-4">
            <h2 className="px-2 pb-1 font-semibold text-slate-500 text-xs uppercase tracking-wide">{group.label}</h2>
            <ul>
              {group.items.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.to === "/"}
                    prefetch="intent"
                    onClick={onNavigate}
                    className={({ isActive }) =>
                      `block rounded-md px-2 py-1.5 text-sm ${isActive ? "bg-sky-50 font-medium text-sky-800" : "text-slate-700 hover:bg-slate-100"}`
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {signOutNote}
      <SignOutForm label="Logout" className="w-full text-left" />
    </div>
  );
}

/** Signing out: a POST, which also forgets what this browser kept of the user. */
export function SignOutForm({ label, className = "" }: { label: string; className?: string }) {
  return (
    <Form
      method="post"
      action="/logout"
      onSubmit={() => {
        // A shared front-desk PC must not show the next person this user's data.
        clearSavedUser(sessionStorage);
        forgetFallbackData();
      }}
    >
      <button
        type="submit"
        className={`rounded-md border border-slate-300 px-3 py-2 font-medium text-sm hover:bg-slate-100 ${className}`}
      >
        {label}
      </button>
    </Form>
  );
}
