// Lines put on an order (create with lines, add lines, a revision's new lines): read first, to say
// in words why a variation cannot go on it (archived, another organization's, twice, already on
// the order), with its defaults filled in (unit cost from the variation's cost, the vendor's SKU
// from the variation's SKU, the expected date from the vendor's lead time in the location's time
// zone); then inserted under the same rules in SQL, so a variation archived in between fails the
// batch (its packages are NULL outside the guard) instead of ordering it.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf, valueList } from "~/db/sql.server";
import { calendarDayIn } from "~/ui/dates";
import type { OrderLineInput } from "./forms";
import { type PurchasingRefused, refuse } from "./outcome";

/** A line as it will be written. */
export interface ResolvedLine {
  id: string;
  variationId: string;
  packages: number;
  unitsPerPackage: number;
  unitCostCents: number;
  vendorSku: string | null;
  expectedOn: string | null;
  /** "Botox Cosmetic · 100 U vial": what the activity row and a toast say. */
  product: string;
}

/** "YYYY-MM-DD" plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** When a line added today is expected: today at the location plus the vendor's lead time (none without one). */
export function expectedDate(now: Date, timeZone: string, leadTimeDays: number | null): string | null {
  if (leadTimeDays === null || leadTimeDays === undefined) return null;
  return addDays(calendarDayIn(now, timeZone), Number(leadTimeDays));
}

/**
 * The lines `wanted` as they would be written on an order (`orderId` when it exists: a variation
 * already on it is refused), or why not.
 */
export async function resolveLines(
  db: Database,
  actor: ScopedActor,
  orderId: string | null,
  wanted: readonly OrderLineInput[],
  expected: string | null,
): Promise<{ ok: true; lines: ResolvedLine[] } | PurchasingRefused> {
  if (wanted.length === 0) return { ok: true, lines: [] };
  const ids = wanted.map((l) => l.variationId);
  if (new Set(ids).size !== ids.length) return refuse("duplicate_line");
  const found = await db.all<{
    id: string;
    product: string;
    variation: string;
    unitsPerPackage: number;
    costCents: number | null;
    sku: string | null;
    onOrder: number;
  }>(sql`SELECT v.id, p.name AS product, v.name AS variation, v.units_per_package AS unitsPerPackage,
      coalesce(v.cost_cents, p.cost_cents) AS costCents, coalesce(v.sku, p.sku) AS sku,
      EXISTS (SELECT 1 FROM purchase_order_lines AS x WHERE x.order_id = ${orderId} AND x.variation_id = v.id) AS onOrder
    FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE v.id IN (${valueList(ids)}) AND p.organization_id = ${organizationOf(actor)} AND v.active = 1 AND p.active = 1`);
  const byId = new Map(found.map((f) => [f.id, f]));
  const lines: ResolvedLine[] = [];
  for (const want of wanted) {
    const v = byId.get(want.variationId);
    if (!v) return refuse("variation_unavailable");
    const product = `${v.product} · ${v.variation}`;
    if (v.onOrder) {
      return refuse("already_on_order", `${product} is on this order already: change its line instead.`);
    }
    lines.push({
      id: uuidv7(),
      variationId: v.id,
      packages: want.packages,
      unitsPerPackage: Number(v.unitsPerPackage),
      unitCostCents: want.unitCostCents ?? Number(v.costCents ?? 0),
      vendorSku: want.vendorSku === undefined ? v.sku : want.vendorSku,
      expectedOn: want.expectedOn === undefined || want.expectedOn === null ? expected : want.expectedOn,
      product,
    });
  }
  return { ok: true, lines };
}

/**
 * The insert of `line` on order `orderId`, written only where `when` holds; its packages are NULL
 * (the batch fails) if the variation is no longer an active one of the order's organization.
 */
export function insertLine(db: Database, orderId: string, line: ResolvedLine, when: SQL, at: number) {
  return db.run(sql`INSERT INTO purchase_order_lines (id, order_id, variation_id, packages_ordered, units_per_package,
      unit_cost_cents, packages_received, vendor_sku, expected_on, created_at, updated_at)
    SELECT ${line.id}, ${orderId}, ${line.variationId},
      (SELECT ${line.packages} FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
        JOIN purchase_orders AS o ON o.id = ${orderId}
        WHERE v.id = ${line.variationId} AND v.active = 1 AND p.active = 1 AND p.organization_id = o.organization_id),
      ${line.unitsPerPackage}, ${line.unitCostCents}, 0, ${line.vendorSku}, ${line.expectedOn}, ${at}, ${at}
    WHERE ${when}`);
}

/** Whether a batch failed on a line written outside its guard (a variation archived meanwhile, a twin line). */
export function isLineRefused(error: unknown): boolean {
  return constraintFailed(
    error,
    /purchase_order_lines\.(packages_ordered|order_id|variation_id)|purchase_order_lines_/,
  );
}
