// Archiving and restoring a vendor (never deleting: products, purchase orders and receipts point at
// it). An archived vendor is no longer offered as a product's default vendor; products keep it.
import { and, eq, sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { type ActivityAction, logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { canWriteVendors } from "./actor";
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
  const action: ActivityAction = active ? "vendor_restore" : "vendor_archive";
  const [, changed, found] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action,
        entity: "vendor",
        entityId: vendorId,
        summary: sql`json_object('name', name, 'before', json_object('active', json(${String(!active)})),
          'after', json_object('active', json(${String(active)})))`,
      },
      sql`FROM vendors WHERE ${guard}`,
    ),
    // The version moves too: an edit form opened before the archive is out of date.
    db
      .update(v)
      .set({ active, version: sql`${v.version} + 1`, updatedAt: new Date() })
      .where(guard)
      .returning({ id: v.id }),
    db.select({ name: v.name }).from(v).where(here),
  ]);
  const vendor = found[0];
  if (!vendor) return refuse("not_found");
  if (changed.length !== 1) return refuse(active ? "already_active" : "already_archived");
  return { ok: true, name: vendor.name };
}

export function archiveVendor(db: Database, actor: ScopedActor, vendorId: string) {
  return setActive(db, actor, vendorId, false);
}

export function restoreVendor(db: Database, actor: ScopedActor, vendorId: string) {
  return setActive(db, actor, vendorId, true);
}
