// What the bulk par level page reads, in one batch: the organization's active locations (the
// organization-mode picker), the categories of active products (the filter) and, once a location
// is chosen, a page of active variations of active products with their par levels there; asked to
// suggest from usage (`usageDays`), each row also carries its use there over those days (one seek
// of the ledger a row, ~/stock/usage-rate.server), its package size and its default vendor's lead
// time, in the same statement: the page's 50 rows, never the location's whole history.
import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { activeCategoriesQuery } from "~/catalog/categories.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { unitsUsedSql, windowStart } from "~/stock/usage-rate.server";
import { cappedCountLimit, cappedNumberedPage, pageOffset } from "~/ui/page-count";
import { PAR_SHEET_PAGE_SIZE } from "./constants";

const p = schema.products;
const v = schema.productVariations;
const pl = schema.parLevels;
const l = schema.locations;

/** Product name or SKU, or variation name or SKU, containing `q`, ignoring case. */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  return anyContains(q, [p.name, p.sku, v.name, v.sku]);
}

export async function parLevelSheet(
  db: Database,
  actor: Actor,
  query: { locationId: string | null; category: string; q: string; page: number; usageDays?: number | null },
  now = new Date(),
) {
  const organization = organizationOf(actor);
  const inOrganization = sql`${p.organizationId} = ${organization}`;
  const locations = db
    .select({ id: l.id, name: l.name, code: l.code })
    .from(l)
    .where(and(sql`${l.organizationId} = ${organization}`, eq(l.active, true)))
    .orderBy(asc(l.name));
  const categories = activeCategoriesQuery(db, organization);
  if (!query.locationId) {
    const [active, cats] = await db.batch([locations, categories]);
    return {
      locations: active,
      categories: cats.map((c) => c.category),
      rows: [],
      ...cappedNumberedPage([], query.page, PAR_SHEET_PAGE_SIZE),
    };
  }

  const where = and(
    inOrganization,
    eq(p.active, true),
    eq(v.active, true),
    query.category ? eq(p.category, query.category) : undefined,
    matching(query.q),
  );
  // The page's rows first (the catalogue sorted, 50 taken), then each one's use: a column of the
  // inner select would be worked out for every variation before the sort keeps 50.
  const page = db
    .select({
      sortName: sql<string>`lower(${p.name})`.as("sortName"),
      productId: sql<string>`${p.id}`.as("productId"),
      product: sql<string>`${p.name}`.as("product"),
      productSku: sql<string | null>`${p.sku}`.as("productSku"),
      category: sql<string>`${p.category}`.as("category"),
      defaultVendorId: sql<string | null>`${p.defaultVendorId}`.as("defaultVendorId"),
      variationId: sql<string>`${v.id}`.as("variationId"),
      variation: sql<string>`${v.name}`.as("variation"),
      variationSku: sql<string | null>`${v.sku}`.as("variationSku"),
      unitsPerPackage: sql<number>`${v.unitsPerPackage}`.as("unitsPerPackage"),
      par: sql<number | null>`${pl.par}`.as("par"),
      reorderPoint: sql<number | null>`${pl.reorderPoint}`.as("reorderPoint"),
      max: sql<number | null>`${pl.max}`.as("max"),
    })
    .from(v)
    .innerJoin(p, eq(p.id, v.productId))
    .leftJoin(pl, and(eq(pl.variationId, v.id), eq(pl.locationId, query.locationId)))
    .where(where)
    // The catalogue's order, as products_org_active_name_idx holds it (name ignoring case, then id):
    // walked in order and stopped at the page, each product's few variations sorted.
    .orderBy(sql`lower(${p.name})`, asc(p.id), asc(v.name), asc(v.id))
    .limit(PAR_SHEET_PAGE_SIZE)
    .offset(pageOffset(query.page, PAR_SHEET_PAGE_SIZE))
    .as("page");
  const [active, cats, rows, totals] = await db.batch([
    locations,
    categories,
    db
      .select({
        productId: page.productId,
        product: page.product,
        productSku: page.productSku,
        category: page.category,
        variationId: page.variationId,
        variation: page.variation,
        variationSku: page.variationSku,
        par: page.par,
        reorderPoint: page.reorderPoint,
        max: page.max,
        unitsPerPackage: page.unitsPerPackage,
        leadTimeDays: sql<
          number | null
        >`(SELECT vd.lead_time_days FROM vendors AS vd WHERE vd.id = ${page.defaultVendorId})`,
        used: query.usageDays
          ? sql<number>`${unitsUsedSql(sql`${query.locationId}`, sql`${page.variationId}`, windowStart(now, query.usageDays))}`
          : sql<number>`0`,
      })
      .from(page)
      // The page's order again (a subquery's order is not the outer query's by right): 50 rows.
      .orderBy(asc(page.sortName), asc(page.productId), asc(page.variation), asc(page.variationId)),
    // Counted up to the cap past this page: a chain's whole catalogue (14,700 variations) is too
    // many rows to count on every view, and a filter narrows it to an exact count.
    db
      .select({ total: count() })
      .from(
        db
          .select({ one: sql`1` })
          .from(v)
          .innerJoin(p, eq(p.id, v.productId))
          .where(where)
          .limit(cappedCountLimit(query.page, PAR_SHEET_PAGE_SIZE))
          .as("counted"),
      ),
  ]);
  return {
    locations: active,
    categories: cats.map((c) => c.category),
    rows,
    ...cappedNumberedPage(totals, query.page, PAR_SHEET_PAGE_SIZE),
  };
}

export type ParSheetRow = Awaited<ReturnType<typeof parLevelSheet>>["rows"][number];
