// Reorder suggestions for one location (issue 23.3, ADR 0032): every variation with a par level
// there whose usable on hand + on order + in transit is at or under its reorder point, with the
// whole packages that bring it to max, capped by its shelf life at its rate of use, and why in one
// line (./suggest-rule.ts). Optionally only the products whose default vendor is `vendorId`.
//
// - On hand counts only usable stock: a serialized product's sealed and in-use vials here that are
//   not past their deadline (as the stock levels judge it) and not of a lot under recall; a bulk
//   product's level.
// - On order: the outstanding packages (ordered − received, never below 0) × the line's package
//   size of this location's submitted and partially received orders.
// - In transit: the pending lines of transfers in transit here (~/stock/in-transit.server).
// - The rate: use over the last 90 days in the ledger (~/stock/usage-rate.server).
// - Shelf life: the median days from delivery to expiry of the variation's last 5 dated lines of
//   completed receipts here; unknown (no cap) without one.
// - A variation on a draft order of this location names the draft.
//
// One statement (one round trip), led by the location's par levels (par_levels' primary key, a few
// hundred at most); every figure of a level is a seek by its pair: items by
// items_variation_location_state_idx, stock_levels by its key, the ledger by
// stock_movements_location_variation_at_idx, receipt lines by receipt_lines_variation_idx, the
// orders by purchase_orders_location_status_idx and their lines by their (order, variation) key.
// Only the levels due are given their rate and shelf life.
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { inTransitUnitsSql } from "~/stock/in-transit.server";
import { usableVial } from "~/stock/usable.server";
import { unitsUsedSql, windowStart } from "~/stock/usage-rate.server";
import { ON_ORDER_STATUSES } from "../../db/schema/purchasing/constants";
import type { ReorderSuggestion } from "./reorder";
import { median, REORDER_USAGE_DAYS, reorder, SHELF_LIFE_LOTS } from "./suggest-rule";

export type { ReorderSuggestion };

const DAY = 24 * 60 * 60 * 1000;

/** The columns of a row of `reorderQuery`'s array, in order. */
const ROW_COLUMNS = [
  "variationId",
  "productId",
  "productName",
  "variationName",
  "tracking",
  "sku",
  "vendorId",
  "vendorName",
  "upp",
  "par",
  "reorderPoint",
  "max",
  "onHand",
  "onOrder",
  "inTransit",
  "used",
  "shelfDays",
  "draftId",
  "draftNumber",
] as const;

interface Row {
  variationId: string;
  productId: string;
  productName: string;
  variationName: string;
  tracking: "serialized" | "bulk";
  sku: string | null;
  vendorId: string | null;
  vendorName: string | null;
  upp: number;
  par: number;
  reorderPoint: number;
  max: number | null;
  onHand: number;
  onOrder: number;
  inTransit: number;
  used: number;
  shelfDays: number[] | null;
  draftId: string | null;
  draftNumber: string | null;
}

/**
 * How the reorder view asks for its suggestions: the vendors with the most suggestions first (then
 * by name, no vendor last), and only the first `firstVendors` of them (null: every one).
 */
export interface VendorsFirst {
  firstVendors: number | null;
}

/**
 * The statement of the suggestions for `locationId` of the actor's organization (`organization`:
 * its id as SQL), optionally of one default vendor; `suggestionsOf` reads its rows. The location and
 * the vendor may be SQL that finds them (an order's, read in the same batch as the order). By
 * default in vendor name order; `ranked` orders and cuts them as the reorder view shows them, and
 * the row also counts the vendors with a suggestion (`vendorsOf`).
 */
export function reorderQuery(
  db: Database,
  organization: SQL,
  locationId: string | SQL,
  vendorId: string | SQL | null,
  now: Date,
  ranked: VendorsFirst | null = null,
) {
  const since = windowStart(now, REORDER_USAGE_DAYS);
  const onOrder = sql`(${sql.join(
    ON_ORDER_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})`;
  const here = sql`(${locationId})`;
  return db.all<{ rows: string; vendors: number | null }>(sql`WITH
    levels AS MATERIALIZED (
      SELECT pl.variation_id AS variationId, pl.par AS par, pl.reorder_point AS reorderPoint, pl.max AS max,
        v.units_per_package AS upp, v.name AS variationName, v.sku AS sku, p.id AS productId, p.name AS productName,
        p.tracking AS tracking, p.default_vendor_id AS vendorId
      FROM par_levels AS pl
      JOIN locations AS l ON l.id = pl.location_id
      JOIN product_variations AS v ON v.id = pl.variation_id
      JOIN products AS p ON p.id = v.product_id
      WHERE pl.location_id = ${locationId} AND pl.par > 0 AND l.organization_id = ${organization}
        AND p.organization_id = ${organization} AND p.active = 1 AND v.active = 1
        ${vendorId === null ? sql`` : sql`AND p.default_vendor_id = ${vendorId}`}),
    coming AS MATERIALIZED (${inTransitUnitsSql(here)}),
    ordered AS MATERIALIZED (
      SELECT ol.variation_id AS variationId,
        sum(max(ol.packages_ordered - ol.packages_received, 0) * ol.units_per_package) AS units
      FROM purchase_orders AS o INDEXED BY purchase_orders_location_status_idx
      CROSS JOIN purchase_order_lines AS ol ON ol.order_id = o.id
      WHERE o.location_id = ${locationId} AND o.status IN ${onOrder}
      GROUP BY ol.variation_id),
    -- The newest draft a variation is on (SQLite takes a bare column from the row of the one max()).
    drafts AS MATERIALIZED (
      SELECT ol.variation_id AS variationId, max(o.number) AS number, o.id AS id
      FROM purchase_orders AS o INDEXED BY purchase_orders_location_status_idx
      CROSS JOIN purchase_order_lines AS ol ON ol.order_id = o.id
      WHERE o.location_id = ${locationId} AND o.status = 'draft'
      GROUP BY ol.variation_id),
    positions AS MATERIALIZED (
      SELECT lv.*,
        CASE WHEN lv.tracking = 'bulk'
          THEN coalesce((SELECT s.on_hand FROM stock_levels AS s
            WHERE s.location_id = ${locationId} AND s.variation_id = lv.variationId), 0)
          ELSE (SELECT coalesce(sum(i.units_remaining), 0) FROM items AS i INDEXED BY items_variation_location_state_idx
            WHERE i.variation_id = lv.variationId AND i.location_id = ${locationId} AND ${usableVial("i", now)}) END AS onHand,
        coalesce(od.units, 0) AS onOrder, coalesce(c.units, 0) AS inTransit
      FROM levels AS lv
      LEFT JOIN ordered AS od ON od.variationId = lv.variationId
      LEFT JOIN coming AS c ON c.variationId = lv.variationId),
    due AS MATERIALIZED (SELECT *, coalesce(vendorId, '') AS vendorKey FROM positions
      WHERE onHand + onOrder + inTransit <= reorderPoint * upp),
    -- The vendors by their count of suggestions, most first (then by name, no vendor last).
    vendorsDue AS MATERIALIZED (SELECT g.vendorKey AS vendorKey, row_number() OVER (
        ORDER BY g.vendorKey = '', g.n DESC, vd.name, g.vendorKey) AS vendorRank
      FROM (SELECT vendorKey, count(*) AS n FROM due GROUP BY vendorKey) AS g
      LEFT JOIN vendors AS vd ON vd.id = g.vendorKey),
    -- Only the view's first vendors are given their rate and shelf life, the figures that cost most.
    shown AS ${
      ranked
        ? sql`MATERIALIZED (SELECT d.*, r.vendorRank AS vendorRank FROM vendorsDue AS r
          CROSS JOIN due AS d ON d.vendorKey = r.vendorKey
          ${ranked.firstVendors === null ? sql`` : sql`WHERE r.vendorRank <= ${ranked.firstVendors}`})`
        : sql`(SELECT d.*, 0 AS vendorRank FROM due AS d)`
    },
    used AS MATERIALIZED (SELECT d.*, ${unitsUsedSql(here, sql`d.variationId`, since)} AS used FROM shown AS d),
    -- A shelf life caps only what is used: read only for those.
    answered AS (SELECT u.*, vd.name AS vendorName, dr.id AS draftId, dr.number AS draftNumber,
      CASE WHEN u.used > 0 THEN (SELECT json_group_array(days) FROM (
        SELECT ((CAST(strftime('%s', rl.expiration_date) AS INTEGER) + 86400) * 1000 - r.completed_at) / ${DAY * 1.0} AS days
        FROM receipt_lines AS rl INDEXED BY receipt_lines_variation_idx
        JOIN receipts AS r ON r.id = rl.receipt_id
        WHERE rl.variation_id = u.variationId AND r.location_id = ${locationId} AND r.status = 'completed'
          AND rl.expiration_date IS NOT NULL
        ORDER BY r.completed_at DESC LIMIT ${SHELF_LIFE_LOTS})) END AS shelfDays
    FROM used AS u
    LEFT JOIN vendors AS vd ON vd.id = u.vendorId
    LEFT JOIN drafts AS dr ON dr.variationId = u.variationId
    ORDER BY u.vendorRank, vd.name IS NULL, vd.name, u.productName, u.variationName, u.variationId)
    -- One row of one JSON array of arrays (ROW_COLUMNS, in the order above): a few hundred rows of
    -- twenty columns cost more to carry one value at a time, and their names once a row.
    SELECT json_group_array(json_array(${sql.raw(ROW_COLUMNS.map((c) => (c === "shelfDays" ? "json(shelfDays)" : c)).join(", "))})) AS rows,
      ${ranked ? sql`(SELECT count(*) FROM vendorsDue)` : sql`NULL`} AS vendors
    FROM answered`);
}

/** The suggestions from `reorderQuery`'s row, in its order: by vendor name (none last), then product and variation. */
export function suggestionsOf(result: readonly { rows: string }[]): ReorderSuggestion[] {
  const rows = (JSON.parse(result[0]?.rows ?? "[]") as unknown[][]).map(
    (values) => Object.fromEntries(ROW_COLUMNS.map((c, i) => [c, values[i]])) as unknown as Row,
  );
  const n = (x: unknown) => Number(x ?? 0);
  const out: ReorderSuggestion[] = [];
  for (const r of rows) {
    const upp = n(r.upp);
    const days = (r.shelfDays ?? []).map(Number).filter((d) => d > 0);
    const middle = median(days);
    const shelfLifeDays = middle === null ? null : Math.floor(middle);
    const dailyUsage = n(r.used) / REORDER_USAGE_DAYS;
    const figures = {
      par: n(r.par),
      reorderPoint: n(r.reorderPoint),
      max: r.max === null ? null : n(r.max),
      unitsPerPackage: upp,
      onHand: n(r.onHand),
      onOrder: n(r.onOrder),
      inTransit: n(r.inTransit),
      dailyUsage,
      shelfLifeDays,
      variationName: r.variationName,
      tracking: r.tracking,
      draftNumber: r.draftNumber,
    };
    const answer = reorder(figures);
    if (!answer.due) continue;
    out.push({
      variationId: r.variationId,
      productId: r.productId,
      productName: r.productName,
      variationName: r.variationName,
      tracking: r.tracking,
      sku: r.sku,
      vendorId: r.vendorId,
      vendorName: r.vendorName,
      unitsPerPackage: upp,
      reorderPoint: figures.reorderPoint * upp,
      max: figures.max === null ? null : figures.max * upp,
      par: figures.par * upp,
      onHand: figures.onHand,
      onOrder: figures.onOrder,
      inTransit: figures.inTransit,
      dailyUsage: Math.round(dailyUsage * 100) / 100,
      shelfLifeDays,
      packages: answer.packages,
      cappedAt: answer.cappedAt,
      onDraft: r.draftId && r.draftNumber ? { id: r.draftId, number: r.draftNumber } : null,
      why: answer.why,
    });
  }
  return out;
}

/**
 * The statements of the suggestions for the caller's batch: whether `vendorId` (when named) is the
 * organization's, and the suggestions; `reorderOf` reads their results.
 */
export function reorderStatements(
  db: Database,
  organization: SQL,
  locationId: string | SQL,
  vendorId: string | SQL | null = null,
  now = new Date(),
  ranked: VendorsFirst | null = null,
) {
  return [
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM vendors
      WHERE id = ${vendorId ?? ""} AND organization_id = ${organization}`),
    reorderQuery(db, organization, locationId, vendorId, now, ranked),
  ] as const;
}

/** How many vendors have a suggestion (the vendor groups), from `reorderStatements`' results asked `ranked`. */
export function vendorsOf(results: readonly unknown[]): number {
  const [, rows] = results as [unknown, { vendors: number | null }[]];
  return Number(rows[0]?.vendors ?? 0);
}

/** The suggestions from `reorderStatements`' results; null when the vendor named is none of the organization's. */
export function reorderOf(results: readonly unknown[], vendorId: string | SQL | null): ReorderSuggestion[] | null {
  const [vendors, rows] = results as [{ n: number }[], { rows: string }[]];
  if (vendorId !== null && Number(vendors[0]?.n ?? 0) === 0) return null;
  return suggestionsOf(rows);
}

/**
 * The reorder suggestions for `locationId` (one round trip). The caller has checked READ_PURCHASING
 * there; null when `vendorId` names no vendor of the organization.
 */
export async function reorderSuggestions(
  db: Database,
  organization: SQL,
  locationId: string,
  vendorId: string | null = null,
  now = new Date(),
): Promise<ReorderSuggestion[] | null> {
  const results = await db.batch(reorderStatements(db, organization, locationId, vendorId, now) as never);
  return reorderOf(results as unknown[], vendorId);
}
