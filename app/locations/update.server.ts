// Editing a location's name, code, address and time zone: organization admins anywhere, a
// location admin at their own location (WRITE_LOCATIONS there).
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { can } from "~/access/permissions";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { isCodeClash } from "./create.server";
import type { LocationInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

export async function updateLocation(
  db: Database,
  actor: Actor,
  input: LocationInput & { locationId: string },
): Promise<Outcome<{ changed: boolean }>> {
  const { locationId, ...fields } = input;
  if (!can(actor, "WRITE_LOCATIONS", locationId)) return refuse("forbidden");
  const l = schema.locations;
  const differs = sql`(${l.name} IS NOT ${fields.name} OR ${l.code} IS NOT ${fields.code}
    OR ${l.address} IS NOT ${fields.address} OR ${l.timezone} IS NOT ${fields.timezone})`;
  const guard = and(eq(l.id, locationId), sql`${l.organizationId} = ${organizationOf(actor)}`, differs);
  try {
    const { updated, current } = await changeWithActivity(db, {
      from: l,
      guard,
      activity: {
        userId: actor.id,
        locationId,
        action: "update_location",
        entity: "location",
        entityId: locationId,
        summary: sql`json_object(
          'before', json_object('name', name, 'code', code, 'address', address, 'timezone', timezone),
          'after', json_object('name', ${fields.name}, 'code', ${fields.code}, 'address', ${fields.address},
            'timezone', ${fields.timezone}))`,
      },
      update: db
        .update(l)
        .set({ ...fields, updatedAt: new Date() })
        .where(guard)
        .returning({ id: l.id }),
      readBack: db.all<{ id: string }>(sql`SELECT id FROM locations WHERE id = ${locationId}
        AND organization_id = ${organizationOf(actor)}`),
    });
    if (!current[0]) return refuse("not_found");
    return { ok: true, changed: updated.length === 1 };
  } catch (error) {
    if (isCodeClash(error)) return refuse("code_taken", `A location with the code ${fields.code} already exists.`);
    throw error;
  }
}
