// The sidebar's menu (spec section 2, "Navigation sidebar"): full users see every group; basic
// users see only Operations, reduced to the things they do at the cart. Every role reads inventory,
// so Stock Levels (READ_INVENTORY) sits beside Inventory in both.
import { type Access, isBasicUser } from "~/access/permissions";
import { AREAS, type AreaPath } from "./areas";

export interface MenuItem {
  label: string;
  to: string;
}
export interface MenuGroup {
  label: string;
  items: MenuItem[];
}

/** A menu entry is a screen of AREAS under its title: a new screen is named once, in areas.ts. */
const screens = (...paths: AreaPath[]): MenuItem[] => paths.map((path) => ({ label: AREAS[path].title, to: path }));
/** The one entry that is not an area: every signed-in person may open it. */
const DASHBOARD: MenuItem = { label: "Dashboard", to: "/" };

export const FULL_MENU: readonly MenuGroup[] = [
  {
    label: "Operations",
    items: [
      DASHBOARD,
      ...screens(
        "/inventory",
        "/stock-levels",
        "/scan",
        "/audit",
        "/transfers",
        "/reconciliation",
        "/usage-log",
        "/flagged",
      ),
    ],
  },
  { label: "Catalog", items: screens("/products", "/services") },
  { label: "Imports", items: screens("/sales-import", "/recipes-import") },
  { label: "Procurement", items: screens("/vendors", "/purchase-orders", "/receiving") },
  {
    label: "Administration",
    items: screens("/users", "/locations", "/admin/audits", "/printer-settings", "/backup-restore"),
  },
];

export const BASIC_MENU: readonly MenuGroup[] = [
  {
    label: "Operations",
    items: [DASHBOARD, ...screens("/inventory", "/stock-levels", "/scan", "/receiving", "/usage-log", "/flagged")],
  },
];

export function menuFor(access: Access): readonly MenuGroup[] {
  return isBasicUser(access) ? BASIC_MENU : FULL_MENU;
}
