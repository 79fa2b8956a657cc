// The sidebar's menu (spec section 2, "Navigation sidebar"): full users see every group; basic
// users see only Operations, reduced to the things they do at the cart. Every role reads inventory,
// so Stock Levels (READ_INVENTORY) sits beside Inventory in both.
import { type Access, isBasicUser } from "~/access/permissions";

export interface MenuItem {
  label: string;
  to: string;
}
export interface MenuGroup {
  label: string;
  items: MenuItem[];
}

export const FULL_MENU: readonly MenuGroup[] = [
  {
    label: "Operations",
    items: [
      { label: "Dashboard", to: "/" },
      { label: "Inventory", to: "/inventory" },
      { label: "Stock Levels", to: "/stock-levels" },
      { label: "Scan", to: "/scan" },
      { label: "Audit", to: "/audit" },
      { label: "Transfers", to: "/transfers" },
      { label: "Reconciliation", to: "/reconciliation" },
      { label: "Usage Log", to: "/usage-log" },
    ],
  },
  {
    label: "Catalog",
    items: [
      { label: "Products", to: "/products" },
      { label: "Services", to: "/services" },
    ],
  },
  {
    label: "Imports",
    items: [
      { label: "Sales Import", to: "/sales-import" },
      { label: "Recipes Import", to: "/recipes-import" },
    ],
  },
  {
    label: "Procurement",
    items: [
      { label: "Vendors", to: "/vendors" },
      { label: "Purchase Orders", to: "/purchase-orders" },
      { label: "Receiving", to: "/receiving" },
    ],
  },
  {
    label: "Administration",
    items: [
      { label: "Users", to: "/users" },
      { label: "Locations", to: "/locations" },
      { label: "Audit Review", to: "/admin/audits" },
      { label: "Printer Settings", to: "/printer-settings" },
      { label: "Backup & Restore", to: "/backup-restore" },
    ],
  },
];

export const BASIC_MENU: readonly MenuGroup[] = [
  {
    label: "Operations",
    items: [
      { label: "Dashboard", to: "/" },
      { label: "Inventory", to: "/inventory" },
      { label: "Stock Levels", to: "/stock-levels" },
      { label: "Scan", to: "/scan" },
      { label: "Receiving", to: "/receiving" },
      { label: "Usage Log", to: "/usage-log" },
    ],
  },
];

export function menuFor(access: Access): readonly MenuGroup[] {
  return isBasicUser(access) ? BASIC_MENU : FULL_MENU;
}
