// The current user as the browser sees it (spec section 3, the shape in app/auth/user.ts), made on
// the server from the session: organization admins show as one ADMIN role at "all".
import { highestRole } from "~/auth/roles";
import type { SessionUser } from "~/auth/session.server";
import type { CurrentUser } from "~/auth/user";
import { isOrganizationAdmin, ORGANIZATION } from "./permissions";

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
