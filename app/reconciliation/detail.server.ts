// The drill-down of one variation's reconciliation (/reconciliation/<variationId>): its figures as
// the table shows them, the waste and losses by movement type and reason, the recipe drift by
// provider, a page of the sales lines behind the expected usage and a page of the movements behind
// the actual usage (all, or those behind one figure). One batch; each statement sought through an
// index of the variation (sales: its sale items' lines by item, location and time).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { quotedList } from "../../db/schema/columns";
import { NO_SUMS } from "./figures";
import type { MovementKind } from "./query";
import { RECONCILIATION_PAGE_SIZE } from "./query";
import {
  LOSS_REASONS,
  type ReconciliationRow,
  reconciliationRowOf,
  reconciliationRowsStatement,
  type Scope,
  type VariationFacts,
  WASTE_ADJUST_REASONS,
} from "./read.server";

/** The movements behind each figure (./figures): as SQL over `m`. */
export const KIND_WHERE: Record<MovementKind, ReturnType<typeof sql>> = {
  all: sql`1`,
  drawn: sql`m.type = 'USE'`,
  waste: sql`(m.type = 'WASTE' OR (m.type = 'DISCARD' AND coalesce(m.reason, '') NOT IN (${quotedList(LOSS_REASONS)}))
    OR (m.type = 'ADJUST' AND m.quantity < 0 AND m.reason IN (${quotedList(WASTE_ADJUST_REASONS)})))`,
  loss: sql`((m.type = 'DISCARD' AND m.reason IN (${quotedList(LOSS_REASONS)})) OR (m.type = 'COUNT' AND m.quantity < 0)
    OR (m.type = 'ADJUST' AND m.quantity < 0 AND coalesce(m.reason, '') NOT IN (${quotedList(WASTE_ADJUST_REASONS)})))`,
  sale: sql`m.type = 'SALE'`,
};

export interface DetailVariation extends VariationFacts {
  id: string;
}

export interface WastePart {
  type: string;
  reason: string | null;
  units: number;
  movements: number;
  /** Where the split counts it: waste, or unexplained loss. */
  part: "waste" | "unexplained";
}

export interface ProviderDrift {
  provider: string | null;
  entries: number;
  drawn: number;
  recipe: number;
  drift: number;
}

export interface SalesLineRow {
  id: number;
  soldAt: number;
  location: string;
  timeZone: string;
  item: string;
  kind: string;
  quantity: number;
  /** Base units this line should have used of the variation (its recipe's, or its packages'). */
  units: number;
  netCents: number;
  transactionRef: string | null;
  provider: string | null;
}

export interface MovementRow {
  id: string;
  occurredAt: number;
  location: string;
  timeZone: string;
  type: string;
  reason: string | null;
  quantity: number;
  itemId: string | null;
  lot: string | null;
}

export interface ReconciliationDetail {
  variation: DetailVariation;
  row: ReconciliationRow;
  parts: WastePart[];
  providers: ProviderDrift[];
  /** Drift no usage entry of a service explains: draws without a service, services sold with no draw recorded. */
  driftElsewhere: number;
  sales: { rows: SalesLineRow[]; total: number; page: number; pages: number };
  movements: { rows: MovementRow[]; total: number; page: number; pages: number };
}

function pagesOf(total: number): number {
  return Math.max(1, Math.ceil(total / RECONCILIATION_PAGE_SIZE));
}

/** One variation's drill-down in scope; null when the variation is not one of the reader's organization. */
export async function reconciliationDetail(
  db: Database,
  actor: ScopedActor,
  scope: Scope,
  input: { variationId: string; threshold: number; page: number; mpage: number; kind: MovementKind },
): Promise<ReconciliationDetail | null> {
  const { variationId } = input;
  const period = sql`>= ${scope.fromMs}`;
  const until = sql`< ${scope.toMs}`;
  const offset = (page: number) => (page - 1) * RECONCILIATION_PAGE_SIZE;
  const [found, figures, parts, providers, sales, movements] = await db.batch([
    db.all<DetailVariation>(sql`SELECT v.id, v.product_id AS productId, p.name AS product, v.name AS variation,
      p.base_unit AS unit, p.unit_scale AS unitScale, v.cost_cents AS costCents, v.units_per_package AS unitsPerPackage
      FROM product_variations v JOIN products p ON p.id = v.product_id
      WHERE v.id = ${variationId} AND p.organization_id = ${organizationOf(actor)}`),
    reconciliationRowsStatement(db, scope, input.threshold, null, variationId),
    db.all<{ type: string; reason: string | null; units: number; movements: number; loss: number }>(sql`
      SELECT m.type, m.reason, total(-m.quantity) AS units, count(*) AS movements, ${KIND_WHERE.loss} AS loss
      FROM stock_movements AS m INDEXED BY stock_movements_location_variation_at_idx
      WHERE m.variation_id = ${variationId} AND ${scope.where(sql`m.location_id`)}
        AND m.occurred_at ${period} AND m.occurred_at ${until} AND (${KIND_WHERE.waste} OR ${KIND_WHERE.loss})
      GROUP BY m.type, m.reason ORDER BY units DESC, m.type, m.reason`),
    db.all<{ provider: string | null; entries: number; drawn: number; recipe: number }>(sql`
      SELECT u.provider, count(*) AS entries, total(u.units) AS drawn, total(r.quantity) AS recipe
      FROM usage_entries AS u INDEXED BY usage_entries_variation_idx
      LEFT JOIN recipe_lines AS r ON r.service_id = u.service_id AND r.variation_id = u.variation_id
      WHERE u.variation_id = ${variationId} AND ${scope.where(sql`u.location_id`)}
        AND u.used_at ${period} AND u.used_at ${until} AND u.service_id IS NOT NULL
      GROUP BY u.provider ORDER BY abs(total(u.units) - total(r.quantity)) DESC, u.provider`),
    db.all<SalesLineRow & { total: number }>(sql`
      WITH items AS (
        SELECT si.id, si.name, si.kind, coalesce(r.quantity, pv.units_per_package) AS unitsEach
        FROM sale_items AS si
        LEFT JOIN recipe_lines AS r ON si.kind = 'service' AND r.service_id = si.service_id AND r.variation_id = ${variationId}
        LEFT JOIN product_variations AS pv ON si.kind = 'retail' AND pv.id = si.variation_id AND pv.id = ${variationId}
        WHERE si.organization_id = ${organizationOf(actor)} AND (r.variation_id IS NOT NULL OR pv.id IS NOT NULL)
          AND si.id IN (SELECT x.id FROM sale_items AS x WHERE (x.kind = 'service' AND x.service_id IN (SELECT service_id
            FROM recipe_lines INDEXED BY recipe_lines_variation_idx WHERE variation_id = ${variationId}))
            OR (x.kind = 'retail' AND x.variation_id = ${variationId})))
      SELECT sl.id, sl.sold_at AS soldAt, l.name AS location, l.timezone AS timeZone, items.name AS item, items.kind,
        sl.quantity, sl.quantity * items.unitsEach AS units, sl.net_cents AS netCents, sl.transaction_ref AS transactionRef,
        sl.provider, count(*) OVER () AS total
      FROM items CROSS JOIN sales_lines AS sl INDEXED BY sales_lines_item_location_sold_idx ON sl.sale_item_id = items.id
      JOIN locations AS l ON l.id = sl.location_id
      WHERE ${scope.where(sql`sl.location_id`)} AND sl.sold_at ${period} AND sl.sold_at ${until}
      ORDER BY sl.sold_at DESC, sl.id DESC LIMIT ${RECONCILIATION_PAGE_SIZE} OFFSET ${offset(input.page)}`),
    db.all<MovementRow & { total: number }>(sql`
      SELECT m.id, m.occurred_at AS occurredAt, l.name AS location, l.timezone AS timeZone, m.type, m.reason, m.quantity,
        m.item_id AS itemId, m.lot, count(*) OVER () AS total
      FROM stock_movements AS m INDEXED BY stock_movements_location_variation_at_idx
      JOIN locations AS l ON l.id = m.location_id
      WHERE m.variation_id = ${variationId} AND ${scope.where(sql`m.location_id`)}
        AND m.occurred_at ${period} AND m.occurred_at ${until} AND ${KIND_WHERE[input.kind]}
      ORDER BY m.occurred_at DESC, m.id DESC LIMIT ${RECONCILIATION_PAGE_SIZE} OFFSET ${offset(input.mpage)}`),
  ]);
  const variation = found[0];
  if (!variation) return null;
  const v = { ...variation, unitScale: Number(variation.unitScale) as UnitScale };
  const row = figures[0]
    ? reconciliationRowOf(figures[0], input.threshold)
    : reconciliationRowOf(
        {
          ...NO_SUMS,
          variationId,
          productId: v.productId,
          product: v.product,
          variation: v.variation,
          baseUnit: v.unit,
          unitScale: v.unitScale,
          unitsPerPackage: v.unitsPerPackage,
          costCents: v.costCents,
          tracked: 0,
          total: 0,
          flaggedTotal: 0,
          varianceCentsTotal: 0,
        },
        input.threshold,
      );
  const byProvider = providers.map((p) => {
    const drawn = Number(p.drawn);
    const recipe = Number(p.recipe);
    return { provider: p.provider, entries: Number(p.entries), drawn, recipe, drift: drawn - recipe };
  });
  const salesTotal = Number(sales[0]?.total ?? 0);
  const movementsTotal = Number(movements[0]?.total ?? 0);
  return {
    variation: v,
    row,
    parts: parts.map((p) => ({
      type: p.type,
      reason: p.reason,
      units: Number(p.units),
      movements: Number(p.movements),
      part: Number(p.loss) === 1 ? "unexplained" : "waste",
    })),
    providers: byProvider,
    driftElsewhere: row.split.recipeDrift - byProvider.reduce((sum, p) => sum + p.drift, 0),
    sales: {
      rows: sales.map(({ total: _, ...r }) => ({
        ...r,
        soldAt: Number(r.soldAt),
        quantity: Number(r.quantity),
        units: Number(r.units),
        netCents: Number(r.netCents),
      })),
      total: salesTotal,
      page: input.page,
      pages: pagesOf(salesTotal),
    },
    movements: {
      rows: movements.map(({ total: _, ...r }) => ({
        ...r,
        occurredAt: Number(r.occurredAt),
        quantity: Number(r.quantity),
      })),
      total: movementsTotal,
      page: input.mpage,
      pages: pagesOf(movementsTotal),
    },
  };
}
