// The dashboard's stock figures (GET /api/dashboard/stats and the page's cards), each defined once
// here and read in the caller's one batch. "The shelf" is what the inventory lists by default: a
// vial (any serialized item) sealed or in use, at the locations in scope. Every figure counts the
// same rows as the list its card links to:
//
// - vialsOnHand: vials on the shelf, expired ones included (they are on hand until discarded)
//   = /inventory (its default states, sealed and in use).
// - inUse: vials in use = /inventory?state=in_use.
// - expiringSoon: vials on the shelf whose deadline is within EXPIRING_SOON_DAYS (30) days, the
//   inventory's own rule (`expiringWithinDays`): an in-use vial's Use-By Deadline within 30 days
//   of now, a sealed vial's expiration date within 30 days of today (UTC); vials already past it
//   are included, as the list shows them first = /inventory?expiringWithinDays=30.
//   expiringSoonValueCents: their value at cost (below).
// - expired: vials on the shelf past their deadline and not yet discarded (spec section 4, as
//   the stock levels' expired units and `isExpired`: an in-use vial at its Use-By Deadline, any
//   other at the end of its expiration day in UTC; one without the date it needs counts as
//   expired). No list filter names exactly these, so the card links to none.
// - recalled: vials on the shelf whose lot is under a recall in force = /inventory?recalled=true.
// - belowPar: location × variation pairs whose usable stock is below par, the stock levels'
//   statuses below_reorder (at or under the reorder point: order now) and below_par, as
//   `/stock-levels?status=below_reorder` and `?status=below_par` count them (one figure each,
//   belowPar their sum). In organization mode a variation short at two locations counts twice.
// - stockValueCents: what is on hand at cost: each vial on the shelf at its own cost as received
//   (else its variation's) for the share of the package left in it, rounded to the cent (as the
//   waste question prices it, app/vials/end.server.ts), plus each bulk product's on-hand at its
//   variation's cost per package. Stock without a cost counts as 0.
// - inTransitToHere: lines on their way to the locations in scope (ADR 0031: stock on the road is
//   at no location, so it is read from the transfers, not the levels): the pending lines (vials and
//   bulk quantities) of transfers in transit to them = /transfers?status=in_transit.
// - openDiscrepancies: lines of transfers from or to the locations in scope marked missing, damaged
//   or short and not yet resolved with a note (both locations see them until then) = /transfers.
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { atLocations, organizationOf, valueList } from "~/db/sql.server";
import { EXPIRING_SOON_DAYS } from "~/stock/expiry";
import { parStatusCountsOf, parStatusCountsQuery } from "~/stock/levels.server";
import { onTheWayOf, onTheWayQueries } from "~/transfers/read.server";
import { utcDay } from "~/ui/dates";
import type { Results } from "./read.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StockStats {
  vialsOnHand: number;
  inUse: number;
  expiringSoon: number;
  expiringSoonValueCents: number;
  expired: number;
  recalled: number;
  /** Pairs at or under the reorder point, and under par above it; belowPar is their sum. */
  belowReorder: number;
  belowParOnly: number;
  belowPar: number;
  stockValueCents: number;
  /** Pending lines (vials and bulk quantities) of transfers in transit to the locations in scope. */
  inTransitToHere: number;
  /** Unresolved missing, damaged or short lines of transfers from or to the locations in scope. */
  openDiscrepancies: number;
}

/**
 * `column IN (…)` over the locations in scope: an equality list an index seeks. None: IN (NULL),
 * true of no row, and still a term the (named) indexes serve.
 */
export function inLocations(column: string, locationIds: readonly string[]) {
  return sql`${sql.raw(column)} IN (${locationIds.length === 0 ? sql`NULL` : valueList(locationIds)})`;
}

/**
 * A vial's value at cost, in cents: its cost (else its variation's) for the share of a package left
 * in it. Its variation is read by product_variations_cost_idx alone (named: without statistics the
 * planner picks the primary key's index, then the table row, twice the work for each vial).
 */
const VIAL_VALUE = sql`cast(round(coalesce(i.cost_cents, v.cost_cents, 0) * i.units_remaining * 1.0 / v.units_per_package) AS integer)`;

/** The statements of the stock figures, for the caller's batch; `statsOf` reads their results. */
export function statsQueries(db: Database, actor: Actor, locationIds: readonly string[], now: Date) {
  const at = now.getTime();
  const today = utcDay(now);
  const soonAt = at + EXPIRING_SOON_DAYS * DAY_MS;
  const soonDay = utcDay(
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + EXPIRING_SOON_DAYS * DAY_MS),
  );
  // The shelf's term is written as the partial index items_dashboard_shelf_idx is, so it serves.
  const shelf = sql`${inLocations("i.location_id", locationIds)} AND i.state IN ('sealed', 'in_use')`;
  // One pass a state: each state's deadline is its own column, so each pass tests one date and not
  // the state first (the figures of a pass need no CASE on the state). Each pass still walks the
  // whole shelf in the index (its state is one of the index's IN terms) and passes over the other
  // state's vials at a test each: fewer steps than the one pass testing the state in every figure
  // (1.31 million instead of 1.85 million on the large set in organization mode).
  const pass = (state: "sealed" | "in_use", soon: SQL, expired: SQL) =>
    sql`SELECT count(*) AS onHand, ${state === "in_use" ? sql`count(*)` : sql`0`} AS inUse,
        sum(${soon}) AS expiringSoon, sum(CASE WHEN ${soon} THEN ${VIAL_VALUE} END) AS expiringSoonValueCents,
        sum(${expired}) AS expired, sum(${VIAL_VALUE}) AS valueCents
      FROM items AS i JOIN product_variations AS v INDEXED BY product_variations_cost_idx ON v.id = i.variation_id
      WHERE ${shelf} AND i.state = ${sql.raw(`'${state}'`)}`;
  // An in-use vial's deadline is its Use-By Deadline (expired at it), a sealed one's its expiration
  // date (expired after its day); without the date it needs, a vial counts as expired.
  const sealed = pass("sealed", sql`i.expiration_date <= ${soonDay}`, sql`coalesce(i.expiration_date < ${today}, 1)`);
  const inUse = pass("in_use", sql`i.expires_at <= ${soonAt}`, sql`coalesce(i.expires_at <= ${at}, 1)`);
  return [
    db.all<{
      onHand: number;
      inUse: number;
      expiringSoon: number;
      expiringSoonValueCents: number;
      expired: number;
      valueCents: number;
    }>(sql`SELECT coalesce(sum(s.onHand), 0) AS onHand, coalesce(sum(s.inUse), 0) AS inUse,
        coalesce(sum(s.expiringSoon), 0) AS expiringSoon,
        coalesce(sum(s.expiringSoonValueCents), 0) AS expiringSoonValueCents,
        coalesce(sum(s.expired), 0) AS expired, coalesce(sum(s.valueCents), 0) AS valueCents
      FROM (${sealed} UNION ALL ${inUse}) AS s`),
    // As the inventory's recalled filter: led by the recalls in force, each lot found by its index.
    db.all<{ recalled: number }>(sql`SELECT count(*) AS recalled FROM items AS i
      WHERE ${shelf} AND (i.variation_id, i.lot) IN (SELECT variation_id, lot FROM lot_recalls WHERE lifted_at IS NULL)`),
    // Bulk stock at cost: led by the organization's bulk products (the catalogue), each variation's
    // levels read from stock_levels_variation_idx alone: at one location one seek; at several, every
    // level of the variation, each location checked on the way (one seek where ten would be).
    db.all<{ valueCents: number }>(sql`SELECT coalesce(sum(cast(round(s.on_hand * coalesce(v.cost_cents, 0) * 1.0
        / v.units_per_package) AS integer)), 0) AS valueCents
      FROM products AS p CROSS JOIN product_variations AS v ON v.product_id = p.id
      CROSS JOIN stock_levels AS s ON s.variation_id = v.id
      WHERE p.organization_id = ${organizationOf(actor)} AND p.tracking = 'bulk'
        AND ${atLocations(sql`s.location_id`, locationIds)} AND s.on_hand > 0`),
    parStatusCountsQuery(db, actor, locationIds, now),
    // What is on the road to here and the open discrepancies, as the transfers screen reads them.
    ...onTheWayQueries(db, locationIds),
  ] as const;
}

export type StatsResults = Results<ReturnType<typeof statsQueries>>;

/** The figures from the results of `statsQueries`, in its order. */
export function statsOf(results: readonly unknown[]): StockStats {
  const [shelfRows, recalledRows, bulkRows, parRows, transitRows, discrepancyRows] = results as unknown as StatsResults;
  const shelf = shelfRows[0];
  const n = (value: unknown) => Number(value ?? 0);
  const { belowReorder, belowParOnly } = parStatusCountsOf(parRows);
  const way = onTheWayOf([transitRows, discrepancyRows]);
  return {
    vialsOnHand: n(shelf?.onHand),
    inUse: n(shelf?.inUse),
    expiringSoon: n(shelf?.expiringSoon),
    expiringSoonValueCents: n(shelf?.expiringSoonValueCents),
    expired: n(shelf?.expired),
    recalled: n(recalledRows[0]?.recalled),
    belowReorder,
    belowParOnly,
    belowPar: belowReorder + belowParOnly,
    stockValueCents: n(shelf?.valueCents) + n(bulkRows[0]?.valueCents),
    inTransitToHere: way.vials + way.bulkLines,
    openDiscrepancies: way.openDiscrepancies,
  };
}
