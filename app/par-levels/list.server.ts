// What the bulk par level page reads, in one batch: the organization's active locations (the
// organization-mode picker), the categories of active products (the filter) and, once a location
// is chosen, a page of active variations of active products with their par levels there; asked to
// suggest from usage (`usageDays`), each row also carries its use there over those days (one seek
// of the ledger a row, ~/stock/usage-rate.server), its package size and its default vendor's lead
// time, in the same statement: the page's 50 rows, never the location's whole history.
import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { unitsUsedSql, windowStart } from "~/stock/usage-rate.server";
import { pageOffset } from "~/ui/page-count";
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
  const categories = db
    .selectDistinct({ category: p.category })
    .from(p)
    .where(and(inOrganization, eq(p.active, true)))
    .orderBy(asc(p.category));
  if (!query.locationId) {
    const [active, cats] = await db.batch([locations, categories]);
    return { locations: active, categories: cats.map((c) => c.category), rows: [], total: 0 };
  }

  const where = and(
    inOrganization,
    eq(p.active, true),
    eq(v.active, true),
    query.category ? eq(p.category, query.category) : undefined,
    matching(query.q),
  );
  const [active, cats, rows, totals] = await db.batch([
    locations,
    categories,
    db
      .select({
        productId: p.id,
        product: p.name,
        productSku: p.sku,
        category: p.category,
        variationId: v.id,
        variation: v.name,
        variationSku: v.sku,
        par: pl.par,
        reorderPoint: pl.reorderPoint,
        max: pl.max,
        unitsPerPackage: v.unitsPerPackage,
        leadTimeDays: sql<
          number | null
        >`(SELECT vd.lead_time_days FROM vendors AS vd WHERE vd.id = ${p.defaultVendorId})`,
        used: query.usageDays
          ? sql<number>`${unitsUsedSql(sql`${query.locationId}`, sql`${v.id}`, windowStart(now, query.usageDays))}`
          : sql<number>`0`,
      })
      .from(v)
      .innerJoin(p, eq(p.id, v.productId))
      .leftJoin(pl, and(eq(pl.variationId, v.id), eq(pl.locationId, query.locationId)))
      .where(where)
      .orderBy(asc(p.name), asc(p.id), asc(v.name), asc(v.id))
      .limit(PAR_SHEET_PAGE_SIZE)
      .offset(pageOffset(query.page, PAR_SHEET_PAGE_SIZE)),
    db.select({ total: count() }).from(v).innerJoin(p, eq(p.id, v.productId)).where(where),
  ]);
  return { locations: active, categories: cats.map((c) => c.category), rows, total: totals[0]?.total ?? 0 };
}

export type ParSheetRow = Awaited<ReturnType<typeof parLevelSheet>>["rows"][number];
