// What a recall of a lot holds: the unused vials (sealed, in use, in transit) of that lot of the
// variation at each location of the organization, which it quarantines at once; and the lots of
// the variation that differ from it only in case or spacing, offered when it holds none (a lot
// typed "c7988a1" matches no vial of lot C7988A1: the recall would quarantine nothing).
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type Outcome, refuse } from "./outcome";

/** The vials a recall holds at one location. */
export interface HeldAt {
  id: string;
  name: string;
  code: string;
  vials: number;
}

/** The vials a recall holds, in all and by location (names first). */
export interface Held {
  vials: number;
  locations: HeldAt[];
}

/** A lot of the same variation that differs from the one asked only in case or spacing, and its unused vials. */
export interface NearLot {
  lot: string;
  vials: number;
}

/** Near lots offered: a lot mistyped has a handful of spellings at most. */
const NEAR_LOTS_SHOWN = 10;

const UNUSED = sql`('sealed', 'in_use', 'in_transit')`;

/** A lot as compared for "differs only in case or spacing": lower case, without spaces or tabs. */
export function lotKey(lot: SQL): SQL {
  return sql`lower(replace(replace(${lot}, ' ', ''), char(9), ''))`;
}

/** The unused vials of `lot` of the variation by location, as one statement for a batch. */
export function heldRows(db: Database, organization: SQL, variationId: string, lot: string) {
  return db.all<HeldAt>(sql`SELECT l.id, l.name, l.code, count(*) AS vials
    FROM items AS i JOIN locations AS l ON l.id = i.location_id
    WHERE i.variation_id = ${variationId} AND i.lot = ${lot} AND i.state IN ${UNUSED}
      AND l.organization_id = ${organization}
    GROUP BY l.id ORDER BY lower(l.name), l.id`);
}

/** SQL that is true while the recall of `lot` would hold at least one vial (the mark's guard). */
export function holdsAVial(organization: SQL, variationId: string, lot: string): SQL {
  return sql`EXISTS (SELECT 1 FROM items AS i JOIN locations AS l ON l.id = i.location_id
    WHERE i.variation_id = ${variationId} AND i.lot = ${lot} AND i.state IN ${UNUSED}
      AND l.organization_id = ${organization})`;
}

/**
 * The variation's other lots equal to `lot` but for case and spacing, with their unused vials, as
 * one statement for a batch (read from items by variation: items_variation_lot_idx).
 */
export function nearLotRows(db: Database, organization: SQL, variationId: string, lot: string) {
  return db.all<NearLot>(sql`SELECT i.lot, sum(i.state IN ${UNUSED}) AS vials
    FROM items AS i JOIN locations AS l ON l.id = i.location_id
    WHERE i.variation_id = ${variationId} AND i.lot IS NOT NULL AND i.lot <> ${lot}
      AND ${lotKey(sql`i.lot`)} = ${lotKey(sql`${lot}`)} AND l.organization_id = ${organization}
    GROUP BY i.lot ORDER BY vials DESC, i.lot LIMIT ${NEAR_LOTS_SHOWN}`);
}

export function heldOf(rows: readonly HeldAt[]): Held {
  const locations = rows.map((r) => ({ ...r, vials: Number(r.vials) }));
  return { vials: locations.reduce((sum, l) => sum + l.vials, 0), locations };
}

export function nearLotsOf(rows: readonly NearLot[]): NearLot[] {
  return rows.map((r) => ({ lot: r.lot, vials: Number(r.vials) }));
}

/** "12 vials quarantined (Downtown 7, Westside 5)", or that none is in stock to be. */
export function heldText(held: Held): string {
  if (held.vials === 0) return "no vial of it is in stock now; vials of it received later are quarantined";
  const count = `${held.vials} ${held.vials === 1 ? "vial" : "vials"}`;
  return `${count} quarantined (${held.locations.map((l) => `${l.name} ${l.vials}`).join(", ")})`;
}

/** "C7988A1 (12 vials), C7988 A1 (none unused)" */
export function nearLotsText(near: readonly NearLot[]): string {
  return near
    .map((n) => `${n.lot} (${n.vials === 0 ? "none unused" : `${n.vials} ${n.vials === 1 ? "vial" : "vials"}`})`)
    .join(", ");
}

/**
 * What marking `lot` of the variation recalled would hold, for the screen's confirmation step, in
 * one batch: the variation's names, the unused vials by location and, when none, the near lots;
 * refused as the mark would be when the variation is not the organization's or the lot is
 * already recalled. Writes nothing.
 */
export async function reviewRecall(
  db: Database,
  actor: Actor,
  input: { variationId: string; lot: string },
): Promise<Outcome<{ productName: string; variationName: string; held: Held; nearLots: NearLot[] }>> {
  const { variationId, lot } = input;
  const organization = organizationOf(actor);
  const [variations, held, near] = await db.batch([
    db.all<{ productName: string; variationName: string; inForce: number }>(sql`SELECT p.name AS productName,
        v.name AS variationName, EXISTS (SELECT 1 FROM lot_recalls AS r WHERE r.variation_id = v.id
          AND r.lot = ${lot} AND r.lifted_at IS NULL) AS inForce
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.id = ${variationId} AND p.organization_id = ${organization}`),
    heldRows(db, organization, variationId, lot),
    nearLotRows(db, organization, variationId, lot),
  ]);
  const variation = variations[0];
  if (!variation) return refuse("variation_not_found");
  if (variation.inForce) return refuse("already_recalled");
  return {
    ok: true,
    productName: variation.productName,
    variationName: variation.variationName,
    held: heldOf(held),
    nearLots: nearLotsOf(near),
  };
}
