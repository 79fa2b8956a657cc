// The product detail screen's data in one batch (one round trip): the product, its variations
// with barcodes, par levels and on-hand where the viewer stands (ADR 0014), the last 20 changes
// to the product or its variations, and the edit form's choices.
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { ActorHere } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { formChoiceQueries } from "./list.server";
import { trackingLocked } from "./update.server";

export const RECENT_CHANGES = 20;

const p = schema.products;
const v = schema.productVariations;
const b = schema.barcodes;
const par = schema.parLevels;
const stock = schema.stockLevels;
const log = schema.activityLog;
const u = schema.users;

export async function productDetail(db: Database, actor: ActorHere, productId: string) {
  const { scope } = actor;
  const organization = organizationOf(actor);
  // Every statement reaches the product through this: nothing outside the organization is read.
  const ownProduct = sql`(SELECT id FROM products WHERE id = ${productId} AND organization_id = ${organization})`;
  const variationIds = db.select({ id: v.id }).from(v).where(eq(v.productId, ownProduct));
  // Par levels and on-hand are location-bound: the location in scope, every one in organization mode (ADR 0014).
  const locationIds = locationsFor(actor, "READ_PRODUCTS").ids;
  const shown = actor.locationRoles.filter((r) => locationIds.includes(r.locationId));
  const [products, variations, barcodes, parLevels, stockLevels, changes, categories, vendors, zone] = await db.batch([
    db
      .select({
        id: p.id,
        name: p.name,
        sku: p.sku,
        category: p.category,
        manufacturer: p.manufacturer,
        defaultVendorId: p.defaultVendorId,
        defaultVendorName: schema.vendors.name,
        tracking: p.tracking,
        baseUnit: p.baseUnit,
        unitScale: sql<UnitScale>`${p.unitScale}`,
        beyondUseHours: p.beyondUseHours,
        storage: p.storage,
        controlled: p.controlled,
        costCents: p.costCents,
        priceCents: p.priceCents,
        active: p.active,
        version: p.version,
        trackingLocked: trackingLocked(p.id),
      })
      .from(p)
      .leftJoin(schema.vendors, eq(schema.vendors.id, p.defaultVendorId))
      .where(eq(p.id, ownProduct)),
    db
      .select({
        id: v.id,
        name: v.name,
        sku: v.sku,
        gtin: v.gtin,
        unitsPerPackage: v.unitsPerPackage,
        costCents: v.costCents,
        active: v.active,
        version: v.version,
      })
      .from(v)
      .where(eq(v.productId, ownProduct))
      .orderBy(desc(v.active), asc(sql`lower(${v.name})`)),
    db
      .select({ id: b.id, code: b.code, variationId: b.variationId })
      .from(b)
      .where(inArray(b.variationId, variationIds))
      .orderBy(asc(b.code)),
    db
      .select({
        locationId: par.locationId,
        variationId: par.variationId,
        par: par.par,
        reorderPoint: par.reorderPoint,
        max: par.max,
      })
      .from(par)
      .where(and(inArray(par.variationId, variationIds), inArray(par.locationId, locationIds))),
    db
      .select({ locationId: stock.locationId, variationId: stock.variationId, onHand: stock.onHand })
      .from(stock)
      .where(and(inArray(stock.variationId, variationIds), inArray(stock.locationId, locationIds))),
    db
      .select({
        id: log.id,
        at: log.at,
        action: log.action,
        entity: log.entity,
        summary: log.summary,
        firstName: u.firstName,
        lastName: u.lastName,
      })
      .from(log)
      .leftJoin(u, eq(u.id, log.userId))
      .where(
        or(
          and(eq(log.entity, "product"), eq(log.entityId, ownProduct)),
          and(eq(log.entity, "variation"), inArray(log.entityId, variationIds)),
        ),
      )
      .orderBy(desc(log.at), desc(log.id))
      .limit(RECENT_CHANGES),
    ...formChoiceQueries(db, actor, sql`(SELECT default_vendor_id FROM products WHERE id = ${ownProduct})`),
    // Times are shown in the zone of the location in scope (UTC in organization mode).
    db
      .select({ timezone: schema.locations.timezone })
      .from(schema.locations)
      .where(eq(schema.locations.id, scope.kind === "location" ? scope.locationId : "")),
  ]);
  const product = products[0];
  if (!product) return null;
  return {
    product,
    variations: variations.map((variation) => ({
      ...variation,
      barcodes: barcodes.filter((x) => x.variationId === variation.id).map(({ id, code }) => ({ id, code })),
      locations: shown.map((r) => {
        const level = parLevels.find((x) => x.variationId === variation.id && x.locationId === r.locationId);
        const onHand = stockLevels.find((x) => x.variationId === variation.id && x.locationId === r.locationId);
        return {
          locationId: r.locationId,
          name: r.location.name,
          code: r.location.code,
          // stock_levels has no row until something is received there: that is zero on hand.
          onHand: onHand?.onHand ?? 0,
          parLevel: level ? { par: level.par, reorderPoint: level.reorderPoint, max: level.max } : null,
        };
      }),
    })),
    changes,
    categories: categories.map((c) => c.category),
    vendors,
    timezone: zone[0]?.timezone ?? "UTC",
  };
}
