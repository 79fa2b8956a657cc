// The reconciliation's table as a CSV download: every row in scope (not only the page shown),
// flagged first, quantities in the product's unit, money in dollars. One statement.
import { formatScaled } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { csvResponse } from "~/http/csv.server";
import type { ReconciliationRow, Scope } from "./read.server";
import { reconciliationAllRows } from "./worked-out.server";

export const RECONCILIATION_CSV_HEADER = [
  "Product",
  "Variation",
  "Unit",
  "Expected",
  "Actual",
  "Stock change",
  "Variance",
  "Variance %",
  "Variance ($)",
  "Recipe drift",
  "Waste",
  "Unexplained loss",
  "Flagged",
] as const;

const units = (row: ReconciliationRow, value: number) => formatScaled(value, row.unitScale, { trim: true });

export function csvRecord(row: ReconciliationRow): (string | number | null)[] {
  return [
    row.product,
    row.variation,
    row.unit,
    units(row, row.expected),
    units(row, row.actual),
    units(row, row.change),
    units(row, row.variance.units),
    row.variance.percent === null ? "" : row.variance.percent.toFixed(1),
    formatScaled(row.variance.cents, 100),
    units(row, row.split.recipeDrift),
    units(row, row.split.waste),
    units(row, row.split.unexplained),
    row.flagged ? "yes" : "no",
  ];
}

export async function reconciliationCsv(db: Database, scope: Scope, threshold: number): Promise<Response> {
  const { rows } = await reconciliationAllRows(db, scope, threshold);
  async function* records() {
    yield rows.map(csvRecord);
  }
  const { from, to } = scope.period;
  return csvResponse(`reconciliation-${from}-to-${to}`, RECONCILIATION_CSV_HEADER, records());
}
