// Every screen of spec section 2 with the permission its loader requires. The route files take
// their permission from here, and the route × role test walks this list, so the two cannot drift.
import type { Permission } from "~/access/permissions";

export interface Area {
  /** Route pattern as in the spec. */
  path: string;
  title: string;
  permission: Permission;
  /** The open issue that builds it, or null once built. */
  comingIn: string | null;
}

export const AREAS = {
  "/products": { title: "Products", permission: "READ_PRODUCTS", comingIn: null },
  "/products/{id}": { title: "Product detail", permission: "READ_PRODUCTS", comingIn: null },
  "/products/par-levels": { title: "Par levels", permission: "READ_PRODUCTS", comingIn: null },
  "/services": { title: "Services", permission: "READ_PRODUCTS", comingIn: null },
  "/vendors": { title: "Vendors", permission: "READ_VENDORS", comingIn: null },
  "/inventory": { title: "Inventory", permission: "READ_INVENTORY", comingIn: null },
  "/inventory/{id}": { title: "Vial", permission: "READ_INVENTORY", comingIn: null },
  "/stock-levels": { title: "Stock Levels", permission: "READ_INVENTORY", comingIn: null },
  "/scan": { title: "Scan", permission: "READ_INVENTORY", comingIn: null },
  "/usage-log": { title: "Usage Log", permission: "READ_INVENTORY", comingIn: null },
  // Lot recalls: reached from the usage log (no menu entry: the spec fixes the menu).
  "/recalls": { title: "Lot Recalls", permission: "READ_INVENTORY", comingIn: null },
  "/recalls/report": { title: "Recall Report", permission: "READ_INVENTORY", comingIn: null },
  "/reconciliation": { title: "Reconciliation", permission: "READ_REPORTS", comingIn: null },
  // One variation's figures and the sales and movements behind them: reached from the reconciliation.
  "/reconciliation/{variationId}": { title: "Reconciliation Detail", permission: "READ_REPORTS", comingIn: null },
  "/audit": { title: "Audit", permission: "READ_INVENTORY", comingIn: null },
  "/transfers": { title: "Transfers", permission: "READ_TRANSFERS", comingIn: null },
  "/transfers/{id}": { title: "Transfer", permission: "READ_TRANSFERS", comingIn: null },
  "/sales-import": { title: "Sales Import", permission: "READ_IMPORTS", comingIn: null },
  "/sales-import/{id}": { title: "Sales import", permission: "READ_IMPORTS", comingIn: null },
  "/recipes-import": { title: "Recipes Import", permission: "READ_IMPORTS", comingIn: null },
  "/purchase-orders": { title: "Purchase Orders", permission: "READ_PURCHASING", comingIn: null },
  "/purchase-orders/{id}": { title: "Purchase Order", permission: "READ_PURCHASING", comingIn: null },
  "/purchase-orders/{id}/add-items": {
    title: "Add Items to Purchase Order",
    permission: "READ_PURCHASING",
    comingIn: null,
  },
  "/receiving": { title: "Receiving", permission: "READ_INVENTORY", comingIn: null },
  "/receiving/{receiptId}/add-products": {
    title: "Add Products to Receipt",
    permission: "READ_INVENTORY",
    comingIn: null,
  },
  "/receiving/{receiptId}/print-labels": { title: "Print Labels", permission: "READ_INVENTORY", comingIn: null },
  "/printer-settings": { title: "Printer Settings", permission: "READ_SETTINGS", comingIn: null },
  "/activity-log": { title: "Activity Log", permission: "READ_ACTIVITY", comingIn: null },
  "/backup-restore": { title: "Backup & Restore", permission: "READ_BACKUPS", comingIn: null },
  "/admin/audits": { title: "Audit Review", permission: "READ_AUDITS", comingIn: null },
  "/admin/audits/{id}": { title: "Audit Detail", permission: "READ_AUDITS", comingIn: null },
  "/users": { title: "Users", permission: "READ_USERS", comingIn: null },
  "/locations": { title: "Locations", permission: "READ_LOCATIONS", comingIn: null },
} as const satisfies Record<string, Omit<Area, "path">>;

export type AreaPath = keyof typeof AREAS;

export function area(path: AreaPath): Area {
  return { path, ...AREAS[path] };
}
