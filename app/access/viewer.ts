// The current user as the browser sees it (spec section 3), made on the server from the session.
import { highestRole } from "~/auth/roles";
import type { SessionUser } from "~/auth/session.server";
import type { LocationRole } from "../../db/schema/people/user-location-roles";
import { isOrganizationAdmin, ORGANIZATION } from "./permissions";

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: LocationRole | null;
  organizationRole: "ORGANIZATION_ADMIN" | null;
  /** Organization admins: one entry {locationId: 'all', role: 'ADMIN'}; others: their location roles. */
  locationRoles: { locationId: string; role: LocationRole }[];
}

export function currentUserOf(user: SessionUser): CurrentUser {
  const admin = isOrganizationAdmin(user);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: highestRole(user.organizationRole, user.locationRoles),
    organizationRole: user.organizationRole,
    locationRoles: admin
      ? [{ locationId: ORGANIZATION, role: "ADMIN" }]
      : user.locationRoles.map(({ locationId, role }) => ({ locationId, role })),
  };
}
