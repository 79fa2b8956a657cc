// Each organization as one of its admins sees it in organization mode: for the jobs worker, which
// works out figures for a whole organization (ADR 0030) with the same statements a reader runs. An
// organization admin in organization mode reaches every active location, as the session reads them.
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import type { ScopedActor } from "./actor";
import { ORGANIZATION } from "./permissions";

export interface OrganizationReader {
  organizationId: string;
  /** One of its admins, in organization mode. */
  actor: ScopedActor;
}

/** Every organization with an admin and an active location, read as that admin in organization mode. */
export async function organizationReaders(db: Database): Promise<OrganizationReader[]> {
  const rows = await db.all<{ organizationId: string; adminId: string | null; locationIds: string | null }>(
    sql`SELECT o.id AS organizationId,
        (SELECT u.id FROM users AS u WHERE u.organization_id = o.id AND u.organization_role = 'ORGANIZATION_ADMIN'
          ORDER BY u.id LIMIT 1) AS adminId,
        (SELECT json_group_array(json_object('id', l.id, 'timeZone', l.timezone)) FROM locations AS l
          WHERE l.organization_id = o.id AND l.active = 1) AS locationIds
      FROM organizations AS o`,
  );
  return rows.flatMap(({ organizationId, adminId, locationIds }) => {
    const locations = JSON.parse(locationIds ?? "[]") as { id: string; timeZone: string }[];
    return adminId && locations.length
      ? [
          {
            organizationId,
            actor: {
              id: adminId,
              organizationRole: "ORGANIZATION_ADMIN" as const,
              locationId: ORGANIZATION,
              locationRoles: locations.map((l) => ({
                locationId: l.id,
                role: "ADMIN" as const,
                location: { timeZone: l.timeZone },
              })),
            },
          },
        ]
      : [];
  });
}
