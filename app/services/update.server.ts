// Editing a service's details under optimistic concurrency: the save names the version the form
// was loaded at, and the UPDATE only matches that version (a stale form changes nothing).
import { and, eq, sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { isServiceCodeClash, serviceColumns } from "./create.server";
import type { ServiceInput } from "./forms";
import { codeTakenMessage, type Outcome, refuse } from "./outcome";

const s = schema.services;

export async function updateService(
  db: Database,
  actor: ScopedActor,
  input: ServiceInput & { serviceId: string; version: number },
): Promise<Outcome<{ changed: boolean; version: number }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const { serviceId, version } = input;
  const columns = serviceColumns(input);
  const mine = and(eq(s.id, serviceId), sql`${s.organizationId} = ${organizationOf(actor)}`);
  const differs = sql`(${s.name} IS NOT ${columns.name} OR ${s.code} IS NOT ${columns.code}
    OR ${s.category} IS NOT ${columns.category} OR ${s.priceCents} IS NOT ${columns.priceCents}
    OR ${s.durationMinutes} IS NOT ${columns.durationMinutes})`;
  const guard = and(mine, eq(s.version, version), differs);
  try {
    const { updated, current } = await changeWithActivity(db, {
      from: s,
      guard,
      activity: {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "update_service",
        entity: "service",
        entityId: serviceId,
        summary: sql`json_object('version', version + 1,
          'before', json_object('name', name, 'code', code, 'category', category,
            'priceCents', price_cents, 'durationMinutes', duration_minutes),
          'after', json_object('name', ${columns.name}, 'code', ${columns.code}, 'category', ${columns.category},
            'priceCents', CAST(${columns.priceCents} AS INTEGER),
            'durationMinutes', CAST(${columns.durationMinutes} AS INTEGER)))`,
      },
      update: db
        .update(s)
        .set({ ...columns, version: sql`${s.version} + 1`, updatedAt: new Date() })
        .where(guard)
        .returning({ version: s.version }),
      readBack: db.select({ version: s.version }).from(s).where(mine),
    });
    if (updated[0]) return { ok: true, changed: true, version: updated[0].version };
    if (!current[0]) return refuse("not_found");
    if (current[0].version !== version) return refuse("changed_meanwhile");
    return { ok: true, changed: false, version };
  } catch (error) {
    if (isServiceCodeClash(error)) return refuse("code_taken", codeTakenMessage(columns.code));
    throw error;
  }
}
