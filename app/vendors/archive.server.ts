// Archiving and restoring a vendor (never deleting: products, purchase orders and receipts point at
// it). An archived vendor is no longer offered as a product's default vendor; products keep it.
import { and, eq, sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteVendors } from "~/access/may-change";
import { activeChange, changeWithActivity } from "~/activity/change.server";
import type { ActivityAction } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

async function setActive(
  db: Database,
  actor: ScopedActor,
  vendorId: string,
  active: boolean,
): Promise<Outcome<{ name: string }>> {
  if (!canWriteVendors(actor)) return refuse("forbidden");
  const v = schema.vendors;
  const here = and(eq(v.id, vendorId), sql`${v.organizationId} = ${organizationOf(actor)}`);
  const guard = and(here, eq(v.active, !active));
  const action: ActivityAction = active ? "restore_vendor" : "archive_vendor";
  const { updated, current } = await changeWithActivity(db, {
    from: v,
    guard,
    activity: {
      userId: actor.id,
      locationId: activityLocation(actor),
      action,
      entity: "vendor",
      entityId: vendorId,
      summary: sql`json_object('name', name, ${activeChange(active)})`,
    },
    // The version moves too: an edit form opened before the archive is out of date.
    update: db
      .update(v)
      .set({ active, version: sql`${v.version} + 1`, updatedAt: new Date() })
      .where(guard)
      .returning({ id: v.id }),
    readBack: db.select({ name: v.name }).from(v).where(here),
  });
  const vendor = current[0];
  if (!vendor) return refuse("not_found");
  if (updated.length !== 1) return refuse(active ? "already_active" : "already_archived");
  return { ok: true, name: vendor.name };
}

export function archiveVendor(db: Database, actor: ScopedActor, vendorId: string) {
  return setActive(db, actor, vendorId, false);
}

export function restoreVendor(db: Database, actor: ScopedActor, vendorId: string) {
  return setActive(db, actor, vendorId, true);
}
