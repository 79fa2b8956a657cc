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
        (SELECT group_concat(l.id) FROM locations AS l WHERE l.organization_id = o.id AND l.active = 1) AS locationIds
      FROM organizations AS o`,
  );
  return rows.flatMap(({ organizationId, adminId, locationIds }) =>
    adminId && locationIds
      ? [
          {
            organizationId,
            actor: {
              id: adminId,
              organizationRole: "ORGANIZATION_ADMIN" as const,
              locationId: ORGANIZATION,
              locationRoles: locationIds.split(",").map((locationId) => ({ locationId, role: "ADMIN" as const })),
            },
          },
        ]
      : [],
  );
}
