// The reconciliation's standard views worked out ahead by the jobs worker (ADR 0030's pattern):
// for every location and for each organization as a whole, the last 30 and the last 365 days up to
// today (in the location's zone; UTC for the organization), at the default threshold, in the
// screen's order. On the large data set a location's year is 115,000 movements and the chain's 1.1
// million: the live sums cost 0.3 s and 3.5 s, so the screen and the API read those views from
// the worked-out rows (a page of them by the primary key, with the names joined live) while they
// are recent, and say the instant they are true of. Any other question (other dates, another
// threshold), or no recent run, is summed live (./read.server), as are the drill-downs.
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { startOfDayIn } from "~/ui/dates";
import { RECONCILIATION_WORKED_OUT_DAYS } from "../../db/schema/jobs/reconciliation-worked-out";
import { addDays, DEFAULT_THRESHOLD, RECONCILIATION_PAGE_SIZE, todayIn } from "./query";
import {
  type ReconciliationRow,
  type ReconciliationTable,
  reconciliationPage,
  reconciliationRows,
  rowOf,
  rowsSql,
  type Scope,
  type SumsRow,
  tableOf,
} from "./read.server";

/** A place and period is worked out again when its rows are this old (or of another day). */
export const RECONCILIATION_REFRESH_MS = 10 * 60 * 1000;
/** How long worked-out rows stand in for the live sums (a stopped worker: the screen sums them itself). */
export const RECONCILIATION_STANDS_FOR_MS = 30 * 60 * 1000;
/** A run stops starting new places after this long, so it ends well inside a scheduled run's limits. */
const RUN_BUDGET_MS = 20_000;

/**
 * The last instant something changed what an organization's sales stand for: an import completed
 * (sales or recipes), a sold item mapped, a service's recipe edited. Worked-out rows older than it
 * do not stand (the page sums live) and are worked out again on the next run, so whoever has just
 * imported a file sees it at once; the ledger's own movements (a draw) wait for the next refresh.
 */
function salesChangedAtSql(organization: SQL | string): SQL {
  return sql`max(
    coalesce((SELECT max(finished_at) FROM import_jobs WHERE organization_id = ${organization}), 0),
    coalesce((SELECT max(mapped_at) FROM sale_items WHERE organization_id = ${organization}), 0),
    coalesce((SELECT max(updated_at) FROM services WHERE organization_id = ${organization}), 0))`;
}

/** Which worked-out set answers a scope's question, or null (summed live). */
function workedOutKey(scope: Scope, threshold: number, now: Date): { place: string; days: number } | null {
  if (threshold !== DEFAULT_THRESHOLD) return null;
  const { from, to } = scope.period;
  if (to !== todayIn(scope.timeZone, now)) return null;
  const days = RECONCILIATION_WORKED_OUT_DAYS.find((d) => addDays(to, 1 - d) === from);
  return days ? { place: scope.locationId ?? "all", days } : null;
}

const COLUMNS = sql`w.variation_id AS variationId, w.expected_services AS expectedServices,
  w.expected_retail AS expectedRetail, w.drawn, w.wasted, w.missing, w.adjusted_out AS adjustedOut,
  w.counted_out AS countedOut, w.sold, w.change, w.tracked, v.product_id AS productId, p.name AS product,
  v.name AS variation, p.base_unit AS baseUnit, p.unit_scale AS unitScale, v.units_per_package AS unitsPerPackage,
  v.cost_cents AS costCents`;

/** A page of rows: its number (from 1) and how many rows a page holds. */
interface RowsPage {
  page: number;
  size: number;
}

/** The statements of a worked-out view: its summary (rows, flagged, value, when), and a page of it (or all of it). */
function workedOutStatements(
  db: Database,
  scope: Scope,
  key: { place: string; days: number },
  page: RowsPage | null,
  now: Date,
) {
  const fresh = now.getTime() - RECONCILIATION_STANDS_FOR_MS;
  const set = sql`w.organization_id = ${scope.organization} AND w.place = ${key.place} AND w.days = ${key.days}`;
  const period = sql`w.period_from = ${scope.period.from} AND w.period_to = ${scope.period.to}
    AND w.computed_at >= ${fresh} AND w.computed_at <= ${now.getTime()}
    AND w.computed_at >= ${salesChangedAtSql(scope.organization)}`;
  const ranks =
    page === null ? sql`` : sql`AND w.rank > ${(page.page - 1) * page.size} AND w.rank <= ${page.page * page.size}`;
  return [
    // The set's summary, kept on each of its rows: its first row's, by the primary key.
    db.all<{ total: number; flaggedTotal: number; varianceCentsTotal: number; computedAt: number | null }>(sql`
      SELECT w.set_rows AS total, w.set_flagged AS flaggedTotal, w.set_variance_cents AS varianceCentsTotal,
        w.computed_at AS computedAt
      FROM reconciliation_worked_out AS w WHERE ${set} AND w.rank = 1 AND ${period}`),
    db.all<SumsRow>(sql`SELECT ${COLUMNS} FROM reconciliation_worked_out AS w
      JOIN product_variations AS v ON v.id = w.variation_id JOIN products AS p ON p.id = v.product_id
      WHERE ${set} AND ${period} ${ranks} ORDER BY w.rank`),
  ] as const;
}

export interface ReconciliationView extends ReconciliationTable {
  /** When the worked-out rows shown were true (null: summed live now). */
  computedAt: number | null;
}

/**
 * The screen's page: from the worked-out rows when they answer the question and are recent (one
 * batch), else summed live (one statement; a second round trip only when the worked-out view was
 * asked for and is missing: no run yet, or the worker stopped).
 */
export async function reconciliationView(
  db: Database,
  scope: Scope,
  threshold: number,
  page: number,
  now = new Date(),
): Promise<ReconciliationView> {
  const key = workedOutKey(scope, threshold, now);
  if (key) {
    const [summary, rows] = await db.batch(
      workedOutStatements(db, scope, key, { page, size: RECONCILIATION_PAGE_SIZE }, now),
    );
    const s = summary[0];
    if (s && Number(s.total) > 0 && s.computedAt !== null) {
      const table = tableOf(
        rows.map((r) => ({
          ...r,
          total: s.total,
          flaggedTotal: s.flaggedTotal,
          varianceCentsTotal: s.varianceCentsTotal,
        })),
        threshold,
        page,
      );
      return {
        ...table,
        total: Number(s.total),
        flagged: Number(s.flaggedTotal),
        varianceCents: Number(s.varianceCentsTotal),
        pages: Math.max(1, Math.ceil(Number(s.total) / RECONCILIATION_PAGE_SIZE)),
        computedAt: Number(s.computedAt),
      };
    }
  }
  return { ...(await reconciliationPage(db, scope, threshold, page)), computedAt: null };
}

/**
 * Every row (the CSV), or a page of `size` of them (the API), worked out when it may be, else live;
 * with how many rows there are in all and the instant they are true of.
 */
export async function reconciliationAllRows(
  db: Database,
  scope: Scope,
  threshold: number,
  now = new Date(),
  page: RowsPage | null = null,
): Promise<{ rows: ReconciliationRow[]; total: number; computedAt: number | null }> {
  const key = workedOutKey(scope, threshold, now);
  if (key) {
    const [summary, rows] = await db.batch(workedOutStatements(db, scope, key, page, now));
    const s = summary[0];
    if (s && Number(s.total) > 0 && s.computedAt !== null) {
      return { rows: rows.map((r) => rowOf(r, threshold)), total: Number(s.total), computedAt: Number(s.computedAt) };
    }
  }
  const all = await reconciliationRows(db, scope, threshold);
  const rows = page ? all.slice((page.page - 1) * page.size, page.page * page.size) : all;
  return { rows, total: all.length, computedAt: null };
}

interface Place {
  organizationId: string;
  place: string;
  timeZone: string;
}

/** A worker's scope of a place: its location, or every location of its organization. */
function placeScope(p: Place, days: number, now: Date): Scope {
  const to = todayIn(p.timeZone, now);
  const from = addDays(to, 1 - days);
  return {
    organization: sql`${p.organizationId}`,
    where: (column: SQL) =>
      p.place === "all"
        ? sql`${column} IN (SELECT id FROM locations WHERE organization_id = ${p.organizationId})`
        : sql`${column} = ${p.place}`,
    locationId: p.place === "all" ? null : p.place,
    timeZone: p.timeZone,
    period: { from, to },
    fromMs: startOfDayIn(from, p.timeZone) ?? 0,
    toMs: startOfDayIn(addDays(to, 1), p.timeZone) ?? 0,
  };
}

/** Replaces one place and period's rows in one batch: its sums, ranked in the screen's order. */
function workOutStatements(db: Database, p: Place, days: number, now: Date) {
  const scope = placeScope(p, days, now);
  const at = now.getTime();
  return [
    db.run(sql`DELETE FROM reconciliation_worked_out
      WHERE organization_id = ${p.organizationId} AND place = ${p.place} AND days = ${days}`),
    db.run(sql`INSERT INTO reconciliation_worked_out (organization_id, place, days, period_from, period_to, computed_at,
        rank, variation_id, expected_services, expected_retail, drawn, wasted, missing, adjusted_out, counted_out, sold,
        change, tracked, flagged, variance_cents, set_rows, set_flagged, set_variance_cents)
      SELECT ${p.organizationId}, ${p.place}, ${days}, ${scope.period.from}, ${scope.period.to}, ${at},
        row_number() OVER (ORDER BY isFlagged DESC, abs(varianceCents) DESC, abs(varianceUnits) DESC, lower(product),
          lower(variation), variationId),
        variationId, expectedServices, expectedRetail, drawn, wasted, missing, adjustedOut, countedOut, sold, change,
        tracked, isFlagged, varianceCents, count(*) OVER (), sum(isFlagged) OVER (), sum(varianceCents) OVER ()
      FROM (${rowsSql(scope, DEFAULT_THRESHOLD, null)})`),
  ] as const;
}

/**
 * The worker's run: every place and period whose rows are missing, of another day, older than
 * RECONCILIATION_REFRESH_MS or than the organization's last change of its sales, oldest first (the organization's year first among equals), each in one
 * batch, until the run's budget is spent; the next run goes on with the rest.
 */
export async function workOutReconciliation(db: Database, now: Date, budgetMs = RUN_BUDGET_MS): Promise<string> {
  const [locations, stamps, changes] = await db.batch([
    db.all<{ organizationId: string; id: string; timeZone: string }>(sql`SELECT organization_id AS organizationId, id,
      timezone AS timeZone FROM locations WHERE active = 1 ORDER BY organization_id, code`),
    db.all<{ organizationId: string; place: string; days: number; computedAt: number; periodTo: string }>(sql`
      SELECT organization_id AS organizationId, place, days, computed_at AS computedAt, period_to AS periodTo
      FROM reconciliation_worked_out WHERE rank = 1`),
    db.all<{ id: string; changedAt: number }>(sql`SELECT o.id, ${salesChangedAtSql(sql`o.id`)} AS changedAt
      FROM organizations AS o`),
  ]);
  const changedAt = new Map(changes.map((c) => [c.id, Number(c.changedAt)]));
  const places: Place[] = [];
  for (const l of locations) {
    places.push({ organizationId: l.organizationId, place: l.id, timeZone: l.timeZone });
    if (!places.some((p) => p.place === "all" && p.organizationId === l.organizationId)) {
      places.push({ organizationId: l.organizationId, place: "all", timeZone: "UTC" });
    }
  }
  const stampOf = new Map(stamps.map((s) => [`${s.organizationId}|${s.place}|${s.days}`, s]));
  const due = places
    .flatMap((p) =>
      RECONCILIATION_WORKED_OUT_DAYS.map((days) => ({
        p,
        days,
        stamp: stampOf.get(`${p.organizationId}|${p.place}|${days}`),
      })),
    )
    .filter(
      ({ p, stamp }) =>
        !stamp ||
        stamp.periodTo !== todayIn(p.timeZone, now) ||
        now.getTime() - Number(stamp.computedAt) >= RECONCILIATION_REFRESH_MS ||
        Number(stamp.computedAt) < (changedAt.get(p.organizationId) ?? 0),
    )
    // Oldest first; of the same age (none yet), the organization's first: its live sums cost the most.
    .sort(
      (a, b) =>
        Number(a.stamp?.computedAt ?? 0) - Number(b.stamp?.computedAt ?? 0) ||
        Number(a.p.place !== "all") - Number(b.p.place !== "all") ||
        b.days - a.days,
    );
  const started = Date.now();
  let done = 0;
  for (const { p, days } of due) {
    if (Date.now() - started >= budgetMs) break;
    await db.batch(workOutStatements(db, p, days, now));
    done++;
  }
  return `${done} of ${due.length} due worked out`;
}
