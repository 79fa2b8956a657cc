// Every screen of spec section 2 with the permission its loader requires. The route files take
// their permission from here, and the route × role test walks this list, so the two cannot drift.
import type { Permission } from "~/access/permissions";

export interface Area {
  /** Route pattern as in the spec. */
  path: string;
  title: string;
  permission: Permission;
}

export const AREAS = {
  "/products": { title: "Products", permission: "READ_PRODUCTS" },
  "/products/{id}": { title: "Product detail", permission: "READ_PRODUCTS" },
  "/products/par-levels": { title: "Par levels", permission: "READ_PRODUCTS" },
  "/services": { title: "Services", permission: "READ_PRODUCTS" },
  "/vendors": { title: "Vendors", permission: "READ_VENDORS" },
  "/inventory": { title: "Inventory", permission: "READ_INVENTORY" },
  "/inventory/{id}": { title: "Vial", permission: "READ_INVENTORY" },
  "/stock-levels": { title: "Stock Levels", permission: "READ_INVENTORY" },
  "/scan": { title: "Scan", permission: "READ_INVENTORY" },
  "/usage-log": { title: "Usage Log", permission: "READ_INVENTORY" },
  // Commands recorded offline at the cart that the server refused on replay (issue #25): everyone
  // sees their own, managers resolve them.
  "/flagged": { title: "Flagged Records", permission: "READ_INVENTORY" },
  // Lot recalls: reached from the usage log (no menu entry: the spec fixes the menu).
  "/recalls": { title: "Lot Recalls", permission: "READ_INVENTORY" },
  "/recalls/report": { title: "Recall Report", permission: "READ_INVENTORY" },
  "/reconciliation": { title: "Reconciliation", permission: "READ_REPORTS" },
  // One variation's figures and the sales and movements behind them: reached from the reconciliation.
  "/reconciliation/{variationId}": { title: "Reconciliation Detail", permission: "READ_REPORTS" },
  "/audit": { title: "Audit", permission: "READ_INVENTORY" },
  "/transfers": { title: "Transfers", permission: "READ_TRANSFERS" },
  "/transfers/{id}": { title: "Transfer", permission: "READ_TRANSFERS" },
  "/sales-import": { title: "Sales Import", permission: "READ_IMPORTS" },
  "/sales-import/{id}": { title: "Sales import", permission: "READ_IMPORTS" },
  "/sales-import/items/{id}": { title: "Map a sold item", permission: "READ_IMPORTS" },
  "/recipes-import": { title: "Recipes Import", permission: "READ_IMPORTS" },
  "/purchase-orders": { title: "Purchase Orders", permission: "READ_PURCHASING" },
  "/purchase-orders/{id}": { title: "Purchase Order", permission: "READ_PURCHASING" },
  "/purchase-orders/{id}/add-items": {
    title: "Add Items to Purchase Order",
    permission: "READ_PURCHASING",
  },
  "/receiving": { title: "Receiving", permission: "READ_INVENTORY" },
  "/receiving/{receiptId}/add-products": {
    title: "Add Products to Receipt",
    permission: "READ_INVENTORY",
  },
  "/receiving/{receiptId}/print-labels": { title: "Print Labels", permission: "READ_INVENTORY" },
  "/printer-settings": { title: "Printer Settings", permission: "READ_SETTINGS" },
  "/activity-log": { title: "Activity Log", permission: "READ_ACTIVITY" },
  "/backup-restore": { title: "Backup & Restore", permission: "READ_BACKUPS" },
  "/admin/audits": { title: "Audit Review", permission: "READ_AUDITS" },
  "/admin/audits/{id}": { title: "Audit Detail", permission: "READ_AUDITS" },
  "/users": { title: "Users", permission: "READ_USERS" },
  "/locations": { title: "Locations", permission: "READ_LOCATIONS" },
} as const satisfies Record<string, Omit<Area, "path">>;

export type AreaPath = keyof typeof AREAS;

export function area(path: AreaPath): Area {
  return { path, ...AREAS[path] };
}
