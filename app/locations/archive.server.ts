// Archiving and restoring a location (never deleting: history points at it). An archived location
// leaves every switcher, because the session only lists active locations. Organization admins only.
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import { activeChange, changeWithActivity } from "~/activity/change.server";
import type { ActivityAction } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

async function setActive(
  db: Database,
  actor: Actor,
  locationId: string,
  active: boolean,
): Promise<Outcome<{ name: string; code: string }>> {
  if (!isOrganizationAdmin(actor)) return refuse("forbidden");
  const l = schema.locations;
  const guard = and(eq(l.id, locationId), sql`${l.organizationId} = ${organizationOf(actor)}`, eq(l.active, !active));
  const action: ActivityAction = active ? "restore_location" : "archive_location";
  const { updated, current } = await changeWithActivity(db, {
    from: l,
    guard,
    activity: {
      userId: actor.id,
      locationId,
      action,
      entity: "location",
      entityId: locationId,
      summary: sql`json_object('code', code, ${activeChange(active)})`,
    },
    update: db.update(l).set({ active, updatedAt: new Date() }).where(guard).returning({ id: l.id }),
    readBack: db
      .select({ name: l.name, code: l.code })
      .from(l)
      .where(and(eq(l.id, locationId), sql`${l.organizationId} = ${organizationOf(actor)}`)),
  });
  const location = current[0];
  if (!location) return refuse("not_found");
  if (updated.length !== 1) return refuse(active ? "already_active" : "already_archived");
  return { ok: true, ...location };
}

export function archiveLocation(db: Database, actor: Actor, locationId: string) {
  return setActive(db, actor, locationId, false);
}

export function restoreLocation(db: Database, actor: Actor, locationId: string) {
  return setActive(db, actor, locationId, true);
}
