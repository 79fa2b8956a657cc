// What the stock levels screen and GET /api/stock-levels read, in one batch: on hand per location ×
// variation for the locations in scope, split into usable and expired stock (vials past their
// deadline still count in the ledger until they are discarded, but never as stock to use), against
// the par level there, with the nearest expiry of the usable sealed items. A row exists where stock has moved or a par level is set (a variation with a
// par level and nothing received yet is exactly what needs ordering).
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Actor, ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { anyContains, organizationOf, valueList } from "~/db/sql.server";
import type { UnitScale } from "~/products/format";
import { utcDay } from "~/ui/dates";
import { TRACKING_MODES, type TrackingMode } from "../../db/schema/catalog/constants";
import { type AdjustTarget, adjustTargetQuery } from "./adjust.server";
import { packagesOf, STOCK_LEVELS_PAGE_SIZE, STOCK_STATUSES, type StockStatus } from "./level-status";

export const StockLevelQuery = z.object({
  q: z.string().trim().max(100).catch(""),
  category: z.string().trim().max(100).catch(""),
  status: z.enum(STOCK_STATUSES).or(z.literal("")).catch(""),
  /** Only this product's levels (the inventory's product filter). */
  productId: z.string().trim().max(100).catch(""),
  /** Only bulk or only serialized products (the inventory lists bulk quantities beside its vials). */
  tracking: z.enum(TRACKING_MODES).or(z.literal("")).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(1).max(100).catch(STOCK_LEVELS_PAGE_SIZE),
});
export type StockLevelQueryInput = z.output<typeof StockLevelQuery>;

interface StockLevelRow {
  locationId: string;
  locationName: string;
  locationCode: string;
  productId: string;
  productName: string;
  category: string;
  variationId: string;
  variationName: string;
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  tracking: TrackingMode;
  onHand: number;
  expired: number;
  par: number | null;
  reorderPoint: number | null;
  max: number | null;
  status: StockStatus;
  nearestExpiry: string | null;
  updatedAt: number | null;
}

export interface StockLevel {
  locationId: string;
  location: { name: string; code: string };
  productId: string;
  productName: string;
  category: string;
  variationId: string;
  variationName: string;
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  /** Base units on hand (stock_levels.on_hand, the ledger's balance; 0 where only a par level is set). */
  onHand: number;
  /** Of onHand, the base units in vials past their deadline (spec section 4: no expiry date counts as expired). */
  expired: number;
  /** onHand less expired: what can be used, and what the status is judged on. */
  usable: number;
  /** usable as whole packages and the base units of a started one. */
  packages: { whole: number; remainder: number };
  /** Packages wanted on the shelf at this location, if set. */
  parLevel: { par: number; reorderPoint: number; max: number | null } | null;
  status: StockStatus;
  /** The earliest expiration date (YYYY-MM-DD) of the usable sealed items here; null for none (or bulk). */
  nearestExpiry: string | null;
  /** When the level last moved; null where nothing has been received. */
  updatedAt: Date | null;
}

/**
 * Whether item `i` is past its deadline at `now` (spec section 4, as `isExpired` in ./expiry): an
 * in-use vial at its use-by deadline, any other at the end of its expiration day (UTC), and one
 * without the date it needs counts as expired.
 */
function itemExpiredSql(now: Date) {
  return sql`(CASE WHEN i.state = 'in_use' THEN coalesce(i.expires_at <= ${now.getTime()}, 1)
    ELSE coalesce(i.expiration_date < ${utcDay(now)}, 1) END)`;
}

/** Base units of the pair's sealed and in-use vials that are past their deadline. */
function expiredUnits(now: Date) {
  return sql`(SELECT coalesce(sum(i.units_remaining), 0) FROM items AS i
    WHERE i.location_id = pair.location_id AND i.variation_id = pair.variation_id
      AND i.state IN ('sealed', 'in_use') AND ${itemExpiredSql(now)})`;
}

/**
 * FROM … WHERE … of the levels in scope that match the query, as `level` rows: each pair's on-hand,
 * expired units (computed once a row) and its status; archived products drop off once empty.
 */
function matchingLevels(actor: Actor, locationIds: readonly string[], query: StockLevelQueryInput, now: Date) {
  const inScope = locationIds.length ? sql`IN (${valueList(locationIds)})` : sql`IN (SELECT NULL WHERE 0)`;
  const organization = organizationOf(actor);
  const onHand = sql`coalesce(s.on_hand, 0)`;
  return sql`FROM (
      SELECT *,
        -- The one definition of a level's status (see STOCK_STATUSES), judged on usable stock so
        -- expired vials never make a shelf look full; the filter and the column share it.
        (CASE
          WHEN par IS NULL THEN 'no_par'
          WHEN par > 0 AND onHand - expired <= reorderPoint * unitsPerPackage THEN 'below_reorder'
          WHEN onHand - expired < par * unitsPerPackage THEN 'below_par'
          ELSE 'ok' END) AS status
      FROM (
        SELECT pair.location_id AS locationId, l.name AS locationName, l.code AS locationCode,
          p.id AS productId, p.name AS productName, p.category AS category,
          v.id AS variationId, v.name AS variationName,
          p.base_unit AS baseUnit, p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage,
          p.tracking AS tracking,
          ${onHand} AS onHand, ${expiredUnits(now)} AS expired,
          pl.par AS par, pl.reorder_point AS reorderPoint, pl.max AS max, s.updated_at AS updatedAt
        FROM (
          SELECT location_id, variation_id FROM stock_levels WHERE location_id ${inScope}
          UNION
          SELECT location_id, variation_id FROM par_levels WHERE location_id ${inScope}
        ) AS pair
        JOIN locations AS l ON l.id = pair.location_id
        JOIN product_variations AS v ON v.id = pair.variation_id
        JOIN products AS p ON p.id = v.product_id
        LEFT JOIN stock_levels AS s ON s.location_id = pair.location_id AND s.variation_id = pair.variation_id
        LEFT JOIN par_levels AS pl ON pl.location_id = pair.location_id AND pl.variation_id = pair.variation_id
        WHERE p.organization_id = ${organization} AND l.organization_id = ${organization}
          AND (${onHand} > 0 OR (p.active = 1 AND v.active = 1))
          ${query.q ? sql`AND ${anyContains(query.q, [sql`p.name`, sql`v.name`, sql`p.sku`, sql`v.sku`])}` : sql``}
          ${query.category ? sql`AND p.category = ${query.category}` : sql``}
          ${query.productId ? sql`AND p.id = ${query.productId}` : sql``}
          ${query.tracking ? sql`AND p.tracking = ${query.tracking}` : sql``}
      )
    ) AS level
    ${query.status ? sql`WHERE level.status = ${query.status}` : sql``}`;
}

/** The page of levels and the total matching, as two statements for the caller's batch. */
export function stockLevelQueries(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
) {
  const from = matchingLevels(actor, locationIds, query, now);
  return [
    db.all<StockLevelRow>(sql`SELECT level.*,
        (SELECT min(i.expiration_date) FROM items AS i
          WHERE i.location_id = level.locationId AND i.state = 'sealed' AND i.variation_id = level.variationId
            AND NOT ${itemExpiredSql(now)}) AS nearestExpiry
      ${from}
      ORDER BY lower(level.productName), level.productId, lower(level.variationName), level.variationId,
        level.locationName, level.locationId
      LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`),
    db.all<{ total: number }>(sql`SELECT count(*) AS total ${from}`),
  ] as const;
}

/** Product categories of the organization, for the category filter. */
export function stockCategoryQuery(db: Database, actor: Actor) {
  return db.all<{ category: string }>(
    sql`SELECT DISTINCT category FROM products WHERE organization_id = ${organizationOf(actor)} ORDER BY category`,
  );
}

export function toStockLevel(row: StockLevelRow): StockLevel {
  const onHand = Number(row.onHand);
  const expired = Number(row.expired);
  const unitsPerPackage = Number(row.unitsPerPackage);
  return {
    locationId: row.locationId,
    location: { name: row.locationName, code: row.locationCode },
    productId: row.productId,
    productName: row.productName,
    category: row.category,
    variationId: row.variationId,
    variationName: row.variationName,
    baseUnit: row.baseUnit,
    unitScale: Number(row.unitScale) as UnitScale,
    unitsPerPackage,
    onHand,
    expired,
    usable: onHand - expired,
    packages: packagesOf(onHand - expired, unitsPerPackage),
    parLevel:
      row.par === null
        ? null
        : {
            par: Number(row.par),
            reorderPoint: Number(row.reorderPoint),
            max: row.max === null ? null : Number(row.max),
          },
    status: row.status,
    nearestExpiry: row.nearestExpiry,
    updatedAt: row.updatedAt === null ? null : new Date(Number(row.updatedAt)),
  };
}

/** A page of stock levels, {items, page, pageSize, total} (GET /api/stock-levels). One round trip. */
export async function readStockLevels(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
) {
  const [rows, totals] = await db.batch(stockLevelQueries(db, actor, locationIds, query, now));
  return {
    items: rows.map(toStockLevel),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(totals[0]?.total ?? 0),
  };
}

/** The stock levels screen: a page, its total and the category choices. One round trip. */
export async function stockLevelsScreen(
  db: Database,
  actor: ScopedActor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
  adjusting: AdjustTarget | null = null,
) {
  const [rows, totals, categories, target] = await db.batch([
    ...stockLevelQueries(db, actor, locationIds, query, now),
    stockCategoryQuery(db, actor),
    adjustTargetQuery(db, actor, adjusting),
  ]);
  return {
    // The screen offers an adjustment on bulk rows only (a vial is corrected by discarding it).
    items: rows.map((row) => ({ ...toStockLevel(row), tracking: row.tracking })),
    adjusting: target[0] ?? null,
    page: query.page,
    pageSize: query.pageSize,
    total: Number(totals[0]?.total ?? 0),
    categories: categories.map((c) => c.category),
  };
}
