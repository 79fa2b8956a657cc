import type { LocationRole } from "../../db/schema/people/user-location-roles";

const ROLE_RANK: Record<LocationRole, number> = { STAFF: 1, MANAGER: 2, ADMIN: 3 };

/** Highest role anywhere, for display: an organization admin counts as ADMIN. */
export function highestRole(
  organizationRole: string | null,
  roles: readonly { role: LocationRole }[],
): LocationRole | null {
  if (organizationRole === "ORGANIZATION_ADMIN") return "ADMIN";
  let best: LocationRole | null = null;
  for (const { role } of roles) if (!best || ROLE_RANK[role] > ROLE_RANK[best]) best = role;
  return best;
}
