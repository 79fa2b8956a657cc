// GET /api/reconciliation's answer (spec section 7): per variation, expected and actual usage, the
// stock change, the variance (units, percent, cents) and its split, flagged first; quantities as
// decimal numbers in the product's unit (3.5 mL, 20 U), money in cents.
import type { Database } from "~/db/client.server";
import type { ReconciliationFigures } from "./figures";
import type { ReconciliationRow } from "./read.server";
import type { ReconciliationAsk } from "./screen.server";
import { reconciliationAllRows } from "./worked-out.server";

/** A variation's figures as the API answers them: its names, in the product's unit. */
export interface ReconciliationApiItem extends ReconciliationFigures {
  variationId: string;
  productId: string;
  product: string;
  variation: string;
  unit: string;
}

export function apiItemOf(row: ReconciliationRow): ReconciliationApiItem {
  const inUnit = (value: number) => value / row.unitScale;
  return {
    variationId: row.variationId,
    productId: row.productId,
    product: row.product,
    variation: row.variation,
    unit: row.unit,
    expected: inUnit(row.expected),
    actual: inUnit(row.actual),
    change: inUnit(row.change),
    variance: { units: inUnit(row.variance.units), percent: row.variance.percent, cents: row.variance.cents },
    split: {
      recipeDrift: inUnit(row.split.recipeDrift),
      waste: inUnit(row.split.waste),
      unexplained: inUnit(row.split.unexplained),
    },
    flagged: row.flagged,
  };
}

/**
 * The answer, a page of rows in the screen's order (flagged first) as the API's lists answer,
 * `{items, page, pageSize, total}`; `computedAt` (ISO) when the rows are the jobs worker's of that
 * instant, null when summed now.
 */
export async function reconciliationApi(db: Database, ask: ReconciliationAsk, now = new Date()) {
  const { page, pageSize } = ask.query;
  const { rows, total, computedAt } = await reconciliationAllRows(db, ask.scope, ask.threshold, now, {
    page,
    size: pageSize,
  });
  return {
    items: rows.map(apiItemOf),
    page,
    pageSize,
    total,
    from: ask.period.from,
    to: ask.period.to,
    threshold: ask.threshold,
    computedAt: computedAt === null ? null : new Date(computedAt).toISOString(),
  };
}
