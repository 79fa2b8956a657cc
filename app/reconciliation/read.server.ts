// What /reconciliation, its CSV, its drill-down and GET /api/reconciliation read: per variation,
// over a period at the locations the reader reaches with READ_REPORTS (every location of the
// organization in organization mode, or one of them asked for by `locationId`), the sums of
// ./figures: expected usage from the sales lines (services × today's recipes, retail packages ×
// units a package) and actual usage from the ledger. Each screen is ONE statement (or one batch):
// the sums come from covering indexes over (location, time) (sales_lines_reconciliation_idx,
// stock_movements_reconciliation_idx), joined by variation in SQL, flagged, sorted and paged there.
import { type SQL, sql } from "drizzle-orm";
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { isOrganizationAdmin, ORGANIZATION } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { startOfDayIn } from "~/ui/dates";
import { quotedList } from "../../db/schema/columns";
import { figuresOf, type ReconciliationFigures, type ReconciliationSums } from "./figures";
import { addDays, type Period, RECONCILIATION_PAGE_SIZE } from "./query";

/** The DISCARD reasons that say the vial is gone without a trace: unexplained, not waste. */
export const LOSS_REASONS = ["missing_in_count", "lost_in_transit"] as const;
/** The ADJUST reasons that are waste (the rest of a bulk adjustment out is unexplained). */
export const WASTE_ADJUST_REASONS = ["damaged", "expired"] as const;

const LOSS = quotedList(LOSS_REASONS);
const WASTE_ADJUST = quotedList(WASTE_ADJUST_REASONS);

/** Where the figures are read: the locations reached, and the period as instants (ms). */
export interface Scope {
  /** The reader's organization, as SQL (the worked-out rows are read by it). */
  organization: SQL;
  /** Whether a location column is one of them, as SQL. */
  where(column: SQL): SQL;
  /** The one location read, or null (every location of the organization). */
  locationId: string | null;
  timeZone: string;
  period: Period;
  fromMs: number;
  toMs: number;
}

/**
 * The scope of a reader: the location in scope, or in organization mode every location of the
 * organization, or the one of them `locationId` names (one of theirs; any other is none).
 * The period's days are read in the location's zone (UTC in organization mode, as the usage log).
 */
export function scopeOf(actor: ScopedActor, period: Period, locationId?: string | null): Scope {
  const reach = locationsFor(actor, "READ_REPORTS");
  const organizationMode = actor.locationId === ORGANIZATION && isOrganizationAdmin(actor);
  // Organization mode narrowed to one location: one of the organization's (its admins' roles list
  // every active location); a location named that is not one of them reads nothing.
  const narrowed = organizationMode && locationId ? locationId : null;
  const theirs = narrowed === null || actor.locationRoles.some((r) => r.locationId === narrowed);
  const one = organizationMode ? narrowed : actor.locationId;
  const timeZone = organizationMode
    ? (actor.locationRoles.find((r) => r.locationId === narrowed)?.location?.timeZone ?? "UTC")
    : timeZoneHere(actor);
  const fromMs = startOfDayIn(period.from, timeZone) ?? 0;
  const toMs = startOfDayIn(addDays(period.to, 1), timeZone) ?? 0;
  return {
    organization: organizationOf(actor),
    where: (column) =>
      !theirs ? sql`0` : narrowed ? sql`${reach.where(column)} AND ${column} = ${narrowed}` : reach.where(column),
    locationId: one,
    timeZone,
    period,
    fromMs,
    toMs,
  };
}

/** A variation's sums and names as the statement answers them. */
export interface SumsRow extends ReconciliationSums {
  variationId: string;
  productId: string;
  product: string;
  variation: string;
  baseUnit: string;
  unitScale: number;
  unitsPerPackage: number;
  costCents: number | null;
  tracked: number;
  total: number;
  flaggedTotal: number;
  varianceCentsTotal: number;
}

/** What a row (and a drill-down) shows of its variation: names, unit, cost, package. */
export interface VariationFacts {
  productId: string;
  product: string;
  variation: string;
  unit: string;
  unitScale: UnitScale;
  costCents: number | null;
  unitsPerPackage: number;
}

export interface ReconciliationRow extends ReconciliationFigures, VariationFacts {
  variationId: string;
  sums: ReconciliationSums;
}

const SUM_KEYS = [
  "expectedServices",
  "expectedRetail",
  "drawn",
  "wasted",
  "missing",
  "adjustedOut",
  "countedOut",
  "sold",
  "change",
] as const satisfies readonly (keyof ReconciliationSums)[];

/** Expected usage per variation from the sales lines in scope (services × recipes; retail × package). */
function expectedSql(scope: Scope, variationId: string | null): SQL {
  // One variation: only the sale items that name it (its services' and its own), each sought in its
  // index by (item, location, time); else every line of the period by (location, time), covered.
  const lines = variationId
    ? sql`sales_lines AS sl INDEXED BY sales_lines_item_location_sold_idx
      WHERE sl.sale_item_id IN (SELECT si.id FROM sale_items AS si WHERE (si.kind = 'service' AND si.service_id IN
          (SELECT r.service_id FROM recipe_lines AS r INDEXED BY recipe_lines_variation_idx WHERE r.variation_id = ${variationId}))
        OR (si.kind = 'retail' AND si.variation_id = ${variationId}))`
    : sql`sales_lines AS sl INDEXED BY sales_lines_reconciliation_idx WHERE 1`;
  return sql`sold AS (
    SELECT sl.sale_item_id AS itemId, sum(sl.quantity) AS q FROM ${lines}
      AND ${scope.where(sql`sl.location_id`)} AND sl.sold_at >= ${scope.fromMs} AND sl.sold_at < ${scope.toMs}
    GROUP BY sl.sale_item_id),
  expected AS (
    SELECT r.variation_id AS variationId, sum(sold.q * r.quantity) AS services, 0 AS retail
    FROM sold JOIN sale_items AS si ON si.id = sold.itemId AND si.kind = 'service'
    JOIN recipe_lines AS r ON r.service_id = si.service_id
    ${variationId ? sql`WHERE r.variation_id = ${variationId}` : sql``}
    GROUP BY r.variation_id
    UNION ALL
    SELECT si.variation_id, 0, sum(sold.q * pv.units_per_package)
    FROM sold JOIN sale_items AS si ON si.id = sold.itemId AND si.kind = 'retail'
    JOIN product_variations AS pv ON pv.id = si.variation_id
    ${variationId ? sql`WHERE si.variation_id = ${variationId}` : sql``}
    GROUP BY si.variation_id)`;
}

/** The ledger's sums per variation in scope (./figures says which movement goes where). */
function movedSql(scope: Scope, variationId: string | null): SQL {
  const from = variationId
    ? sql`stock_movements AS m INDEXED BY stock_movements_location_variation_at_idx WHERE m.variation_id = ${variationId}`
    : sql`stock_movements AS m INDEXED BY stock_movements_reconciliation_idx WHERE 1`;
  return sql`moved AS (
    SELECT m.variation_id AS variationId,
      total(CASE WHEN m.type = 'USE' THEN -m.quantity END) AS drawn,
      total(CASE WHEN m.type = 'WASTE' OR (m.type = 'DISCARD' AND coalesce(m.reason, '') NOT IN (${LOSS}))
        OR (m.type = 'ADJUST' AND m.quantity < 0 AND m.reason IN (${WASTE_ADJUST})) THEN -m.quantity END) AS wasted,
      total(CASE WHEN m.type = 'DISCARD' AND m.reason IN (${LOSS}) THEN -m.quantity END) AS missing,
      total(CASE WHEN m.type = 'ADJUST' AND m.quantity < 0 AND coalesce(m.reason, '') NOT IN (${WASTE_ADJUST})
        THEN -m.quantity END) AS adjustedOut,
      total(CASE WHEN m.type = 'COUNT' AND m.quantity < 0 THEN -m.quantity END) AS countedOut,
      total(CASE WHEN m.type = 'SALE' THEN -m.quantity END) AS sold,
      total(m.quantity) AS change
    FROM ${from} AND ${scope.where(sql`m.location_id`)} AND m.occurred_at >= ${scope.fromMs} AND m.occurred_at < ${scope.toMs}
    GROUP BY m.variation_id)`;
}

/**
 * The reconciliation's rows in scope, flagged first, then by the variance's value (largest loss or
 * gain first), each with the count of rows and of flagged ones and the variance's value over all of
 * them (window sums, computed before the page is cut): `page` of 25, or every row (page null, for
 * the CSV and the API). One statement.
 */
export function rowsSql(scope: Scope, threshold: number, page: number | null, variationId: string | null = null): SQL {
  const sums = sql`sums AS (
    SELECT variationId, total(services) AS expectedServices, total(retail) AS expectedRetail,
      total(drawn) AS drawn, total(wasted) AS wasted, total(missing) AS missing, total(adjustedOut) AS adjustedOut,
      total(countedOut) AS countedOut, total(sold) AS sold, total(change) AS change
    FROM (SELECT variationId, services, retail, 0 AS drawn, 0 AS wasted, 0 AS missing, 0 AS adjustedOut,
        0 AS countedOut, 0 AS sold, 0 AS change FROM expected
      UNION ALL SELECT variationId, 0, 0, drawn, wasted, missing, adjustedOut, countedOut, sold, change FROM moved)
    GROUP BY variationId)`;
  const expected = sql`(s.expectedServices + s.expectedRetail)`;
  const variance = sql`(s.drawn + s.wasted + s.missing + s.adjustedOut + s.countedOut + s.sold - ${expected})`;
  const tracked = sql`(EXISTS (SELECT 1 FROM recipe_lines AS r INDEXED BY recipe_lines_variation_idx WHERE r.variation_id = v.id)
    OR EXISTS (SELECT 1 FROM sale_items AS si INDEXED BY sale_items_variation_idx
      WHERE si.variation_id = v.id AND si.kind = 'retail'))`;
  return sql`WITH ${expectedSql(scope, variationId)}, ${movedSql(scope, variationId)}, ${sums},
    costed AS (
      SELECT s.*, v.product_id AS productId, p.name AS product, v.name AS variation, p.base_unit AS baseUnit,
        p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage, v.cost_cents AS costCents,
        ${tracked} AS tracked, ${variance} AS varianceUnits, ${expected} AS expectedUnits,
        round(${variance} * coalesce(v.cost_cents, 0) * 1.0 / v.units_per_package) AS varianceCents
      FROM sums AS s JOIN product_variations AS v ON v.id = s.variationId JOIN products AS p ON p.id = v.product_id),
    judged AS (
      SELECT *, (CASE WHEN expectedUnits = 0 THEN tracked AND varianceUnits <> 0
        ELSE abs(varianceUnits) * 100 > ${threshold} * abs(expectedUnits) END) AS isFlagged FROM costed)
    SELECT *, count(*) OVER () AS total, total(isFlagged) OVER () AS flaggedTotal,
      total(varianceCents) OVER () AS varianceCentsTotal
    FROM judged
    ORDER BY isFlagged DESC, abs(varianceCents) DESC, abs(varianceUnits) DESC, lower(product), lower(variation), variationId
    ${page === null ? sql`` : sql`LIMIT ${RECONCILIATION_PAGE_SIZE} OFFSET ${(page - 1) * RECONCILIATION_PAGE_SIZE}`}`;
}

function rowsStatement(
  db: Database,
  scope: Scope,
  threshold: number,
  page: number | null,
  variationId: string | null = null,
) {
  return db.all<SumsRow>(rowsSql(scope, threshold, page, variationId));
}

export function rowOf(row: SumsRow, threshold: number): ReconciliationRow {
  const sums = Object.fromEntries(SUM_KEYS.map((k) => [k, Number(row[k] ?? 0)])) as unknown as ReconciliationSums;
  const unitsPerPackage = Number(row.unitsPerPackage);
  const costCents = row.costCents === null ? null : Number(row.costCents);
  return {
    variationId: row.variationId,
    productId: row.productId,
    product: row.product,
    variation: row.variation,
    unit: row.baseUnit,
    unitScale: Number(row.unitScale) as UnitScale,
    costCents,
    unitsPerPackage,
    sums,
    ...figuresOf(sums, { costCents, unitsPerPackage }, threshold, Number(row.tracked) === 1),
  };
}

export interface ReconciliationTable {
  rows: ReconciliationRow[];
  total: number;
  flagged: number;
  varianceCents: number;
  page: number;
  pages: number;
}

/**
 * The screen's page of rows and its counts, one statement. A page past the last answers no rows
 * and no counts: the first page's counts are read again only if that happens (never from a link).
 */
export async function reconciliationPage(
  db: Database,
  scope: Scope,
  threshold: number,
  page: number,
): Promise<ReconciliationTable> {
  const rows = await rowsStatement(db, scope, threshold, page);
  return tableOf(rows, threshold, page);
}

export function tableOf(rows: SumsRow[], threshold: number, page: number): ReconciliationTable {
  const total = Number(rows[0]?.total ?? 0);
  return {
    rows: rows.map((r) => rowOf(r, threshold)),
    total,
    flagged: Number(rows[0]?.flaggedTotal ?? 0),
    varianceCents: Number(rows[0]?.varianceCentsTotal ?? 0),
    page,
    pages: Math.max(1, Math.ceil(total / RECONCILIATION_PAGE_SIZE)),
  };
}

/** Every row in scope, flagged first (the CSV and the API), one statement. */
export async function reconciliationRows(db: Database, scope: Scope, threshold: number): Promise<ReconciliationRow[]> {
  const rows = await rowsStatement(db, scope, threshold, null);
  return rows.map((r) => rowOf(r, threshold));
}

export { rowOf as reconciliationRowOf, rowsStatement as reconciliationRowsStatement };
