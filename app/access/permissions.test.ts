import { describe, expect, it } from "vitest";
import { type Access, ALL_PERMISSIONS, can, isBasicUser, ORGANIZATION } from "./permissions";

const at = (role: "ADMIN" | "MANAGER" | "STAFF"): Access => ({
  organizationRole: null,
  locationRoles: [{ locationId: "L1", role }],
});

describe("permissions", () => {
  it("gives an organization admin every permission at every location and in organization mode", () => {
    const owner: Access = { organizationRole: "ORGANIZATION_ADMIN", locationRoles: [] };
    for (const p of ALL_PERMISSIONS) {
      expect(can(owner, p, "anywhere")).toBe(true);
      expect(can(owner, p, ORGANIZATION)).toBe(true);
      expect(can(owner, p, null)).toBe(true);
    }
  });

  it("gives ADMIN every permission at its own location only", () => {
    for (const p of ALL_PERMISSIONS) {
      expect(can(at("ADMIN"), p, "L1")).toBe(true);
      expect(can(at("ADMIN"), p, "L2")).toBe(false);
    }
  });

  it("gives MANAGER every READ_ plus WRITE_INVENTORY, WRITE_TRANSFERS and WRITE_PRODUCTS", () => {
    const granted = ALL_PERMISSIONS.filter((p) => can(at("MANAGER"), p, "L1"));
    const expected = ALL_PERMISSIONS.filter(
      (p) => p.startsWith("READ_") || ["WRITE_INVENTORY", "WRITE_TRANSFERS", "WRITE_PRODUCTS"].includes(p),
    );
    expect(granted).toEqual(expected);
  });

  it("gives STAFF exactly READ_INVENTORY, READ_TRANSFERS, READ_PRODUCTS and WRITE_INVENTORY", () => {
    const granted = ALL_PERMISSIONS.filter((p) => can(at("STAFF"), p, "L1"));
    expect([...granted].sort()).toEqual(["READ_INVENTORY", "READ_PRODUCTS", "READ_TRANSFERS", "WRITE_INVENTORY"]);
  });

  it("needs a location for everyone but organization admins, and never grants organization mode", () => {
    for (const role of ["ADMIN", "MANAGER", "STAFF"] as const) {
      expect(can(at(role), "READ_INVENTORY", null)).toBe(false);
      expect(can(at(role), "READ_INVENTORY", ORGANIZATION)).toBe(false);
    }
    expect(can({ organizationRole: null, locationRoles: [] }, "READ_INVENTORY", "L1")).toBe(false);
  });

  it("calls a user basic when they have no organization role and only STAFF roles", () => {
    expect(isBasicUser(at("STAFF"))).toBe(true);
    expect(isBasicUser({ organizationRole: null, locationRoles: [] })).toBe(true);
    expect(isBasicUser(at("MANAGER"))).toBe(false);
    expect(isBasicUser({ organizationRole: "ORGANIZATION_ADMIN", locationRoles: [] })).toBe(false);
  });
});
