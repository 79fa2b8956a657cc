// Archiving and restoring a service (never deleting: sales and usage history point at it). An
// archived service leaves the active list; its recipe is kept for when it is restored.
import { and, eq, sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { activeChange, changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

const s = schema.services;

async function setActive(
  db: Database,
  actor: ScopedActor,
  serviceId: string,
  active: boolean,
): Promise<Outcome<{ name: string; code: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const mine = and(eq(s.id, serviceId), sql`${s.organizationId} = ${organizationOf(actor)}`);
  const guard = and(mine, eq(s.active, !active));
  const { updated, current } = await changeWithActivity(db, {
    from: s,
    guard,
    activity: {
      userId: actor.id,
      locationId: activityLocation(actor),
      action: active ? "restore_service" : "archive_service",
      entity: "service",
      entityId: serviceId,
      summary: sql`json_object('code', code, 'version', version + 1, ${activeChange(active)})`,
    },
    update: db
      .update(s)
      .set({ active, version: sql`${s.version} + 1`, updatedAt: new Date() })
      .where(guard)
      .returning({ id: s.id }),
    readBack: db.select({ name: s.name, code: s.code }).from(s).where(mine),
  });
  const service = current[0];
  if (!service) return refuse("not_found");
  if (updated.length !== 1) return refuse(active ? "already_active" : "already_archived");
  return { ok: true, ...service };
}

export function archiveService(db: Database, actor: ScopedActor, serviceId: string) {
  return setActive(db, actor, serviceId, false);
}

export function restoreService(db: Database, actor: ScopedActor, serviceId: string) {
  return setActive(db, actor, serviceId, true);
}
