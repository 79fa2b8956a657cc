// Balancing suggestions (issue 22, "what no peer does"): stock moved between two locations of the
// organization before anyone orders more. Two kinds (./balance.ts):
//
// - below_reorder: a variation at or under its reorder point at one location (the stock levels'
//   status below_reorder, judged on usable stock as app/stock/levels.server.ts judges it) and above
//   its max at another: move the surplus above max, never more than the shortage up to max (par
//   where no max is set), counting what is already on its way there. Sealed vials soonest-expiring
//   first for serialized products; a base-unit quantity for bulk.
// - expiring: sealed vials that will expire before the location holding them can use them at its
//   rate of the last 90 days (its use in the ledger, ~/stock/usage-rate.server: the one rate
//   purchasing orders by), moved to the location of the organization that uses the variation fast
//   enough to use them (with what it already holds) before they expire.
//
// A vial on an open transfer (a request's or a draft's line, or pending on one in transit) is never
// suggested again, nor a vial of a recalled lot, nor one past its expiration date. A suggestion is
// shown where either end is in scope; the other end may be any active location of the organization.
// The `SUGGESTIONS_SHOWN` worth the most are answered.
//
// One batch of six statements, each led by an index (par levels are set by hand, so few; the vials
// are the shelf's sealed ones of the pairs or of the next 90 days; use is sought per location and
// variation over 90 days), then the pairing in memory, bounded by those rows.
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf, valueList } from "~/db/sql.server";
import { usableVial } from "~/stock/usable.server";
import { unitsUsedSql, usedAnyOfSql } from "~/stock/usage-rate.server";
import { utcDay } from "~/ui/dates";
import type { BalancingSuggestion, SuggestedLine } from "./balance";

/** Suggestions answered at most: the ones worth the most at cost. */
export const SUGGESTIONS_SHOWN = 20;
/** The window of the usage rate, and how far ahead an expiring lot is looked for. */
export const USAGE_WINDOW_DAYS = 90;

const DAY = 24 * 60 * 60 * 1000;
const OPEN_TRANSFER = sql`('requested', 'draft', 'in_transit')`;

/** Sealed, not past its expiration date, not of a recalled lot, not on an open transfer (alias i). */
function available(today: string): SQL {
  return sql`i.state = 'sealed' AND i.expiration_date >= ${today}
    AND NOT EXISTS (SELECT 1 FROM lot_recalls AS r
      WHERE r.variation_id = i.variation_id AND r.lot = i.lot AND r.lifted_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM transfer_lines AS tl JOIN transfers AS t ON t.id = tl.transfer_id
      WHERE tl.item_id = i.id AND tl.status = 'pending' AND t.status IN ${OPEN_TRANSFER})`;
}

/** The organization's active locations (alias-free subquery). */
function orgLocations(actor: Actor): SQL {
  return sql`(SELECT ol.id FROM locations AS ol WHERE ol.organization_id = ${organizationOf(actor)} AND ol.active = 1)`;
}

/**
 * Base units on pending lines of open transfers per location and variation: coming to it (requests,
 * drafts and transfers in transit to it) and leaving it (requests and drafts it is to fill). Led by
 * each location's open transfers (transfers_from_status_idx), their lines by transfer_lines_transfer_idx.
 */
function openLines(actor: Actor): SQL {
  return sql`open_lines AS (
      SELECT t.from_location_id AS fromId, t.to_location_id AS toId, t.status AS status,
        tl.variation_id AS variationId, tl.quantity AS quantity
      FROM transfers AS t JOIN transfer_lines AS tl ON tl.transfer_id = t.id
      WHERE t.from_location_id IN ${orgLocations(actor)} AND t.status IN ${OPEN_TRANSFER} AND tl.status = 'pending'),
    incoming AS (SELECT toId AS locationId, variationId, sum(quantity) AS units FROM open_lines GROUP BY toId, variationId),
    outgoing AS (SELECT fromId AS locationId, variationId, sum(quantity) AS units FROM open_lines
      WHERE status <> 'in_transit' GROUP BY fromId, variationId)`;
}

/**
 * Each par level of the organization's active locations with its usable stock (on hand less the
 * units of its vials past their deadline or of a recalled lot, as reorder suggestions count it), and the units on open
 * transfers to and from it; only those at or under their reorder point, or above their max.
 */
function parLevels(actor: Actor, scope: SQL, now: Date): SQL {
  const unusable = sql`(SELECT coalesce(sum(i.units_remaining), 0) FROM items AS i
    WHERE i.variation_id = pl.variation_id AND i.location_id = pl.location_id AND i.state IN ('sealed', 'in_use')
      AND NOT ${usableVial("i", now)})`;
  return sql`levels AS MATERIALIZED (
      SELECT pl.location_id AS locationId, pl.variation_id AS variationId, pl.par AS par,
        pl.reorder_point AS reorderPoint, pl.max AS max, v.units_per_package AS upp,
        v.name AS variationName, p.name AS productName, p.tracking AS tracking, coalesce(v.cost_cents, 0) AS costCents,
        p.base_unit AS baseUnit, p.unit_scale AS unitScale,
        coalesce(s.on_hand, 0) - ${unusable} AS usable,
        coalesce(inc.units, 0) AS incoming, coalesce(outg.units, 0) AS outgoing
      FROM par_levels AS pl
      JOIN locations AS l ON l.id = pl.location_id
      JOIN product_variations AS v ON v.id = pl.variation_id
      JOIN products AS p ON p.id = v.product_id
      LEFT JOIN stock_levels AS s ON s.location_id = pl.location_id AND s.variation_id = pl.variation_id
      LEFT JOIN incoming AS inc ON inc.locationId = pl.location_id AND inc.variationId = pl.variation_id
      LEFT JOIN outgoing AS outg ON outg.locationId = pl.location_id AND outg.variationId = pl.variation_id
      WHERE l.organization_id = ${organizationOf(actor)} AND l.active = 1 AND p.active = 1 AND v.active = 1
        -- A pair is shown where one end is in scope: its levels, and others' of the variations it has one of.
        AND (pl.location_id IN ${scope} OR EXISTS (SELECT 1 FROM par_levels AS mine
          WHERE mine.variation_id = pl.variation_id AND mine.location_id IN ${scope}))),
    judged AS MATERIALIZED (SELECT * FROM levels
      WHERE (par > 0 AND usable <= reorderPoint * upp) OR (max IS NOT NULL AND usable - outgoing > max * upp))`;
}

interface LocationRow {
  id: string;
  name: string;
}
/** What a suggestion names of a variation (carried on the par level and vial rows). */
interface VariationRow {
  variationId: string;
  variationName: string;
  productName: string;
  tracking: "serialized" | "bulk";
  upp: number;
  costCents: number;
  baseUnit: string;
  unitScale: number;
}
interface LevelRow extends VariationRow {
  locationId: string;
  par: number;
  reorderPoint: number;
  max: number | null;
  upp: number;
  usable: number;
  incoming: number;
  outgoing: number;
}
interface VialRow extends VariationRow {
  id: string;
  locationId: string;
  lot: string;
  expirationDate: string;
  units: number;
  /** The vial's own cost as received, else its variation's. */
  vialCents: number;
  /** (b) Units of the available sealed vials on its shelf that expire before it or with it, its own included. */
  ahead?: number;
}
interface UsageRow {
  locationId: string;
  variationId: string;
  used: number;
}
interface HoldingRow {
  locationId: string;
  variationId: string;
  onHand: number;
  incoming: number;
}

/** The statements of the suggestions, for the caller's batch; `suggestionsOf` reads their results. */
export function balancingQueries(db: Database, actor: Actor, locationIds: readonly string[], now: Date) {
  const scope = sql`(${locationIds.length ? valueList(locationIds) : sql`NULL`})`;
  const today = utcDay(now);
  const horizon = utcDay(new Date(now.getTime() + USAGE_WINDOW_DAYS * DAY));
  const since = now.getTime() - USAGE_WINDOW_DAYS * DAY;
  const vialColumns = sql`i.id AS id, i.location_id AS locationId, i.variation_id AS variationId, i.lot AS lot,
    i.expiration_date AS expirationDate, i.units_remaining AS units,
    coalesce(i.cost_cents, v.cost_cents, 0) AS vialCents, v.name AS variationName, p.name AS productName,
    p.tracking AS tracking, v.units_per_package AS upp, coalesce(v.cost_cents, 0) AS costCents,
    p.base_unit AS baseUnit, p.unit_scale AS unitScale`;
  const vialJson = sql`json_object('id', id, 'locationId', locationId, 'variationId', variationId, 'lot', lot,
    'expirationDate', expirationDate, 'units', units, 'vialCents', vialCents, 'costCents', costCents, 'variationName', variationName,
    'productName', productName, 'tracking', tracking, 'upp', upp, 'baseUnit', baseUnit, 'unitScale', unitScale, 'ahead', ahead)`;
  return [
    db.all<LocationRow>(
      sql`SELECT l.id AS id, l.name AS name FROM locations AS l
        WHERE l.organization_id = ${organizationOf(actor)} AND l.active = 1`,
    ),
    // (a) in one statement: the par levels judged (each level's usable stock summed once), and the
    // available sealed vials of those above their max. One row of two JSON arrays.
    db.all<{ levels: string; vials: string }>(sql`WITH ${openLines(actor)}, ${parLevels(actor, scope, now)},
      spare AS MATERIALIZED (SELECT ${vialColumns}
        FROM judged AS j CROSS JOIN items AS i INDEXED BY items_variation_location_state_idx
          ON i.variation_id = j.variationId AND i.location_id = j.locationId
        JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
        WHERE j.max IS NOT NULL AND j.usable - j.outgoing > j.max * j.upp AND ${available(today)}),
      spare_vials AS (SELECT *, NULL AS ahead FROM spare)
      SELECT (SELECT json_group_array(json_object('locationId', locationId, 'variationId', variationId, 'par', par,
            'reorderPoint', reorderPoint, 'max', max, 'upp', upp, 'variationName', variationName,
            'productName', productName, 'tracking', tracking, 'costCents', costCents, 'baseUnit', baseUnit,
            'unitScale', unitScale, 'usable', usable, 'incoming', incoming, 'outgoing', outgoing)) FROM judged) AS levels,
        (SELECT json_group_array(${vialJson}) FROM spare_vials) AS vials`),
    // (b) in one statement: the available sealed vials of the next 90 days at the organization's
    // locations (each location's sealed shelf in expiry order, items_location_state_order_idx, a
    // range of it) with the units ahead of each on its shelf; the units of those variations used at
    // every location of the organization over 90 days (one seek a location and variation in the
    // ledger, ~/stock/usage-rate.server); the vials at risk (the units ahead of them outlast their days at their
    // location's rate, and another location draws faster); and what each location holds of those
    // variations and has on its way (stock_levels_variation_idx). One row of three JSON arrays, only
    // of the vials at risk: the shelf never crosses the wire.
    db.all<{ vials: string; usage: string; holding: string }>(sql`WITH ${openLines(actor)},
      places AS MATERIALIZED ${orgLocations(actor)},
      candidates AS MATERIALIZED (SELECT ${vialColumns},
          sum(i.units_remaining) OVER (PARTITION BY i.location_id, i.variation_id
            ORDER BY i.expiration_date, i.id) AS ahead
        FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
        WHERE i.location_id IN places AND i.state = 'sealed'
          AND (CASE WHEN i.expiration_date IS NULL THEN 'undated' ELSE i.expiration_date END) BETWEEN ${today} AND ${horizon}
          AND ${available(today)}
          -- Shown only where one end is in scope: held here, or of a variation drawn here lately
          -- (what holds for one vial of a shelf holds for all of it, so each shelf stays whole).
          AND (i.location_id IN ${scope} OR ${usedAnyOfSql(scope, sql`i.variation_id`, since)})),
      variations AS MATERIALIZED (SELECT DISTINCT variationId FROM candidates),
      used AS MATERIALIZED (SELECT * FROM (SELECT pl.id AS locationId, x.variationId AS variationId,
          ${unitsUsedSql(sql`pl.id`, sql`x.variationId`, since)} AS used
        FROM variations AS x CROSS JOIN places AS pl) WHERE used > 0),
      at_risk AS MATERIALIZED (SELECT c.* FROM candidates AS c
        LEFT JOIN used AS here ON here.locationId = c.locationId AND here.variationId = c.variationId
        WHERE c.ahead > coalesce(here.used, 0) * 1.0 * ((CAST(strftime('%s', c.expirationDate) AS INTEGER) + 86400) * 1000
            - ${now.getTime()}) / ${USAGE_WINDOW_DAYS * DAY * 1.0}
          AND EXISTS (SELECT 1 FROM used AS there WHERE there.variationId = c.variationId
            AND there.locationId <> c.locationId AND there.used > coalesce(here.used, 0))),
      risky AS MATERIALIZED (SELECT DISTINCT variationId FROM at_risk)
      SELECT (SELECT json_group_array(${vialJson}) FROM at_risk) AS vials,
        (SELECT json_group_array(json_object('locationId', locationId, 'variationId', variationId, 'used', used))
          FROM used WHERE variationId IN risky) AS usage,
        (SELECT json_group_array(json_object('locationId', s.location_id, 'variationId', s.variation_id,
            'onHand', s.on_hand, 'incoming', coalesce(inc.units, 0)))
          FROM risky AS x CROSS JOIN stock_levels AS s INDEXED BY stock_levels_variation_idx
            ON s.variation_id = x.variationId
          LEFT JOIN incoming AS inc ON inc.locationId = s.location_id AND inc.variationId = s.variation_id
          WHERE s.location_id IN places) AS holding`),
  ] as const;
}

type Results = [
  LocationRow[],
  { levels: string; vials: string }[],
  { vials: string; usage: string; holding: string }[],
];

/** Soonest expiry first, then by id: the order vials are chosen in. */
const soonestFirst = (a: VialRow, b: VialRow) =>
  a.expirationDate.localeCompare(b.expirationDate) || a.id.localeCompare(b.id);

interface Candidate extends BalancingSuggestion {
  valueCents: number;
}

/** A quantity of packages as a person says it: whole, or to one decimal. */
function packages(units: number, upp: number): string {
  const n = units / upp;
  return Number.isInteger(n) ? n.toLocaleString("en-US") : (Math.round(n * 10) / 10).toLocaleString("en-US");
}
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The suggestions from the results of `balancingQueries`, for the locations in scope. */
export function suggestionsOf(
  results: readonly unknown[],
  locationIds: readonly string[],
  now: Date,
  limit = SUGGESTIONS_SHOWN,
): BalancingSuggestion[] {
  const [locationRows, [judged], [expiring]] = results as Results;
  const parse = <T>(text: string | undefined): T[] => (text ? (JSON.parse(text) as T[]) : []);
  const levelRows = parse<LevelRow>(judged?.levels);
  const surplusVials = parse<VialRow>(judged?.vials);
  const expiringVials = parse<VialRow>(expiring?.vials).sort(soonestFirst);
  const usageRows = parse<UsageRow>(expiring?.usage);
  const holdingRows = parse<HoldingRow>(expiring?.holding);
  const variationRows: VariationRow[] = [...levelRows, ...surplusVials, ...expiringVials];
  const scope = new Set(locationIds);
  const names = new Map(locationRows.map((l) => [l.id, l.name]));
  const variations = new Map(variationRows.map((v) => [v.variationId, v]));
  const taken = new Set<string>();
  const out: Candidate[] = [];
  const shown = (from: string, to: string) => names.has(from) && names.has(to) && (scope.has(from) || scope.has(to));
  const base = (from: string, to: string, v: VariationRow) => ({
    fromLocationId: from,
    fromLocationName: names.get(from) ?? "",
    toLocationId: to,
    toLocationName: names.get(to) ?? "",
    productName: v.productName,
    variationId: v.variationId,
    variationName: v.variationName,
  });

  // (a) Short at one location, above its max at another.
  const n = (x: unknown) => Number(x ?? 0);
  const levels = levelRows.map((r) => ({
    ...r,
    upp: n(r.upp),
    usable: n(r.usable),
    incoming: n(r.incoming),
    outgoing: n(r.outgoing),
    reorderPoint: n(r.reorderPoint),
    par: n(r.par),
    max: r.max === null ? null : n(r.max),
  }));
  const vialsAt = new Map<string, VialRow[]>();
  for (const vial of surplusVials) {
    const key = `${vial.locationId}|${vial.variationId}`;
    const list = vialsAt.get(key);
    if (list) list.push(vial);
    else vialsAt.set(key, [vial]);
  }
  for (const list of vialsAt.values()) list.sort(soonestFirst);
  const surplusLeft = new Map<string, number>();
  const over = levels.filter((l) => l.max !== null && l.usable - l.outgoing > l.max * l.upp);
  for (const l of over)
    surplusLeft.set(`${l.locationId}|${l.variationId}`, l.usable - l.outgoing - (l.max ?? 0) * l.upp);
  const short = levels
    .filter((l) => l.par > 0 && l.usable <= l.reorderPoint * l.upp)
    .map((l) => ({ ...l, need: (l.max ?? l.par) * l.upp - l.usable - l.incoming }))
    .filter((l) => l.need > 0)
    .sort((a, b) => b.need / b.upp - a.need / a.upp);
  for (const s of short) {
    const v = variations.get(s.variationId);
    if (!v) continue;
    const sources = over
      .filter(
        (o) => o.variationId === s.variationId && o.locationId !== s.locationId && shown(o.locationId, s.locationId),
      )
      .sort(
        (a, b) =>
          (surplusLeft.get(`${b.locationId}|${b.variationId}`) ?? 0) -
          (surplusLeft.get(`${a.locationId}|${a.variationId}`) ?? 0),
      );
    let need = s.need;
    for (const o of sources) {
      if (need <= 0) break;
      const key = `${o.locationId}|${o.variationId}`;
      const surplus = surplusLeft.get(key) ?? 0;
      if (surplus <= 0) continue;
      let lines: SuggestedLine[];
      let moved: number;
      let valueCents: number;
      let what: string;
      if (v.tracking === "serialized") {
        const free = (vialsAt.get(key) ?? []).filter((vial) => !taken.has(vial.id));
        const count = Math.min(free.length, Math.floor(surplus / o.upp), Math.max(1, Math.floor(need / o.upp)));
        if (count <= 0) continue;
        const chosen = free.slice(0, count);
        for (const vial of chosen) taken.add(vial.id);
        lines = chosen.map((vial) => ({ itemId: vial.id }));
        moved = chosen.reduce((sum, vial) => sum + n(vial.units), 0);
        valueCents = chosen.reduce((sum, vial) => sum + n(vial.vialCents), 0);
        what = String(count);
      } else {
        moved = Math.min(surplus, need);
        if (moved <= 0) continue;
        lines = [{ variationId: v.variationId, quantity: moved }];
        valueCents = Math.round((moved * n(v.costCents)) / o.upp);
        what = formatQuantity(moved, n(v.unitScale) as UnitScale, v.baseUnit);
      }
      surplusLeft.set(key, surplus - moved);
      need -= moved;
      const to = names.get(s.locationId);
      const from = names.get(o.locationId);
      const point = s.usable < s.reorderPoint * s.upp ? "below" : "at";
      out.push({
        kind: "below_reorder",
        ...base(o.locationId, s.locationId, v),
        lines,
        why: `${to} is at ${packages(s.usable, s.upp)}, ${point} its reorder point of ${s.reorderPoint}; ${from} has ${packages(o.usable, o.upp)}, above its max of ${o.max}: move ${what}`,
        valueCents,
      });
    }
  }

  // (b) Vials that expire before their location can use them, to a location that uses them faster.
  const used = new Map(usageRows.map((u) => [`${u.locationId}|${u.variationId}`, n(u.used)]));
  const load = new Map(holdingRows.map((h) => [`${h.locationId}|${h.variationId}`, n(h.onHand) + n(h.incoming)]));
  const shelves = new Map<string, VialRow[]>();
  for (const vial of expiringVials) {
    const key = `${vial.locationId}|${vial.variationId}`;
    const list = shelves.get(key);
    if (list) list.push(vial);
    else shelves.set(key, [vial]);
  }
  const daysLeft = (date: string) => (Date.parse(`${date}T23:59:59.999Z`) - now.getTime()) / DAY;
  const locations = [...names.keys()];
  for (const [key, shelf] of shelves) {
    const [holder, variationId] = key.split("|") as [string, string];
    const v = variations.get(variationId);
    if (!v) continue;
    const upp = n(v.upp);
    const rate = (used.get(key) ?? 0) / USAGE_WINDOW_DAYS;
    // A vial is at risk when the units ahead of it on its shelf and its own outlast its days at this rate.
    const atRisk = new Map<string, VialRow[]>();
    for (const vial of shelf) {
      if (taken.has(vial.id) || n(vial.ahead) <= rate * daysLeft(vial.expirationDate)) continue;
      const lot = `${vial.lot}|${vial.expirationDate}`;
      const list = atRisk.get(lot);
      if (list) list.push(vial);
      else atRisk.set(lot, [vial]);
    }
    for (const vials of atRisk.values()) {
      const first = vials[0] as VialRow;
      const days = daysLeft(first.expirationDate);
      // The location that can use the most of them before they expire, with what it holds already.
      let best: { id: string; count: number; rate: number } | null = null;
      for (const other of locations) {
        if (other === holder || !shown(holder, other)) continue;
        const otherKey = `${other}|${variationId}`;
        const otherRate = (used.get(otherKey) ?? 0) / USAGE_WINDOW_DAYS;
        if (otherRate <= rate) continue;
        const room = otherRate * days - (load.get(otherKey) ?? 0);
        const count = Math.min(vials.length, Math.floor(room / upp));
        if (count >= 1 && (!best || count > best.count || (count === best.count && otherRate > best.rate)))
          best = { id: other, count, rate: otherRate };
      }
      if (!best) continue;
      const chosen = vials.slice(0, best.count);
      for (const vial of chosen) taken.add(vial.id);
      const units = chosen.reduce((sum, vial) => sum + n(vial.units), 0);
      const destination = `${best.id}|${variationId}`;
      load.set(destination, (load.get(destination) ?? 0) + units);
      const perMonth = packages(best.rate * 30, upp);
      const some = chosen.length === vials.length ? "" : ` (of ${vials.length})`;
      const these = chosen.length === 1 ? `this one${some} expires` : `these ${chosen.length}${some} expire`;
      out.push({
        kind: "expiring",
        ...base(holder, best.id, v),
        lines: chosen.map((vial) => ({ itemId: vial.id })),
        why: `${names.get(best.id)} uses ${perMonth} ${perMonth === "1" ? "vial" : "vials"} a month; ${these} in ${plural(Math.max(0, Math.floor(days)), "day", "days")} at ${names.get(holder)}, which used ${packages(used.get(key) ?? 0, upp)} in ${USAGE_WINDOW_DAYS} days`,
        valueCents: chosen.reduce((sum, vial) => sum + n(vial.vialCents), 0),
      });
    }
  }

  return out
    .sort((a, b) => b.valueCents - a.valueCents)
    .slice(0, limit)
    .map(({ valueCents: _value, ...suggestion }) => suggestion);
}

/**
 * The balancing suggestions for the locations in scope of a reader of transfers (`locationIds`; in
 * organization mode every location): one round trip.
 */
export async function balancingSuggestions(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  now = new Date(),
  limit = SUGGESTIONS_SHOWN,
): Promise<BalancingSuggestion[]> {
  if (locationIds.length === 0) return [];
  const results = await db.batch(balancingQueries(db, actor, locationIds, now) as never);
  return suggestionsOf(results as unknown[], locationIds, now, limit);
}
