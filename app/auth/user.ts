// One person, one shape for the browser and the API (spec section 3, "currentUser"). The server
// reads the same person from the session as `SessionUser` (./session.server: with the session id
// and each location's name and time zone), and app/access/current-user.ts makes this shape from
// it; the login answer is this shape before the roles per location are listed.
import type { LocationRole } from "../../db/schema/people/user-location-roles";

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Highest role anywhere, for display: an organization admin counts as ADMIN. */
  role: LocationRole | null;
  organizationRole: "ORGANIZATION_ADMIN" | null;
  /** Organization admins: one entry {locationId: 'all', role: 'ADMIN'}; others: their location roles. */
  locationRoles: { locationId: string; role: LocationRole }[];
}
