// What a count says against the ledger (ADR 0031), read in one batch: each vial counted with what
// the system expected of it as of its line's ledger position (units now minus its movements since),
// the bulk variations (the sum of their shelves' lines against on hand now minus the movements at
// the location since the newest line), the vials expected and not counted (missing), the vials
// found, the value of each difference at cost (as the dashboard values stock), and the movements
// made at the location while it was being counted (after its first line: what moved before any
// line is in every line's expectation), newest first, walked back along the ledger from its top.
// The approval (./approve.server) books exactly
// what this reads, so the review and the booking cannot disagree.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { IN_SCOPE, type SessionRow, sessionQuery, sessionReached } from "./session.server";

/** Base units at cost: cost of a package × units / units a package holds (the dashboard's VIAL_VALUE). */
export function atCost(units: number, costCents: number, unitsPerPackage: number): number {
  return unitsPerPackage > 0 ? Math.round((costCents * units) / unitsPerPackage) : 0;
}

interface Units {
  unitScale: UnitScale;
  baseUnit: string;
}

export interface VialLine extends Units {
  lineId: string;
  itemId: string;
  labelCode: string;
  product: string;
  variation: string;
  variationId: string;
  lot: string | null;
  counted: number;
  found: boolean;
  position: number;
  countedAt: number;
  countedById: string | null;
  countedBy: string | null;
  /** The vial as the system has it now. */
  state: string;
  startedAt: number | null;
  itemLocationId: string;
  itemLocationCode: string;
  unitsNow: number;
  /** Its movements after the line's position. */
  after: number;
  costCents: number;
  unitsPerPackage: number;
  /** What the system expected in the vial when it was counted (units now minus movements since). */
  expected: number;
  /** What the vial holds once the count is booked: what was counted, moved on by what happened since. */
  final: number;
  /** Counted − expected, in base units (for a found vial: its units, gained here). */
  variance: number;
  valueCents: number;
  /** Ended, sent or moved since it was counted (not found then): nothing to book. */
  movedOn: boolean;
  /**
   * Found, but emptied or discarded in the system: a finished vial never changes again (the
   * items_ended_frozen trigger), so the approval books nothing for it; the reviewer sees it.
   */
  finished: boolean;
  /**
   * Found, but on the road in the system (in transit on a transfer): it arrives through its
   * transfer's receipt, so the approval books nothing for it either (ADR 0031); the reviewer sees it.
   */
  onTheRoad: boolean;
}

export interface BulkLine {
  lineId: string;
  lot: string | null;
  quantity: number;
  countedAt: number;
  countedById: string | null;
  countedBy: string | null;
}

export interface BulkRow extends Units {
  variationId: string;
  product: string;
  variation: string;
  lines: BulkLine[];
  counted: number;
  position: number;
  onHandNow: number;
  after: number;
  expected: number;
  variance: number;
  costCents: number;
  unitsPerPackage: number;
  valueCents: number;
}

export interface MissingVial extends Units {
  itemId: string;
  labelCode: string;
  product: string;
  variation: string;
  variationId: string;
  lot: string | null;
  state: string;
  unitsNow: number;
  valueCents: number;
}

export interface NotCounted extends Units {
  variationId: string;
  product: string;
  variation: string;
  onHand: number;
}

export interface MovementDuring extends Units {
  id: string;
  occurredAt: number;
  type: string;
  reason: string | null;
  product: string;
  variation: string;
  labelCode: string | null;
  quantity: number;
  user: string | null;
}

export interface CountReport {
  /** Every vial line (read for a page: without what only the page shows, which vialPage has). */
  vials: VialLine[];
  /** Read for a page: its vial lines, what differs first, whole; else null. */
  vialPage: VialLine[] | null;
  bulk: BulkRow[];
  /** Every missing vial; a page of them when read for a page (totals.missingVials counts them all). */
  missing: MissingVial[];
  /** Every product and size not counted; the first of them when read for a page (totals.notCounted). */
  notCounted: NotCounted[];
  during: MovementDuring[];
  /** The ledger's top when read: the approval books only if nothing moved since. */
  ledgerTop: number;
  /** Of every line and vial, whether the lists hold them all or a page (ReportPage). */
  totals: {
    varianceCents: number;
    missingCents: number;
    missingVials: number;
    notCounted: number;
    foundCents: number;
    differences: number;
  };
}

/** Rows of movements during the count shown beside it. */
export const DURING_MAX = 200;

const n = (v: unknown) => Number(v ?? 0);

/**
 * SQL: the line `a` still counts (a vial's line always does). Once a count was sent back, counting a product and size
 * again replaces its earlier shelves (all of them: the recount counts every shelf of it); lines of
 * what was not counted again stay.
 */
export function current(sessionId: string | SQL) {
  const sentBack = sql`(SELECT coalesce(max(r.at), 0) FROM activity_log AS r WHERE r.entity = 'audit_session'
    AND r.entity_id = ${sessionId} AND r.action = 'reject_count')`;
  return sql`(a.counted_at > ${sentBack} OR NOT EXISTS (SELECT 1 FROM audit_lines AS again
    WHERE again.session_id = a.session_id AND again.variation_id = a.variation_id AND again.item_id IS NULL
      AND again.counted_at > ${sentBack}))`;
}
const scaleOf = (r: Record<string, unknown>) => n(r.unitScale) as UnitScale;

/** SQL: what the vial line `a` of the session `s` moved since it was counted (its own booking aside). */
export const VIAL_AFTER = sql`(SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m
  INDEXED BY stock_movements_item_position_idx WHERE m.item_id = a.item_id AND m.rowid > a.ledger_position
    AND m.reference_id IS NOT s.id)`;

/**
 * SQL: what moved of the variation `variationId` at the session `s`'s location after `position`
 * (its own booking aside), sought by the pair and the ledger's rowid (stock_movements_pair_position_idx).
 */
export function pairAfter(variationId: SQL, position: SQL) {
  return sql`(SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m INDEXED BY stock_movements_pair_position_idx
    WHERE m.location_id = s.location_id AND m.variation_id = ${variationId} AND m.rowid > ${position}
      AND m.reference_id IS NOT s.id)`;
}

/** SQL: on hand now of the variation `variationId` at the session `s`'s location. */
export function onHandHere(variationId: SQL) {
  return sql`coalesce((SELECT sl.on_hand FROM stock_levels AS sl WHERE sl.location_id = s.location_id
    AND sl.variation_id = ${variationId}), 0)`;
}

const name = (column: string) =>
  sql.raw(`(SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = ${column})`);

/**
 * What the review page shows of the long lists: a page of the vials counted (what differs first:
 * every line is still read for the totals, without what only the page shows), a page of the
 * missing vials, the first products not counted.
 */
export interface ReportPage {
  vialOffset: number;
  vialLimit: number;
  missingOffset: number;
  missingLimit: number;
  notCountedLimit: number;
}

/**
 * The statements of the report of the session `sessionId` where `reached` (SQL on the session
 * aliased `s`) holds, for a batch: each reads the session by its key, so the page that shows the
 * report reads the session and its report in one round trip. Shaped by reportOf.
 */
export function reportQueries(db: Database, sessionId: string, reached: SQL, page?: ReportPage) {
  const session = sql`s.id = ${sessionId} AND ${reached}`;
  // What this count's approval booked (nothing before it is approved: not sought then).
  const booked = (on: SQL) => sql`CASE WHEN s.status = 'approved' THEN (SELECT coalesce(sum(m.quantity), 0)
    FROM stock_movements AS m INDEXED BY stock_movements_reference_idx WHERE m.reference_type = 'audit'
      AND m.reference_id = s.id AND ${on}) ELSE 0 END`;
  // The vials missing: while open or submitted, those on the shelf here now, in scope, with no
  // line; once approved, those its approval discarded as missing (ended at the moment it was
  // approved), with the units they had. Listed (a page of them, for the review page) and summed. Led
  // from the shelf here, whatever the scope (a category's variations sought one by one cost more).
  const missingColumns = sql`i.id AS itemId, i.label_code AS labelCode, p.name AS product,
        v.name AS variation, v.id AS variationId, i.lot, i.state, i.units_remaining AS unitsNow,
        coalesce(i.cost_cents, v.cost_cents, 0) AS costCents, v.units_per_package AS unitsPerPackage,
        p.unit_scale AS unitScale, p.base_unit AS baseUnit`;
  const notLined = sql`NOT EXISTS (SELECT 1 FROM audit_lines AS a WHERE a.session_id = s.id AND a.item_id = i.id)`;
  const missing = sql`(SELECT ${missingColumns}
      FROM audit_sessions AS s JOIN items AS i ON i.location_id = s.location_id AND i.state IN ('sealed', 'in_use')
        JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${session} AND s.status <> 'approved' AND ${IN_SCOPE} AND ${notLined}
    UNION ALL SELECT i.id AS itemId, i.label_code AS labelCode, p.name AS product,
        v.name AS variation, v.id AS variationId, i.lot, i.state,
        -(SELECT coalesce(sum(m.quantity), 0) FROM stock_movements AS m WHERE m.item_id = i.id
          AND m.reference_type = 'audit' AND m.reference_id = s.id) AS unitsNow,
        coalesce(i.cost_cents, v.cost_cents, 0) AS costCents, v.units_per_package AS unitsPerPackage,
        p.unit_scale AS unitScale, p.base_unit AS baseUnit
      FROM audit_sessions AS s JOIN items AS i ON i.location_id = s.location_id AND i.state = 'discarded'
        JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${session} AND s.status = 'approved' AND i.discard_reason = 'missing_in_count'
        AND i.ended_at = s.reviewed_at)`;
  // The bulk products and sizes in scope with stock here and no line (left as they are).
  // They are found from the side that has less of them: for everything, the
  // location's levels; for a category or chosen products, those bulk products' variations, each
  // sought at the location (6,000 levels at a busy location, a category's bulk sizes a few hundred).
  const inScopeHere = (select: (scoped: SQL, everything: boolean) => SQL) =>
    sql.join(
      [
        select(sql`s.scope = 'all'`, true),
        select(
          sql`s.scope = 'category' AND p.id IN (SELECT c.id FROM products AS c INDEXED BY products_org_category_idx
          WHERE c.organization_id = (SELECT l.organization_id FROM locations AS l WHERE l.id = s.location_id)
            AND c.category = s.scope_category)`,
          false,
        ),
        select(sql`s.scope = 'products' AND p.id IN (SELECT value FROM json_each(s.scope_product_ids))`, false),
      ],
      sql` UNION ALL `,
    );
  const notCountedColumns = sql`v.id AS variationId, p.name AS product, v.name AS variation,
        sl.on_hand AS onHand, p.unit_scale AS unitScale, p.base_unit AS baseUnit`;
  const notCounted = sql`(${inScopeHere((scoped, everything) =>
    everything
      ? sql`SELECT ${notCountedColumns}
      FROM audit_sessions AS s JOIN stock_levels AS sl ON sl.location_id = s.location_id AND sl.on_hand > 0
        JOIN product_variations AS v ON v.id = sl.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${session} AND s.status <> 'approved' AND p.tracking = 'bulk' AND ${scoped}
        AND NOT EXISTS (SELECT 1 FROM audit_lines AS a WHERE a.session_id = s.id AND a.variation_id = v.id)`
      : sql`SELECT ${notCountedColumns}
      FROM audit_sessions AS s CROSS JOIN products AS p CROSS JOIN product_variations AS v ON v.product_id = p.id
        CROSS JOIN stock_levels AS sl ON sl.location_id = s.location_id AND sl.variation_id = v.id AND sl.on_hand > 0
      WHERE ${session} AND s.status <> 'approved' AND p.tracking = 'bulk' AND ${scoped}
        AND NOT EXISTS (SELECT 1 FROM audit_lines AS a WHERE a.session_id = s.id AND a.variation_id = v.id)`,
  )})`;
  return [
    // Every vial line with what its expectation and value need (with a page, only those).
    db.all<Record<string, unknown>>(sql`SELECT a.id AS lineId, a.item_id AS itemId, v.id AS variationId, i.lot,
        a.quantity AS counted, a.found, a.ledger_position AS position, a.counted_at AS countedAt,
        a.counted_by AS countedById, i.state, i.started_at AS startedAt, i.location_id AS itemLocationId,
        i.units_remaining AS unitsNow, ${VIAL_AFTER} AS after, ${booked(sql`m.item_id = a.item_id`)} AS booked,
        coalesce(i.cost_cents, v.cost_cents, 0) AS costCents, v.units_per_package AS unitsPerPackage
        ${page ? sql`` : sql`, ${vialShown}`}
      FROM audit_sessions AS s JOIN audit_lines AS a ON a.session_id = s.id JOIN items AS i ON i.id = a.item_id
        JOIN product_variations AS v ON v.id = i.variation_id ${page ? sql`` : vialShownFrom}
      WHERE ${session} AND a.item_id IS NOT NULL
      ORDER BY a.counted_at, a.id`),
    db.all<Record<string, unknown>>(sql`SELECT a.id AS lineId, a.variation_id AS variationId, a.lot,
        a.quantity, a.counted_at AS countedAt, a.counted_by AS countedById, ${name("a.counted_by")} AS countedBy
      FROM audit_sessions AS s JOIN audit_lines AS a ON a.session_id = s.id
      WHERE ${session} AND a.item_id IS NULL AND ${current(sessionId)}
      ORDER BY a.counted_at, a.id`),
    db.all<Record<string, unknown>>(sql`SELECT g.variationId, g.counted, g.position, p.name AS product,
        v.name AS variation, coalesce(v.cost_cents, 0) AS costCents, v.units_per_package AS unitsPerPackage,
        p.unit_scale AS unitScale, p.base_unit AS baseUnit, ${onHandHere(sql`g.variationId`)} AS onHandNow,
        ${pairAfter(sql`g.variationId`, sql`g.position`)} AS after,
        ${booked(sql`m.location_id = s.location_id AND m.variation_id = g.variationId`)} AS booked
      FROM audit_sessions AS s CROSS JOIN (SELECT a.variation_id AS variationId, sum(a.quantity) AS counted,
          max(a.ledger_position) AS position
        FROM audit_lines AS a WHERE a.session_id = ${sessionId} AND a.item_id IS NULL AND ${current(sessionId)}
        GROUP BY a.variation_id) AS g
        JOIN product_variations AS v ON v.id = g.variationId JOIN products AS p ON p.id = v.product_id
      WHERE ${session}
      ORDER BY lower(p.name), lower(v.name), v.id`),
    // Each list with its count (and the missing vials' value) over all its rows, in the same pass.
    db.all<Record<string, unknown>>(sql`SELECT *, count(*) OVER () AS listed,
        sum(CAST(round(costCents * unitsNow * 1.0 / unitsPerPackage) AS INTEGER)) OVER () AS listedCents
      FROM ${missing} ORDER BY lower(product), lower(variation), labelCode
      ${page ? sql`LIMIT ${page.missingLimit} OFFSET ${page.missingOffset}` : sql``}`),
    db.all<Record<string, unknown>>(sql`SELECT *, count(*) OVER () AS listed
      FROM ${notCounted} ORDER BY lower(product), lower(variation), variationId
      ${page ? sql`LIMIT ${page.notCountedLimit}` : sql``}`),
    // The movements at the location after the count's first line (until it was approved), newest
    // first, walked back along the ledger from its top.
    db.all<Record<string, unknown>>(sql`SELECT m.id, m.occurred_at AS occurredAt, m.type, m.reason, p.name AS product,
        v.name AS variation, i.label_code AS labelCode, m.quantity, ${name("m.user_id")} AS user,
        p.unit_scale AS unitScale, p.base_unit AS baseUnit
      FROM audit_sessions AS s CROSS JOIN stock_movements AS m JOIN product_variations AS v ON v.id = m.variation_id
        JOIN products AS p ON p.id = v.product_id LEFT JOIN items AS i ON i.id = m.item_id
      WHERE ${session} AND m.rowid > (SELECT coalesce(min(a.ledger_position), ${Number.MAX_SAFE_INTEGER})
          FROM audit_lines AS a WHERE a.session_id = s.id)
        AND +m.location_id = s.location_id
        AND m.occurred_at <= (CASE WHEN s.status = 'approved' THEN s.reviewed_at ELSE ${Number.MAX_SAFE_INTEGER} END)
        AND m.reference_id IS NOT s.id
      ORDER BY m.rowid DESC LIMIT ${DURING_MAX}`),
    db.all<{ top: number }>(sql`SELECT coalesce(max(rowid), 0) AS top FROM stock_movements`),
    // With a page: what the page shows of its vials, what differs first (as reportOf judges it:
    // found, moved on since, or counted other than expected), then in the order they were counted.
    page
      ? db.all<Record<string, unknown>>(sql`SELECT a.id AS lineId, ${vialShown}
        FROM audit_sessions AS s JOIN audit_lines AS a ON a.session_id = s.id JOIN items AS i ON i.id = a.item_id
          JOIN product_variations AS v ON v.id = i.variation_id ${vialShownFrom}
        WHERE ${session} AND a.item_id IS NOT NULL
        ORDER BY (a.found OR NOT (i.location_id = s.location_id AND i.state IN ('sealed', 'in_use'))
            OR a.quantity <> i.units_remaining - ${booked(sql`m.item_id = a.item_id`)} - ${VIAL_AFTER}) DESC,
          a.counted_at, a.id
        LIMIT ${page.vialLimit} OFFSET ${page.vialOffset}`)
      : db.all<Record<string, unknown>>(sql`SELECT 1 WHERE 0`),
  ] as const;
}

/** What only the page shows of a vial line (its label, names, lot, who counted it, where the system has it). */
const vialShown = sql`i.label_code AS labelCode, p.name AS product, v.name AS variation,
  (SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = a.counted_by) AS countedBy,
  il.code AS itemLocationCode, p.unit_scale AS unitScale, p.base_unit AS baseUnit`;
const vialShownFrom = sql`JOIN locations AS il ON il.id = i.location_id JOIN products AS p ON p.id = v.product_id`;

/**
 * The count `id` if it is at a location `actor` reaches with `permission`, and its report (with
 * `page`, a page of its long lists), in one round trip (the review page, the API).
 */
export async function readSessionReport(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
  page?: ReportPage,
): Promise<{ session: SessionRow; report: CountReport } | null> {
  if (!id || id.length > 100) return null;
  const [sessions, ...rows] = await db.batch([
    sessionQuery(db, actor, permission, id),
    ...reportQueries(db, id, sessionReached(actor, permission), page),
  ]);
  const session = sessions[0];
  if (!session) return null;
  // A page past the end of the vials or of the missing vials: the first page of it instead (and,
  // for the missing vials, a row to count them on).
  const pastVials = page && page.vialOffset > 0 && (rows[7] as unknown[]).length === 0;
  const pastMissing = page && page.missingOffset > 0 && (rows[3] as unknown[]).length === 0;
  if (page && (pastVials || pastMissing))
    return readSessionReport(db, actor, permission, id, {
      ...page,
      vialOffset: pastVials ? 0 : page.vialOffset,
      missingOffset: pastMissing ? 0 : page.missingOffset,
    });
  return { session, report: reportOf(session, rows) };
}

/** The report of `session` (read alone: the approval, which reads the session first). */
export async function readReport(db: Database, session: SessionRow): Promise<CountReport> {
  return reportOf(session, await db.batch(reportQueries(db, session.id, sql`1`)));
}

/** The report from the rows of reportQueries, for the session they were read with. */
export function reportOf(session: SessionRow, rows: readonly unknown[]): CountReport {
  const here = session.locationId;
  const [vialRows, bulkLines, bulkRows, missingRows, notCountedRows, duringRows, top, vialPageRows] = rows as [
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
    Record<string, unknown>[],
    { top: number }[],
    Record<string, unknown>[],
  ];
  /** What only a page shows of a vial line, from the row that carries it. */
  const shownOf = (r: Record<string, unknown>) => ({
    labelCode: String(r.labelCode ?? ""),
    product: String(r.product ?? ""),
    variation: String(r.variation ?? ""),
    countedBy: (r.countedBy as string | null) ?? null,
    itemLocationCode: String(r.itemLocationCode ?? ""),
    unitScale: scaleOf(r),
    baseUnit: String(r.baseUnit ?? ""),
  });

  const vials: VialLine[] = vialRows.map((r) => {
    const counted = n(r.counted);
    const unitsNow = n(r.unitsNow);
    const after = n(r.after);
    // What this count's approval booked on the vial (none before it is approved).
    const booked = n(r.booked);
    const found = Boolean(n(r.found));
    const onShelfHere = r.itemLocationId === here && (r.state === "sealed" || r.state === "in_use");
    const movedOn = !found && !onShelfHere;
    const finished = r.state === "empty" || r.state === "discarded";
    const onTheRoad = r.state === "in_transit";
    const final = Math.max(0, counted + after);
    const expected = found ? 0 : unitsNow - booked - after;
    const variance = movedOn || (found && (finished || onTheRoad)) ? 0 : found ? counted : counted - expected;
    const costCents = n(r.costCents);
    const unitsPerPackage = n(r.unitsPerPackage);
    return {
      ...shownOf(r),
      lineId: String(r.lineId),
      itemId: String(r.itemId),
      variationId: String(r.variationId),
      lot: (r.lot as string | null) ?? null,
      counted,
      found,
      position: n(r.position),
      countedAt: n(r.countedAt),
      countedById: (r.countedById as string | null) ?? null,
      state: String(r.state),
      startedAt: r.startedAt === null ? null : n(r.startedAt),
      itemLocationId: String(r.itemLocationId),
      unitsNow,
      after,
      costCents,
      unitsPerPackage,
      expected,
      final,
      variance,
      valueCents: atCost(variance, costCents, unitsPerPackage),
      movedOn,
      finished: found && finished,
      onTheRoad: found && onTheRoad,
    };
  });
  const byLine = new Map(vials.map((v) => [v.lineId, v]));
  const vialPage = vialPageRows?.length
    ? vialPageRows.flatMap((r) => {
        const line = byLine.get(String(r.lineId));
        return line ? [{ ...line, ...shownOf(r) }] : [];
      })
    : null;
  const linesOf = new Map<string, BulkLine[]>();
  for (const r of bulkLines) {
    const list = linesOf.get(String(r.variationId)) ?? [];
    list.push({
      lineId: String(r.lineId),
      lot: (r.lot as string | null) ?? null,
      quantity: n(r.quantity),
      countedAt: n(r.countedAt),
      countedById: (r.countedById as string | null) ?? null,
      countedBy: (r.countedBy as string | null) ?? null,
    });
    linesOf.set(String(r.variationId), list);
  }
  const bulk: BulkRow[] = bulkRows.map((r) => {
    const counted = n(r.counted);
    const onHandNow = n(r.onHandNow);
    const after = n(r.after);
    const booked = n(r.booked);
    const expected = onHandNow - booked - after;
    // As of the count; never below what is on hand now can give (a level cannot go below zero).
    const variance = Math.max(counted - expected, -(onHandNow - booked));
    const costCents = n(r.costCents);
    const unitsPerPackage = n(r.unitsPerPackage);
    return {
      variationId: String(r.variationId),
      product: String(r.product),
      variation: String(r.variation),
      lines: linesOf.get(String(r.variationId)) ?? [],
      counted,
      position: n(r.position),
      onHandNow,
      after,
      expected,
      variance,
      costCents,
      unitsPerPackage,
      valueCents: atCost(variance, costCents, unitsPerPackage),
      unitScale: scaleOf(r),
      baseUnit: String(r.baseUnit),
    };
  });
  const missing: MissingVial[] = missingRows.map((r) => ({
    itemId: String(r.itemId),
    labelCode: String(r.labelCode),
    product: String(r.product),
    variation: String(r.variation),
    variationId: String(r.variationId),
    lot: (r.lot as string | null) ?? null,
    state: String(r.state),
    unitsNow: n(r.unitsNow),
    valueCents: atCost(n(r.unitsNow), n(r.costCents), n(r.unitsPerPackage)),
    unitScale: scaleOf(r),
    baseUnit: String(r.baseUnit),
  }));
  const notCounted: NotCounted[] = notCountedRows.map((r) => ({
    variationId: String(r.variationId),
    product: String(r.product),
    variation: String(r.variation),
    onHand: n(r.onHand),
    unitScale: scaleOf(r),
    baseUnit: String(r.baseUnit),
  }));
  const during: MovementDuring[] = duringRows.map((r) => ({
    id: String(r.id),
    occurredAt: n(r.occurredAt),
    type: String(r.type),
    reason: (r.reason as string | null) ?? null,
    product: String(r.product),
    variation: String(r.variation),
    labelCode: (r.labelCode as string | null) ?? null,
    quantity: n(r.quantity),
    user: (r.user as string | null) ?? null,
    unitScale: scaleOf(r),
    baseUnit: String(r.baseUnit),
  }));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const notFound = vials.filter((v) => !v.found);
  return {
    vials,
    vialPage,
    bulk,
    missing,
    notCounted,
    during,
    ledgerTop: n(top[0]?.top),
    totals: {
      varianceCents: sum(notFound.map((v) => v.valueCents)) + sum(bulk.map((b) => b.valueCents)),
      missingCents: n(missingRows[0]?.listedCents),
      missingVials: n(missingRows[0]?.listed),
      notCounted: n(notCountedRows[0]?.listed),
      foundCents: sum(vials.filter((v) => v.found).map((v) => v.valueCents)),
      differences:
        notFound.filter((v) => v.variance !== 0).length +
        bulk.filter((b) => b.variance !== 0).length +
        n(missingRows[0]?.listed) +
        vials.filter((v) => v.found).length,
    },
  };
}
