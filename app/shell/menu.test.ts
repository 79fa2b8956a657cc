import { describe, expect, it } from "vitest";
import { BASIC_MENU, FULL_MENU, menuFor } from "./menu";

const labels = (groups: readonly { label: string; items: { label: string }[] }[]) =>
  groups.map((g) => [g.label, g.items.map((i) => i.label)]);

describe("sidebar menu", () => {
  it("gives full users the spec's five groups in order", () => {
    expect(labels(FULL_MENU)).toEqual([
      ["Operations", ["Dashboard", "Inventory", "Scan", "Audit", "Transfers", "Reconciliation", "Usage Log"]],
      ["Catalog", ["Products", "Services"]],
      ["Imports", ["Sales Import", "Recipes Import"]],
      ["Procurement", ["Vendors", "Purchase Orders", "Receiving"]],
      ["Administration", ["Users", "Locations", "Audit Review", "Printer Settings", "Backup & Restore"]],
    ]);
  });

  it("gives basic users the reduced Operations menu", () => {
    expect(labels(BASIC_MENU)).toEqual([["Operations", ["Dashboard", "Inventory", "Scan", "Receiving", "Usage Log"]]]);
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
