// The dashboard's waste: units and their value at cost that left the stock as waste this month and
// last month, by reason, and the products that wasted the most this month. Waste is every WASTE
// movement (what was left in a vial emptied by hand, or at its Use-By Deadline by the jobs worker)
// and every DISCARD movement (a vial discarded: expired, damaged, contaminated, recalled, lost in
// transit, missing in a count, other) of the ledger at the locations in scope. A bulk adjustment
// (ADJUST, e.g. "damaged") is a correction of the count, not booked as waste, and is not here.
//
// Months: see ./month.ts (the location's time zone for one location, UTC in organization mode).
// Units are base units as the movements book them (each in its own product's unit, so a total over
// several products is a count of base units, not one quantity); value is at cost: a vial's own
// cost as received (else its variation's) for the share of a package wasted, as the waste question
// prices it (app/vials/end.server.ts), rounded to the cent per movement.
import { sql } from "drizzle-orm";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import type { WasteMonths } from "./month";
import type { Results } from "./read.server";
import { inLocations } from "./stats.server";
import { addWaste, NO_WASTE, WASTE_REASONS, type WasteFigure, type WasteReason, wasteReasonOf } from "./waste";

/** How many products the "wastes the most" list names. */
export const TOP_WASTERS = 5;

/** The movements of waste at the locations in scope from `from` to before `to`, as FROM … WHERE (index stock_movements_waste_idx). */
function wasteMovements(locationIds: readonly string[], from: number, to: number) {
  // The type's term is written as the partial index's is, so the index serves.
  // The waste's own index, named: grouped by variation, the planner would rather walk every movement
  // of the location in the (location, variation) index than sort a month's waste. The variation's
  // package and cost and the vial's own cost from their indexes alone (see VIAL_VALUE in ./stats.server.ts).
  return sql`FROM stock_movements AS m INDEXED BY stock_movements_waste_idx
    JOIN product_variations AS v INDEXED BY product_variations_cost_idx ON v.id = m.variation_id
    LEFT JOIN items AS i INDEXED BY items_cost_idx ON i.id = m.item_id
    WHERE ${inLocations("m.location_id", locationIds)} AND m.occurred_at >= ${from} AND m.occurred_at < ${to}
      AND m.type IN ('WASTE', 'DISCARD')`;
}

const CENTS = sql`cast(round(-m.quantity * coalesce(i.cost_cents, v.cost_cents, 0) * 1.0 / v.units_per_package) AS integer)`;

export interface WasteByReason {
  reason: WasteReason;
  thisMonth: WasteFigure;
  lastMonth: WasteFigure;
}

export interface TopWaster {
  productId: string;
  productName: string;
  baseUnit: string;
  unitScale: UnitScale;
  units: number;
  cents: number;
  /** Of those, what was left in vials at their Use-By Deadline. */
  deadlineUnits: number;
  deadlineCents: number;
}

export interface Waste {
  months: WasteMonths;
  thisMonth: WasteFigure;
  lastMonth: WasteFigure;
  /** Every reason, in WASTE_REASONS order, zeros included. */
  byReason: WasteByReason[];
  top: TopWaster[];
}

/** The statements of the waste figures, for the caller's batch; `wasteOf` reads their results. */
export function wasteQueries(db: Database, locationIds: readonly string[], months: WasteMonths) {
  return [
    db.all<{ thisMonth: number; type: string; reason: string | null; count: number; units: number; cents: number }>(
      sql`SELECT m.occurred_at >= ${months.thisMonthStart} AS thisMonth, m.type AS type, m.reason AS reason,
        count(*) AS count, -sum(m.quantity) AS units, sum(${CENTS}) AS cents
      ${wasteMovements(locationIds, months.lastMonthStart, months.nextMonthStart)}
      GROUP BY 1, 2, 3`,
    ),
    db.all<{
      productId: string;
      productName: string;
      baseUnit: string;
      unitScale: number;
      units: number;
      cents: number;
      deadlineUnits: number;
      deadlineCents: number;
    }>(
      // Summed by product in the one pass (the variation's product is in product_variations_cost_idx,
      // read for the cost anyway), the five first kept there; only they are looked up in products.
      // (Summing by variation first and then by product looked every variation up twice more; one
      // pass grouped by variation, month, type and reason for both widgets costs more than the two
      // passes, as nearly every variation wastes once a month: 1.44 million steps instead of 1.25.)
      sql`SELECT p.id AS productId, p.name AS productName, p.base_unit AS baseUnit, p.unit_scale AS unitScale,
        g.units AS units, g.cents AS cents, g.deadlineUnits AS deadlineUnits, g.deadlineCents AS deadlineCents
      FROM (SELECT v.product_id AS productId, -sum(m.quantity) AS units, sum(${CENTS}) AS cents,
          -coalesce(sum(CASE WHEN m.reason = 'beyond_use_deadline' THEN m.quantity END), 0) AS deadlineUnits,
          coalesce(sum(CASE WHEN m.reason = 'beyond_use_deadline' THEN ${CENTS} END), 0) AS deadlineCents
        ${wasteMovements(locationIds, months.thisMonthStart, months.nextMonthStart)}
        GROUP BY v.product_id
        ORDER BY cents DESC, units DESC, v.product_id
        LIMIT ${TOP_WASTERS}) AS g
      JOIN products AS p ON p.id = g.productId
      ORDER BY g.cents DESC, g.units DESC, p.id`,
    ),
  ] as const;
}

type WasteResults = Results<ReturnType<typeof wasteQueries>>;

/**
 * The waste by reason without the products (the stats API's `wasteThisMonth`): the first statement
 * of `wasteQueries` alone, read by `wasteOf` as a waste with no products listed.
 */
export function wasteByReasonQueries(db: Database, locationIds: readonly string[], months: WasteMonths) {
  return [wasteQueries(db, locationIds, months)[0]] as const;
}

export function wasteOf(results: readonly unknown[], months: WasteMonths): Waste {
  const [reasonRows, topRows = []] = results as unknown as Partial<WasteResults> & [WasteResults[0]];
  const figures = new Map<string, WasteFigure>();
  for (const row of reasonRows) {
    const key = `${Number(row.thisMonth) ? "this" : "last"}:${wasteReasonOf(row.type, row.reason)}`;
    const figure = { units: Number(row.units ?? 0), cents: Number(row.cents ?? 0), count: Number(row.count ?? 0) };
    figures.set(key, addWaste(figures.get(key) ?? NO_WASTE, figure));
  }
  const byReason = WASTE_REASONS.map((reason) => ({
    reason,
    thisMonth: figures.get(`this:${reason}`) ?? NO_WASTE,
    lastMonth: figures.get(`last:${reason}`) ?? NO_WASTE,
  }));
  return {
    months,
    thisMonth: byReason.reduce((sum, r) => addWaste(sum, r.thisMonth), NO_WASTE),
    lastMonth: byReason.reduce((sum, r) => addWaste(sum, r.lastMonth), NO_WASTE),
    byReason,
    top: topRows.map((row) => ({
      productId: row.productId,
      productName: row.productName,
      baseUnit: row.baseUnit,
      unitScale: Number(row.unitScale) as UnitScale,
      units: Number(row.units ?? 0),
      cents: Number(row.cents ?? 0),
      deadlineUnits: Number(row.deadlineUnits ?? 0),
      deadlineCents: Number(row.deadlineCents ?? 0),
    })),
  };
}
