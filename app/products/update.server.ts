// Editing a product under optimistic concurrency: the form carries the `version` it was loaded
// with, and the UPDATE only applies to that version (and bumps it). A stale save changes nothing
// and is refused, so one person's edit is never silently overwritten by another's. The safety
// fields (controlled, beyond-use hours, tracking) govern every location: only organization admins
// change them, and tracking never changes under stock that was counted the other way.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canChangeSafetyFields, canWriteCatalog } from "~/access/may-change";
import { changedFields, changeWithActivity } from "~/activity/change.server";
import { type Database, schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { isSkuClash, productSummary, skuTaken } from "./create.server";
import type { ProductEditInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

/** The fields the edit form sets, as the activity summary names and orders them. */
const FIELDS = [
  "name",
  "sku",
  "category",
  "manufacturer",
  "defaultVendorId",
  "tracking",
  "baseUnit",
  "unitScale",
  "beyondUseHours",
  "storage",
  "controlled",
  "costCents",
  "priceCents",
] as const;

/**
 * Whether the product (an id expression) has stock, vials or open receipt lines: they were counted
 * the way it is tracked, so its tracking stays (the edit's guard, and the page that says so).
 */
export function trackingLocked(product: SQL | SQLiteColumn): SQL<number> {
  return sql<number>`EXISTS (SELECT 1 FROM product_variations AS pv WHERE pv.product_id = ${product} AND (
    EXISTS (SELECT 1 FROM stock_levels AS sl WHERE sl.variation_id = pv.id AND sl.on_hand > 0)
    OR EXISTS (SELECT 1 FROM items AS i WHERE i.variation_id = pv.id AND i.state NOT IN ('empty', 'discarded'))
    OR EXISTS (SELECT 1 FROM receipt_lines AS rl JOIN receipts AS r ON r.id = rl.receipt_id
      WHERE rl.variation_id = pv.id AND r.status = 'open')))`;
}

export async function updateProduct(
  db: Database,
  actor: ScopedActor,
  input: ProductEditInput & { productId: string },
): Promise<Outcome<{ changed: boolean; version: number }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const { productId, version } = input;
  const values = productSummary(input);
  const organization = organizationOf(actor);

  const { differs, before, after } = changedFields(schema.products, FIELDS, values);
  const vendorOk = sql`(${values.defaultVendorId} IS NULL OR ${values.defaultVendorId} IS products.default_vendor_id
    OR EXISTS (SELECT 1 FROM vendors AS vn WHERE vn.id = ${values.defaultVendorId}
      AND vn.organization_id = products.organization_id AND vn.active = 1))`;
  // Units per package (and any stock) are counted at the scale: it is settled by the first variation.
  const scaleOk = sql`(products.unit_scale = ${values.unitScale}
    OR NOT EXISTS (SELECT 1 FROM product_variations AS pv WHERE pv.product_id = products.id))`;
  // Stock, vials and open receipt lines were counted the way the product is tracked: switched under
  // them, a bulk adjustment could take units sealed vials hold. Tracking changes only with none.
  const trackingOk = sql`(products.tracking = ${values.tracking} OR NOT ${trackingLocked(sql`products.id`)})`;
  // Controlled, beyond-use hours and tracking govern every location: anyone else sends them unchanged.
  const safetyOk = canChangeSafetyFields(actor)
    ? sql`1`
    : sql`(products.controlled IS ${values.controlled} AND products.beyond_use_hours IS ${values.beyondUseHours}
      AND products.tracking IS ${values.tracking})`;
  const found = sql`products.id = ${productId} AND products.organization_id = ${organization}`;
  const guard = sql`${found} AND products.version = ${version} AND ${safetyOk} AND ${vendorOk} AND ${scaleOk}
    AND ${trackingOk} AND ${differs}`;

  try {
    const { updated, current } = await changeWithActivity(db, {
      from: schema.products,
      guard,
      activity: {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "update_product",
        entity: "product",
        entityId: productId,
        summary: sql`json_object('name', ${values.name}, 'before', ${before}, 'after', ${after})`,
      },
      update: db.all<{ version: number }>(sql`UPDATE products SET name = ${values.name}, sku = ${values.sku},
          category = ${values.category}, manufacturer = ${values.manufacturer},
          default_vendor_id = ${values.defaultVendorId}, tracking = ${values.tracking}, base_unit = ${values.baseUnit},
          unit_scale = ${values.unitScale}, beyond_use_hours = ${values.beyondUseHours}, storage = ${values.storage},
          controlled = ${values.controlled ? 1 : 0}, cost_cents = ${values.costCents}, price_cents = ${values.priceCents},
          version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING version`),
      readBack: db.all<{
        version: number;
        differs: number;
        safetyOk: number;
        vendorOk: number;
        scaleOk: number;
        trackingOk: number;
      }>(
        sql`SELECT version, ${differs} AS differs, ${safetyOk} AS safetyOk, ${vendorOk} AS vendorOk,
          ${scaleOk} AS scaleOk, ${trackingOk} AS trackingOk FROM products WHERE ${found}`,
      ),
    });
    const done = updated[0];
    if (done) return { ok: true, changed: true, version: Number(done.version) };
    const row = current[0];
    if (!row) return refuse("not_found");
    if (!row.differs) return { ok: true, changed: false, version: Number(row.version) };
    if (Number(row.version) !== version) return refuse("stale");
    if (!row.safetyOk) return refuse("safety_admin_only");
    if (!row.vendorOk) return refuse("vendor_unavailable");
    if (!row.scaleOk) return refuse("scale_locked");
    if (!row.trackingOk) {
      return refuse(
        "tracking_locked",
        `${values.name} has stock, vials or open receipt lines, so its tracking cannot change: they were counted the way it is tracked now. To track it the other way, create a new product with that tracking, and archive this one once its stock is used up.`,
      );
    }
    return { ok: true, changed: false, version: Number(row.version) };
  } catch (error) {
    if (isSkuClash(error)) return skuTaken(values.sku);
    throw error;
  }
}
