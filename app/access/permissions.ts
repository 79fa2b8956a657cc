// Who may do what where (spec section 6, completed in domain.md). One module, used by the server
// on every loader and action and mirrored by the UI, which only hides what the server refuses.
import type { LocationRole } from "../../db/schema/people/user-location-roles";

export const AREAS = [
  "INVENTORY",
  "PRODUCTS",
  "TRANSFERS",
  "AUDITS",
  "PURCHASING",
  "VENDORS",
  "IMPORTS",
  "REPORTS",
  "USERS",
  "LOCATIONS",
  "SETTINGS",
  "BACKUPS",
  "ACTIVITY",
] as const;
export type Area = (typeof AREAS)[number];
export type Permission = `READ_${Area}` | `WRITE_${Area}`;

export const ALL_PERMISSIONS: readonly Permission[] = AREAS.flatMap((a) => [`READ_${a}`, `WRITE_${a}`] as const);

/** The organization-wide view: only organization admins may use it. */
export const ORGANIZATION = "all";

const ROLE_PERMISSIONS: Record<LocationRole, ReadonlySet<Permission>> = {
  ADMIN: new Set(ALL_PERMISSIONS),
  MANAGER: new Set([
    ...ALL_PERMISSIONS.filter((p) => p.startsWith("READ_")),
    "WRITE_INVENTORY",
    "WRITE_TRANSFERS",
    "WRITE_PRODUCTS",
  ]),
  STAFF: new Set(["READ_INVENTORY", "READ_TRANSFERS", "READ_PRODUCTS", "WRITE_INVENTORY"]),
};

export interface Access {
  organizationRole: "ORGANIZATION_ADMIN" | null;
  locationRoles: readonly { locationId: string; role: LocationRole }[];
}

export function isOrganizationAdmin(access: Access): boolean {
  return access.organizationRole === "ORGANIZATION_ADMIN";
}

/** The user's role at one location, or null when they have none there. */
export function roleAt(access: Access, locationId: string): LocationRole | null {
  return access.locationRoles.find((r) => r.locationId === locationId)?.role ?? null;
}

/**
 * Whether the user holds `permission` at `locationId`. Organization admins hold everything
 * everywhere; everyone else needs a location, and a role there that grants it.
 */
export function can(access: Access, permission: Permission, locationId: string | null | undefined): boolean {
  if (isOrganizationAdmin(access)) return true;
  if (!locationId || locationId === ORGANIZATION) return false;
  const role = roleAt(access, locationId);
  return role !== null && ROLE_PERMISSIONS[role].has(permission);
}

/** Basic users get the reduced Operations menu: no organization role and only STAFF roles. */
/** The ids of the locations where `access` holds `permission` (by its location roles). */
export function locationsWith(access: Access, permission: Permission): string[] {
  return access.locationRoles.filter((r) => can(access, permission, r.locationId)).map((r) => r.locationId);
}

export function isBasicUser(access: Access): boolean {
  return !isOrganizationAdmin(access) && access.locationRoles.every((r) => r.role === "STAFF");
}
