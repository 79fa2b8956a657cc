// What the stock levels screen and GET /api/stock-levels read, in one batch: on hand per location ×
// variation for the locations in scope, split into usable and expired stock (vials past their
// deadline still count in the ledger until they are discarded, but never as stock to use), against
// the par level there, with the nearest expiry of the usable sealed items. A row exists where stock has moved or a par level is set (a variation with a
// par level and nothing received yet is exactly what needs ordering).
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Actor, ScopedActor } from "~/access/actor";
import type { UnitScale } from "~/catalog/format";
import { productIdsMatching } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { CursorParams, cappedCountSql, firstPage, type Keyset, keysetList, type SortKey } from "~/db/keyset.server";
import { anyContains, atLocations, organizationOf } from "~/db/sql.server";
import { type ReadFilters, readFilters } from "~/http/filters.server";
import { TRACKING_MODES, type TrackingMode } from "../../db/schema/catalog/constants";
import { type AdjustTarget, adjustTargetQuery } from "./adjust.server";
import { packagesOf, STOCK_LEVELS_PAGE_SIZE, STOCK_STATUSES, type StockStatus } from "./level-status";
import { pastDeadline } from "./usable.server";

/** The filters' messages: what is wrong and what to send instead (issue 18.10). */
export const LEVEL_FILTER_MESSAGES = {
  q: "Search with at most 100 characters.",
  category: "A category is at most 100 characters: choose one from the list.",
  status: `Choose a status from the list (${STOCK_STATUSES.join(", ")}).`,
  id: "An id is at most 100 characters: choose the product again from its page or the search.",
  product: "Search products with at most 100 characters.",
  tracking: `Choose ${TRACKING_MODES.join(" or ")} tracking.`,
} as const;
const M = LEVEL_FILTER_MESSAGES;

const text = (message: string) => z.string({ error: message }).trim().max(100, message).default("");
/** One of `values`, or "" (absent or empty) for no filter; anything else is refused with `message`. */
const oneOf = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .preprocess(
      (v) => (v === undefined || v === null || String(v).trim() === "" ? undefined : v),
      z.enum(values, { error: message }).optional(),
    )
    .transform((v): T[number] | "" => v ?? "");

/**
 * The levels' filters as a URL sends them: a value that cannot be used is refused with its message
 * (`readFilters` sets it aside and says so); an absent or empty one is no filter.
 */
export const StockLevelQuery = z.object({
  q: text(M.q),
  category: text(M.category),
  status: oneOf(STOCK_STATUSES, M.status),
  /** Only this product's levels (the inventory's product filter). */
  productId: text(M.id),
  /** Only the products the catalogue's search finds (the inventory's product search). */
  product: text(M.product),
  /** Only bulk or only serialized products (the inventory lists bulk quantities beside its vials). */
  tracking: oneOf(TRACKING_MODES, M.tracking),
  ...CursorParams,
  pageSize: z.coerce.number().int().min(1).max(100).catch(STOCK_LEVELS_PAGE_SIZE),
});
export type StockLevelQueryInput = z.output<typeof StockLevelQuery>;

/** The query of a request's search parameters, and what is wrong with any filter it cannot use. */
export function readStockLevelQuery(params: URLSearchParams): ReadFilters<StockLevelQueryInput> {
  return readFilters(StockLevelQuery, Object.fromEntries(params));
}

interface StockLevelRow {
  /** The sort keys SQLite compared (its lower() folds ASCII only, so they are read, not recomputed). */
  sortProduct: string;
  sortVariation: string;
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

/** Base units of the pair's sealed and in-use vials that are past their deadline. */
function expiredUnits(now: Date) {
  return sql`(SELECT coalesce(sum(i.units_remaining), 0) FROM items AS i
    WHERE i.location_id = l.id AND i.variation_id = v.id
      AND i.state IN ('sealed', 'in_use') AND ${pastDeadline("i", now)})`;
}

/**
 * The one definition of a level's status (see STOCK_STATUSES), judged on usable stock so expired
 * vials never make a shelf look full; the filter and the column share it.
 */
function statusSql(now: Date) {
  const onHand = sql`coalesce(s.on_hand, 0)`;
  return sql`(CASE
    WHEN pl.par IS NULL THEN 'no_par'
    WHEN pl.par > 0 AND ${onHand} - ${expiredUnits(now)} <= pl.reorder_point * v.units_per_package THEN 'below_reorder'
    WHEN ${onHand} - ${expiredUnits(now)} < pl.par * v.units_per_package THEN 'below_par'
    ELSE 'ok' END)`;
}

/**
 * The list's order: product, variation, location (names, then ids: total). The names as SQLite
 * folds them; the products and variations indexes on (…, lower(name), id) give the first four, so
 * a page walks the catalogue in order, probes each pair's level, and stops at its LIMIT.
 */
const LEVEL_ORDER: SortKey[] = [
  { sql: sql`lower(p.name)`, type: "text" },
  { sql: sql`p.id`, type: "text" },
  { sql: sql`lower(v.name)`, type: "text" },
  { sql: sql`v.id`, type: "text" },
  { sql: sql`l.name`, type: "text" },
  { sql: sql`l.id`, type: "text" },
];
const LEVEL_PAGES = keysetList(LEVEL_ORDER, (row: StockLevelRow) => [
  row.sortProduct,
  row.productId,
  row.sortVariation,
  row.variationId,
  row.locationName,
  row.locationId,
]);

/** The keyset page a stock level query asks for; null when its cursor is forged or stale. */
export function levelKeyset(query: StockLevelQueryInput): Keyset | null {
  return LEVEL_PAGES.keyset(query);
}

/**
 * FROM … WHERE … of the levels in scope that match the query: each location × variation with a
 * stock level or a par level there (a variation with a par level and nothing received yet is
 * exactly what needs ordering); archived products drop off once empty. Driven by the catalogue in
 * the list's order: `lower(p.name) >= ''` is true of every name, and makes that index the one the
 * planner seeks; the locations are a filter (unary plus), so an IN over ten sorts nothing.
 */
function matchingLevels(
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now: Date,
  keyset: Keyset,
  /** Every pair with a par level, its status judged by the caller (`parStatusCountsQuery`). */
  withPar = false,
) {
  const organization = organizationOf(actor);
  // A status other than "no par" needs a par level: only those pairs have their expired units summed.
  const status = withPar
    ? sql`AND pl.par IS NOT NULL`
    : query.status === "no_par"
      ? sql`AND pl.par IS NULL`
      : query.status
        ? sql`AND pl.par IS NOT NULL AND ${statusSql(now)} = ${query.status}`
        : sql``;
  // A par status is led by the par levels in scope (few, set by hand), then sorted.
  const byPar = withPar || (Boolean(query.status) && query.status !== "no_par");
  const after = LEVEL_PAGES.where(keyset);
  // CROSS JOIN fixes the loop order (SQLite keeps its left side outer): product, variation, then
  // location, so a search on the names is judged once a variation, not once a pair.
  const join = byPar ? sql`JOIN` : sql`CROSS JOIN`;
  return sql`FROM products AS p
    ${join} product_variations AS v ON v.product_id = p.id
    ${join} locations AS l ON l.organization_id = p.organization_id AND ${atLocations(sql`l.id`, locationIds)}
    LEFT JOIN stock_levels AS s ON s.location_id = l.id AND s.variation_id = v.id
    ${byPar ? sql`JOIN` : sql`LEFT JOIN`} par_levels AS pl ON pl.location_id = l.id AND pl.variation_id = v.id
    WHERE p.organization_id = ${organization} ${byPar ? sql`` : sql`AND lower(p.name) >= ''`}
      AND (s.variation_id IS NOT NULL OR pl.variation_id IS NOT NULL)
      AND (coalesce(s.on_hand, 0) > 0 OR (p.active = 1 AND v.active = 1))
      ${query.q ? sql`AND ${anyContains(query.q, [sql`p.name`, sql`v.name`, sql`p.sku`, sql`v.sku`])}` : sql``}
      ${query.category ? sql`AND p.category = ${query.category}` : sql``}
      ${query.productId ? sql`AND p.id = ${query.productId}` : sql``}
      ${query.product ? sql`AND p.id IN ${productIdsMatching(actor, query.product)}` : sql``}
      ${query.tracking ? sql`AND p.tracking = ${query.tracking}` : sql``}
      ${status}
      ${after ? sql`AND ${after}` : sql``}`;
}

/**
 * The page of levels (pageSize + 1 rows, in reading order) and the capped count of those matching,
 * as two statements for the caller's batch; `levelPageOf` makes the page.
 */
export function stockLevelQueries(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  keyset: Keyset,
  now = new Date(),
) {
  const first = { ...keyset, direction: null, key: null };
  return [
    db.all<StockLevelRow>(sql`SELECT lower(p.name) AS sortProduct, lower(v.name) AS sortVariation,
        l.id AS locationId, l.name AS locationName, l.code AS locationCode,
        p.id AS productId, p.name AS productName, p.category AS category,
        v.id AS variationId, v.name AS variationName,
        p.base_unit AS baseUnit, p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage,
        p.tracking AS tracking, coalesce(s.on_hand, 0) AS onHand, ${expiredUnits(now)} AS expired,
        pl.par AS par, pl.reorder_point AS reorderPoint, pl.max AS max, s.updated_at AS updatedAt,
        ${statusSql(now)} AS status,
        (SELECT min(i.expiration_date) FROM items AS i
          WHERE i.location_id = l.id AND i.state = 'sealed' AND i.variation_id = v.id
            AND NOT ${pastDeadline("i", now)}) AS nearestExpiry
      ${matchingLevels(actor, locationIds, query, now, keyset)}
      ORDER BY ${LEVEL_PAGES.orderBy(keyset)}
      LIMIT ${LEVEL_PAGES.limit(keyset)}`),
    db.all<{ total: number }>(cappedCountSql(matchingLevels(actor, locationIds, query, now, first))),
  ] as const;
}

/**
 * The exact number of levels in scope matching `query`, as the list counts them (the dashboard's
 * below-par figures link to this list filtered by status, and must match it). With a par status
 * asked the count is led by the par levels in scope (set by hand, so few), hence exact and cheap.
 */
export function stockLevelCountQuery(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
) {
  return db.all<{ total: number }>(
    sql`SELECT count(*) AS total ${matchingLevels(actor, locationIds, query, now, firstPage(null, 1))}`,
  );
}

/**
 * How many pairs in scope are at or under the reorder point, and how many under par above it, in
 * one pass led by the par levels in scope: each pair judged once (materialized, so its status is
 * not judged again by the grouping). The same pairs and statuses as `stockLevelCountQuery` with
 * `below_reorder` and with `below_par`, which judged every pair twice each. Rows: {status, total}.
 */
export function parStatusCountsQuery(db: Database, actor: Actor, locationIds: readonly string[], now = new Date()) {
  const query = StockLevelQuery.parse({});
  return db.all<{ status: string; total: number }>(sql`WITH judged AS MATERIALIZED (
      SELECT ${statusSql(now)} AS status ${matchingLevels(actor, locationIds, query, now, firstPage(null, 1), true)})
    SELECT status, count(*) AS total FROM judged WHERE status IN ('below_reorder', 'below_par') GROUP BY status`);
}

/** The two counts of `parStatusCountsQuery`'s rows. */
export function parStatusCountsOf(rows: readonly { status: string; total: number }[]) {
  const total = (status: string) => Number(rows.find((r) => r.status === status)?.total ?? 0);
  return { belowReorder: total("below_reorder"), belowParOnly: total("below_par") };
}

/** The rows read by `stockLevelQueries` as the page a list answers, each row made by `map`. */
export function levelPageOf<T = StockLevel>(
  rows: StockLevelRow[],
  counted: { total: number }[],
  keyset: Keyset,
  map: (row: StockLevelRow) => T = toStockLevel as (row: StockLevelRow) => T,
) {
  return LEVEL_PAGES.page(rows, counted[0]?.total, keyset, map);
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

/**
 * A page of stock levels, {items, pageSize, total, totalExact, next, previous} (GET
 * /api/stock-levels). One round trip.
 */
export async function readStockLevels(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
  keyset = firstPage(levelKeyset(query), query.pageSize),
) {
  const [rows, counted] = await db.batch(stockLevelQueries(db, actor, locationIds, query, keyset, now));
  return levelPageOf(rows, counted, keyset);
}

/** The stock levels screen: a page, its capped count and the category choices. One round trip. */
export async function stockLevelsScreen(
  db: Database,
  actor: ScopedActor,
  locationIds: readonly string[],
  query: StockLevelQueryInput,
  now = new Date(),
  adjusting: AdjustTarget | null = null,
) {
  // A forged or stale cursor shows the first page.
  const keyset = firstPage(levelKeyset(query), query.pageSize);
  const [rows, counted, categories, target] = await db.batch([
    ...stockLevelQueries(db, actor, locationIds, query, keyset, now),
    stockCategoryQuery(db, actor),
    adjustTargetQuery(db, actor, adjusting),
  ]);
  return {
    // The screen offers an adjustment on bulk rows only (a vial is corrected by discarding it).
    ...levelPageOf(rows, counted, keyset, (row) => ({ ...toStockLevel(row), tracking: row.tracking })),
    adjusting: target[0] ?? null,
    categories: categories.map((c) => c.category),
  };
}
