// Adding a product to the catalogue: WRITE_PRODUCTS at the location in scope. The SKU is unique
// in the organization (a unique index) and the default vendor must be one of its active vendors.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { ProductInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

/** The unique index on (organization, sku) is the guard; its failure rolls the batch back. */
export function isSkuClash(error: unknown): boolean {
  return constraintFailed(error, /products\.organization_id, products\.sku/);
}

export function skuTaken(sku: string | null) {
  return refuse("sku_taken", `Another product already uses the SKU ${sku}. Choose a different SKU, or leave it empty.`);
}

/** Null, or an active vendor of the organization of `organization` (a SQL expression). */
export function usableVendor(vendorId: string | null, organization: SQL): SQL {
  return sql`(${vendorId} IS NULL OR EXISTS (SELECT 1 FROM vendors AS vn
    WHERE vn.id = ${vendorId} AND vn.organization_id = ${organization} AND vn.active = 1))`;
}

/** The product's columns as the activity summary names them. */
export function productSummary(input: ProductInput) {
  return {
    name: input.name,
    sku: input.sku,
    category: input.category,
    manufacturer: input.manufacturer,
    defaultVendorId: input.defaultVendorId,
    tracking: input.tracking,
    baseUnit: input.baseUnit,
    unitScale: input.unitScale,
    beyondUseHours: input.beyondUseHours,
    storage: input.storage,
    controlled: input.controlled,
    costCents: input.cost,
    priceCents: input.price,
  };
}

export async function createProduct(
  db: Database,
  actor: ScopedActor,
  input: ProductInput,
): Promise<Outcome<{ productId: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const productId = uuidv7();
  const organization = organizationOf(actor);
  const p = productSummary(input);
  try {
    const [inserted] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO products (id, organization_id, name, sku, category, manufacturer,
          default_vendor_id, tracking, base_unit, unit_scale, beyond_use_hours, storage, controlled, cost_cents,
          price_cents, active, version, created_at)
        SELECT ${productId}, ${organization}, ${p.name}, ${p.sku}, ${p.category}, ${p.manufacturer},
          ${p.defaultVendorId}, ${p.tracking}, ${p.baseUnit}, ${p.unitScale}, ${p.beyondUseHours}, ${p.storage},
          ${p.controlled ? 1 : 0}, ${p.costCents}, ${p.priceCents}, 1, 1, ${Date.now()}
        WHERE ${usableVendor(p.defaultVendorId, organization)}
        RETURNING id`),
      // After the insert: logged exactly when the product was written.
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "create_product",
          entity: "product",
          entityId: productId,
          summary: sql`json(${JSON.stringify(p)})`,
        },
        sql`FROM products WHERE id = ${productId}`,
      ),
    ]);
    if (inserted.length !== 1) return refuse("vendor_unavailable");
  } catch (error) {
    if (isSkuClash(error)) return skuTaken(p.sku);
    throw error;
  }
  return { ok: true, productId };
}
