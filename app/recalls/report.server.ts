// The recall report (a trace) of one lot of a variation, recalled or not: every use of it (patient
// reference, units, service, provider, location, time, who) and where its unused vials are now
// (sealed, in use or in transit: location, state, units left), limited to the locations the
// reader reaches with READ_INVENTORY (every location in organization mode), with the lot's
// recalls. One batch: one round trip.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { lotUses, usageEntryOf } from "~/usage/list.server";
import type { ItemState } from "../../db/schema/stock/constants";
import { type Recall, recallOf, recallRows } from "./recall.server";

export interface UnusedVial {
  id: string;
  labelCode: string;
  location: { id: string; name: string; code: string };
  state: ItemState;
  unitsRemaining: number;
  unitsText: string;
  expirationDate: string | null;
}

export type RecallStatus = "in_force" | "lifted" | "never";

export async function readRecallReport(db: Database, actor: ScopedActor, input: { variationId: string; lot: string }) {
  const { variationId, lot } = input;
  const organization = organizationOf(actor);
  const reach = locationsFor(actor, "READ_INVENTORY");
  const [variations, recalls, uses, vials] = await db.batch([
    db.all<{ productName: string; variationName: string; baseUnit: string; unitScale: number }>(sql`SELECT
        p.name AS productName, v.name AS variationName, p.base_unit AS baseUnit, p.unit_scale AS unitScale
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.id = ${variationId} AND p.organization_id = ${organization}`),
    recallRows(db, sql`r.variation_id = ${variationId} AND r.lot = ${lot} AND r.organization_id = ${organization}`),
    lotUses(db, actor, variationId, lot),
    db.all<{
      id: string;
      labelCode: string;
      locationId: string;
      locationName: string;
      locationCode: string;
      state: ItemState;
      unitsRemaining: number;
      expirationDate: string | null;
    }>(sql`SELECT i.id, i.label_code AS labelCode, l.id AS locationId, l.name AS locationName, l.code AS locationCode,
        i.state, i.units_remaining AS unitsRemaining, i.expiration_date AS expirationDate
      FROM items AS i JOIN locations AS l ON l.id = i.location_id
      WHERE i.variation_id = ${variationId} AND i.lot = ${lot} AND i.state IN ('sealed', 'in_use', 'in_transit')
        AND ${reach.where(sql`i.location_id`)} AND l.organization_id = ${organization}
      ORDER BY lower(l.name), l.id, i.state, i.label_code`),
  ]);
  const variation = variations[0];
  if (!variation) return null;
  const scale = Number(variation.unitScale) as UnitScale;
  const history: Recall[] = recalls.map(recallOf);
  const status: RecallStatus = history.some((r) => r.inForce) ? "in_force" : history.length ? "lifted" : "never";
  return {
    variationId,
    lot,
    productName: variation.productName,
    variationName: variation.variationName,
    status,
    recalls: history,
    uses: uses.map(usageEntryOf),
    vials: vials.map(
      (v): UnusedVial => ({
        id: v.id,
        labelCode: v.labelCode,
        location: { id: v.locationId, name: v.locationName, code: v.locationCode },
        state: v.state,
        unitsRemaining: Number(v.unitsRemaining),
        unitsText: formatQuantity(Number(v.unitsRemaining), scale, variation.baseUnit),
        expirationDate: v.expirationDate,
      }),
    ),
  };
}

export type RecallReport = NonNullable<Awaited<ReturnType<typeof readRecallReport>>>;

/** The variation and lot a report URL names (`?variationId=&lot=`), or null until both are given. */
export function reportQueryOf(params: URLSearchParams): { variationId: string; lot: string } | null {
  const variationId = params.get("variationId")?.trim() ?? "";
  const lot = params.get("lot")?.trim() ?? "";
  if (!variationId || !lot || variationId.length > 100 || lot.length > 100) return null;
  return { variationId, lot };
}
