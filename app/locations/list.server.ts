// What the locations screens read, one batch each: organization admins see every location
// (active first, then archived); everyone else the active locations where they hold a role.
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";

const l = schema.locations;

const columns = {
  id: l.id,
  name: l.name,
  code: l.code,
  address: l.address,
  timezone: l.timezone,
  active: l.active,
  people: sql<number>`(SELECT count(*) FROM user_location_roles AS r WHERE r.location_id = ${l.id})`,
};

function visibleTo(actor: Actor): SQL | undefined {
  const sameOrganization = sql`${l.organizationId} = ${organizationOf(actor)}`;
  if (isOrganizationAdmin(actor)) return sameOrganization;
  return and(
    sameOrganization,
    eq(l.active, true),
    sql`EXISTS (SELECT 1 FROM user_location_roles AS mine WHERE mine.location_id = ${l.id} AND mine.user_id = ${actor.id})`,
  );
}

export function listLocations(db: Database, actor: Actor) {
  return db.select(columns).from(l).where(visibleTo(actor)).orderBy(desc(l.active), asc(l.name));
}

export async function locationDetail(db: Database, actor: Actor, locationId: string) {
  const [location] = await db
    .select(columns)
    .from(l)
    .where(and(eq(l.id, locationId), visibleTo(actor)));
  return location ?? null;
}
