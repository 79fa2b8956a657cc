// What the product screens and the catalogue API read: a page of products (search, filters), a
// page of variations, and the form choices (categories, vendors). Each read is one batch.

import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { checkBarcode } from "~/catalog/barcode";
import type { UnitScale } from "~/catalog/format";
import { gtinCandidates } from "~/catalog/gtin";
import { productMatching } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf, valueList } from "~/db/sql.server";
import { numberedPage, pageOffset } from "~/ui/page-count";
import type { StatusFilter, Tracking } from "./constants";

const p = schema.products;
const v = schema.productVariations;
const vendor = schema.vendors;

function withStatus(status: StatusFilter): SQL | undefined {
  if (status === "all") return undefined;
  return eq(p.active, status === "active");
}

export interface ProductListQuery {
  q: string;
  category?: string;
  /** A vendor id, "none" for products without a default vendor, or "" for any. */
  vendor?: string;
  tracking?: Tracking | "";
  status: StatusFilter;
  page: number;
  pageSize: number;
}

const productColumns = {
  id: p.id,
  name: p.name,
  sku: p.sku,
  category: p.category,
  manufacturer: p.manufacturer,
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
  defaultVendorId: p.defaultVendorId,
  defaultVendorName: vendor.name,
  variationCount: sql<number>`(SELECT count(*) FROM product_variations AS vc
    WHERE vc.product_id = ${p.id} AND vc.active = 1)`.mapWith(Number),
};

/** The page of products and the total matching, as two statements for the caller's batch. */
export function productPageQueries(db: Database, actor: Actor, query: ProductListQuery) {
  const where = and(
    sql`${p.organizationId} = ${organizationOf(actor)}`,
    withStatus(query.status),
    query.category ? eq(p.category, query.category) : undefined,
    query.vendor === "none"
      ? isNull(p.defaultVendorId)
      : query.vendor
        ? eq(p.defaultVendorId, query.vendor)
        : undefined,
    query.tracking ? eq(p.tracking, query.tracking) : undefined,
    productMatching(query.q),
  );
  return [
    db
      .select(productColumns)
      .from(p)
      .leftJoin(vendor, eq(vendor.id, p.defaultVendorId))
      .where(where)
      .orderBy(desc(p.active), asc(sql`lower(${p.name})`), asc(p.id))
      .limit(query.pageSize)
      .offset(pageOffset(query.page, query.pageSize)),
    db.select({ total: count() }).from(p).where(where),
  ] as const;
}

/** Categories in use (for the datalist and the filter) and vendors (active, plus `alsoVendorId`). */
export function formChoiceQueries(db: Database, actor: Actor, alsoVendorId: string | SQL | null = null) {
  const organization = organizationOf(actor);
  return [
    db
      .selectDistinct({ category: p.category })
      .from(p)
      .where(sql`${p.organizationId} = ${organization}`)
      .orderBy(asc(p.category)),
    db
      .select({ id: vendor.id, name: vendor.name, active: vendor.active })
      .from(vendor)
      .where(
        and(
          sql`${vendor.organizationId} = ${organization}`,
          or(eq(vendor.active, true), alsoVendorId ? eq(vendor.id, alsoVendorId) : undefined),
        ),
      )
      .orderBy(desc(vendor.active), asc(vendor.name)),
  ] as const;
}

/** The products screen: a page, its total, and the filter choices. One round trip. */
export async function listProducts(db: Database, actor: Actor, query: ProductListQuery) {
  const [rows, totals, categories, vendors] = await db.batch([
    ...productPageQueries(db, actor, query),
    ...formChoiceQueries(db, actor),
  ]);
  return {
    products: rows,
    ...numberedPage(totals, query.page, query.pageSize),
    categories: categories.map((c) => c.category),
    vendors,
  };
}

/** The choices of the new-product form. One round trip. */
export async function productFormChoices(db: Database, actor: Actor) {
  const [categories, vendors] = await db.batch(formChoiceQueries(db, actor));
  return { categories: categories.map((c) => c.category), vendors };
}

export interface VariationListQuery {
  productId: string;
  q: string;
  status: StatusFilter;
  page: number;
  pageSize: number;
}

/** A page of variations (all products, or one), with their product and barcodes. One round trip. */
export async function listVariations(db: Database, actor: Actor, query: VariationListQuery) {
  const organization = organizationOf(actor);
  const barcode = checkBarcode(query.q);
  const gtins = gtinCandidates(query.q.replace(/\s+/g, ""));
  const matching = query.q
    ? sql`(${anyContains(query.q, [v.name, v.sku, p.name])}
        ${gtins.length ? sql`OR ${v.gtin} IN (${valueList(gtins)})` : sql``}
        ${barcode.valid ? sql`OR EXISTS (SELECT 1 FROM barcodes AS b WHERE b.code = ${barcode.code} AND b.variation_id = ${v.id})` : sql``})`
    : undefined;
  const where = and(
    sql`${p.organizationId} = ${organization}`,
    query.productId ? eq(v.productId, query.productId) : undefined,
    // Archived products' variations count as archived.
    query.status === "all"
      ? undefined
      : query.status === "active"
        ? and(eq(v.active, true), eq(p.active, true))
        : or(eq(v.active, false), eq(p.active, false)),
    matching,
  );
  const offset = (query.page - 1) * query.pageSize;
  const [rows, totals] = await db.batch([
    db
      .select({
        id: v.id,
        productId: v.productId,
        name: v.name,
        sku: v.sku,
        gtin: v.gtin,
        unitsPerPackage: v.unitsPerPackage,
        costCents: v.costCents,
        active: v.active,
        version: v.version,
        product: {
          id: p.id,
          name: p.name,
          category: p.category,
          tracking: p.tracking,
          baseUnit: p.baseUnit,
          unitScale: p.unitScale,
          active: p.active,
        },
        barcodes: sql<string>`(SELECT coalesce(json_group_array(b.code), '[]') FROM
          (SELECT code FROM barcodes WHERE variation_id = ${v.id} ORDER BY code) AS b)`,
      })
      .from(v)
      .innerJoin(p, eq(p.id, v.productId))
      .where(where)
      .orderBy(asc(sql`lower(${p.name})`), asc(sql`lower(${v.name})`), asc(v.id))
      .limit(query.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(v).innerJoin(p, eq(p.id, v.productId)).where(where),
  ]);
  return {
    items: rows.map((r) => ({ ...r, barcodes: JSON.parse(r.barcodes) as string[] })),
    page: query.page,
    pageSize: query.pageSize,
    total: totals[0]?.total ?? 0,
  };
}
