import { describe, expect, it } from "vitest";
import { type Access, can } from "~/access/permissions";
import { area } from "./areas";
import { BASIC_MENU, FULL_MENU, menuFor } from "./menu";

const labels = (groups: readonly { label: string; items: { label: string }[] }[]) =>
  groups.map((g) => [g.label, g.items.map((i) => i.label)]);

describe("sidebar menu", () => {
  it("gives full users the spec's five groups in order", () => {
    expect(labels(FULL_MENU)).toEqual([
      [
        "Operations",
        [
          "Dashboard",
          "Inventory",
          "Stock Levels",
          "Scan",
          "Audit",
          "Transfers",
          "Reconciliation",
          "Usage Log",
          "Flagged Records",
        ],
      ],
      ["Catalog", ["Products", "Services"]],
      ["Imports", ["Sales Import", "Recipes Import"]],
      ["Procurement", ["Vendors", "Purchase Orders", "Receiving"]],
      ["Administration", ["Users", "Locations", "Audit Review", "Printer Settings", "Backup & Restore"]],
    ]);
  });

  it("gives basic users the reduced Operations menu", () => {
    expect(labels(BASIC_MENU)).toEqual([
      ["Operations", ["Dashboard", "Inventory", "Stock Levels", "Scan", "Receiving", "Usage Log", "Flagged Records"]],
    ]);
  });

  it("puts Stock Levels beside Inventory for everyone who reads inventory", () => {
    expect(area("/stock-levels").permission).toBe("READ_INVENTORY");
    const people: Access[] = [
      { organizationRole: "ORGANIZATION_ADMIN", locationRoles: [] },
      ...(["STAFF", "MANAGER", "ADMIN"] as const).map((role) => ({
        organizationRole: null,
        locationRoles: [{ locationId: "a", role }],
      })),
    ];
    for (const access of people) {
      expect(can(access, "READ_INVENTORY", "a")).toBe(true);
      const items = menuFor(access).flatMap((g) => g.items);
      const at = items.findIndex((i) => i.to === "/stock-levels");
      expect(items[at]?.label).toBe("Stock Levels");
      expect(items[at - 1]?.to).toBe("/inventory");
    }
  });

  it("decides by role: STAFF-only and role-less users are basic, anyone more is full", () => {
    const staff = { organizationRole: null, locationRoles: [{ locationId: "a", role: "STAFF" as const }] };
    const manager = { organizationRole: null, locationRoles: [{ locationId: "a", role: "MANAGER" as const }] };
    expect(menuFor(staff)).toBe(BASIC_MENU);
    expect(menuFor({ organizationRole: null, locationRoles: [] })).toBe(BASIC_MENU);
    expect(menuFor(manager)).toBe(FULL_MENU);
    expect(menuFor({ organizationRole: "ORGANIZATION_ADMIN", locationRoles: [] })).toBe(FULL_MENU);
  });
});
