// Archiving and restoring products and variations: never deleted, history and stock point at
// them. An archived product leaves the default list; its detail page still shows everything.
import { sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { activeChange, changeWithActivity } from "~/activity/change.server";
import type { ActivityAction } from "~/activity/log.server";
import { type Database, schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

async function setProductActive(
  db: Database,
  actor: ScopedActor,
  productId: string,
  active: boolean,
): Promise<Outcome<{ name: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const found = sql`id = ${productId} AND organization_id = ${organizationOf(actor)}`;
  const guard = sql`${found} AND active = ${active ? 0 : 1}`;
  const action: ActivityAction = active ? "restore_product" : "archive_product";
  const { updated, current } = await changeWithActivity(db, {
    from: schema.products,
    guard,
    activity: {
      userId: actor.id,
      locationId: activityLocation(actor),
      action,
      entity: "product",
      entityId: productId,
      summary: sql`json_object('name', name, ${activeChange(active)})`,
    },
    // An open edit form becomes stale: its author sees the archive before saving over it.
    update: db.all<{ id: string }>(sql`UPDATE products SET active = ${active ? 1 : 0}, version = version + 1,
      updated_at = ${Date.now()} WHERE ${guard} RETURNING id`),
    readBack: db.all<{ name: string }>(sql`SELECT name FROM products WHERE ${found}`),
  });
  const product = current[0];
  if (!product) return refuse("not_found");
  if (updated.length !== 1) {
    return active
      ? refuse("already_active", "This product is already active.")
      : refuse("already_archived", "This product is already archived.");
  }
  return { ok: true, name: product.name };
}

export function archiveProduct(db: Database, actor: ScopedActor, productId: string) {
  return setProductActive(db, actor, productId, false);
}

export function restoreProduct(db: Database, actor: ScopedActor, productId: string) {
  return setProductActive(db, actor, productId, true);
}
