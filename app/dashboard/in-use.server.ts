// The dashboard's open vials: the vials in use at the locations in scope, the nearest Use-By
// Deadline first (those already past it, which the jobs worker has yet to book as waste, first of
// all), each shown with its live countdown (app/stock/countdown.tsx).
import { sql } from "drizzle-orm";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { valueList } from "~/db/sql.server";
import type { Results } from "./read.server";

/** Vials the list shows; the inventory lists them all (/inventory?state=in_use). */
export const IN_USE_LIST_SIZE = 8;

export interface OpenVial {
  id: string;
  labelCode: string;
  lot: string | null;
  productName: string;
  variationName: string;
  baseUnit: string;
  unitScale: UnitScale;
  unitsRemaining: number;
  expiresAt: number;
  location: { code: string; name: string };
}

export function inUseQueries(db: Database, locationIds: readonly string[]) {
  // Walks the in-use vials in deadline order (items_state_expires_idx) and stops at the LIMIT;
  // the locations are a filter (unary plus), so that walk is not traded for a sort.
  const at = locationIds.length === 0 ? sql`0` : sql`+i.location_id IN (${valueList(locationIds)})`;
  return [
    db.all<{
      id: string;
      labelCode: string;
      lot: string | null;
      productName: string;
      variationName: string;
      baseUnit: string;
      unitScale: number;
      unitsRemaining: number;
      expiresAt: number;
      locationCode: string;
      locationName: string;
    }>(sql`SELECT i.id, i.label_code AS labelCode, i.lot, p.name AS productName, v.name AS variationName,
        p.base_unit AS baseUnit, p.unit_scale AS unitScale, i.units_remaining AS unitsRemaining,
        i.expires_at AS expiresAt, l.code AS locationCode, l.name AS locationName
      FROM items AS i
      JOIN product_variations AS v ON v.id = i.variation_id
      JOIN products AS p ON p.id = v.product_id
      JOIN locations AS l ON l.id = i.location_id
      WHERE i.state = 'in_use' AND ${at}
      ORDER BY i.expires_at
      LIMIT ${IN_USE_LIST_SIZE}`),
  ] as const;
}

export function inUseOf(results: readonly unknown[]): OpenVial[] {
  const [rows] = results as Results<ReturnType<typeof inUseQueries>>;
  return rows.map((row) => ({
    id: row.id,
    labelCode: row.labelCode,
    lot: row.lot,
    productName: row.productName,
    variationName: row.variationName,
    baseUnit: row.baseUnit,
    unitScale: Number(row.unitScale) as UnitScale,
    unitsRemaining: Number(row.unitsRemaining),
    expiresAt: Number(row.expiresAt),
    location: { code: row.locationCode, name: row.locationName },
  }));
}
