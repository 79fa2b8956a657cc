// What the review page reads of a count: its figures as the jobs worker worked them out (ADR 0030,
// extended to counts) while they stand, else the report read live a page at a time
// (./report.server). On the large chain's largest count (834 vials counted in a category at a
// shelf of 3,836) the live read works out every line's expectation and walks the shelf for the
// vials missing, 261 K SQLite steps a view; reading the worked-out figures is one row.
//
// They stand while they are of the count as it stands: worked out at its status, after it was
// submitted (or approved), and, while it awaits review, at most WORKED_OUT_STANDS_FOR_MS old (what
// moves at the location meanwhile changes what is missing). An approved count's figures, worked
// out once after its approval, stand for good: the approval booked them. The approval itself always
// reads the report live (./approve.server), so what is booked is never a minute old.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { jsonObjectOf } from "~/db/sql.server";
import { WORKED_OUT_STANDS_FOR_MS } from "~/db/worked-out.server";
import {
  type BulkRow,
  type CountReport,
  type MissingVial,
  type MovementDuring,
  type NotCounted,
  type ReportPage,
  readReport,
  readSessionReport,
  type VialLine,
} from "./report.server";
import { SESSION_COLUMNS, type SessionRow, sessionQuery } from "./session.server";

/** Rows each long list of the review shows a page; products and sizes named as not counted. */
export const REVIEW_PAGE = { rows: 25, notCountedNamed: 30 } as const;

/** What the review page and the JSON API show of a vial line. */
export type ReviewVial = Pick<
  VialLine,
  | "lineId"
  | "itemId"
  | "variationId"
  | "countedById"
  | "unitsNow"
  | "labelCode"
  | "product"
  | "variation"
  | "lot"
  | "counted"
  | "expected"
  | "variance"
  | "valueCents"
  | "after"
  | "found"
  | "state"
  | "itemLocationCode"
  | "movedOn"
  | "finished"
  | "onTheRoad"
  | "countedBy"
  | "countedAt"
  | "unitScale"
  | "baseUnit"
>;

/** A page of a long list and how many rows the whole list has. */
export interface ListPage<T> {
  rows: T[];
  total: number;
}

/** The page of each long list the review shows (counted from 1; past the end, the first). */
export interface ReviewPages {
  vials: number;
  bulk: number;
  missing: number;
  during: number;
}

/** What the review page reads. */
export interface Review {
  /** The instant the jobs worker worked the figures out; null when read live for this view. */
  asOf: number | null;
  totals: CountReport["totals"];
  /** A page of the vials counted, what differs first. */
  vials: ListPage<ReviewVial>;
  /** A page of the bulk products and sizes counted, what differs first. */
  bulk: ListPage<BulkRow>;
  /** A page of the vials expected and not counted. */
  missing: ListPage<MissingVial>;
  /** The first products and sizes not counted. */
  notCounted: ListPage<NotCounted>;
  /** A page of the movements made while the count was open, newest first. */
  during: ListPage<MovementDuring>;
}

/** The lists the jobs worker keeps of a count, whole and in the order the page shows them. */
const KEPT_LISTS = ["vials", "bulk", "missing", "during"] as const;

/** The totals column of a count's worked-out figures: the report's totals and how long each kept list is. */
interface KeptTotals {
  totals: CountReport["totals"];
  lengths: Record<(typeof KEPT_LISTS)[number], number>;
}

/** A vial line differs: counted other than expected, found here, or moved on since it was counted. */
const differs = (v: Pick<VialLine, "variance" | "found" | "movedOn">) => v.variance !== 0 || v.found || v.movedOn;

/** The bulk products and sizes counted, those with a variance first (as the page and the API show them). */
const bulkDiffersFirst = (report: CountReport) => differsFirst(report.bulk, (b) => b.variance !== 0);

/** What differs first, then as the list was. */
const differsFirst = <T>(list: readonly T[], differ: (row: T) => boolean) => [
  ...list.filter(differ),
  ...list.filter((row) => !differ(row)),
];

const shown = (v: VialLine): ReviewVial => ({
  lineId: v.lineId,
  itemId: v.itemId,
  variationId: v.variationId,
  countedById: v.countedById,
  unitsNow: v.unitsNow,
  labelCode: v.labelCode,
  product: v.product,
  variation: v.variation,
  lot: v.lot,
  counted: v.counted,
  expected: v.expected,
  variance: v.variance,
  valueCents: v.valueCents,
  after: v.after,
  found: v.found,
  state: v.state,
  itemLocationCode: v.itemLocationCode,
  movedOn: v.movedOn,
  finished: v.finished,
  onTheRoad: v.onTheRoad,
  countedBy: v.countedBy,
  countedAt: v.countedAt,
  unitScale: v.unitScale,
  baseUnit: v.baseUnit,
});

/** The row of worked_out_counts kept of a whole report (readReport's: every list whole), its lists JSON. */
function workedOutOf(session: SessionRow, report: CountReport, computedAt: Date) {
  const lists = {
    vials: differsFirst(report.vials, differs).map(shown),
    bulk: bulkDiffersFirst(report),
    missing: report.missing,
    during: report.during,
  };
  const totals: KeptTotals = {
    totals: report.totals,
    lengths: {
      vials: lists.vials.length,
      bulk: lists.bulk.length,
      missing: lists.missing.length,
      during: lists.during.length,
    },
  };
  return {
    sessionId: session.id,
    status: session.status,
    computedAt,
    totals: JSON.stringify(totals),
    vials: JSON.stringify(lists.vials),
    bulk: JSON.stringify(lists.bulk),
    missing: JSON.stringify(lists.missing),
    notCounted: JSON.stringify(report.notCounted.slice(0, REVIEW_PAGE.notCountedNamed)),
    during: JSON.stringify(lists.during),
  };
}

/** The row offset of page `page` of a list of `total` rows: past the end, the first page's. */
function offsetOf(page: number, total: number): number {
  const offset = (page - 1) * REVIEW_PAGE.rows;
  return offset < total ? offset : 0;
}

/** Page `page` of a list read whole (past the end, the first, as the live read answers). */
function pageOf<T>(list: readonly T[], page: number): ListPage<T> {
  const offset = offsetOf(page, list.length);
  return { rows: list.slice(offset, offset + REVIEW_PAGE.rows), total: list.length };
}

/**
 * SQL: the worked-out row `w`'s lists, each cut to its page of `pages` in SQL: the largest count
 * keeps half a megabyte of figures, of which a view shows a few kilobytes.
 */
function pagedColumns(pages: ReviewPages): SQL {
  const page = (list: (typeof KEPT_LISTS)[number]) => {
    const column = sql.raw(`w.${list}`);
    const total = sql`json_extract(w.totals, ${`$.lengths.${list}`})`;
    const from = (pages[list] - 1) * REVIEW_PAGE.rows;
    // Past the end, the first page. An array's json_each keys are its indexes, in order.
    const offset = sql`(CASE WHEN ${from} < ${total} THEN ${from} ELSE 0 END)`;
    return sql`(SELECT json_group_array(json(j.value)) FROM json_each(${column}) AS j
        WHERE j.key >= ${offset} AND j.key < ${offset} + ${REVIEW_PAGE.rows}) AS ${sql.raw(list)}`;
  };
  return sql`w.not_counted AS notCounted, ${sql.join(KEPT_LISTS.map(page), sql`, `)}`;
}

/** SQL: the worked-out row `w`'s lists whole. */
const WHOLE_COLUMNS = sql`w.vials, w.bulk, w.missing, w.not_counted AS notCounted, w.during`;

/**
 * The count `id` if it is at a location `actor` reaches with `permission`, and its worked-out row
 * (its status, time, totals and `columns`) if its figures stand at `now`: one round trip.
 */
async function sessionAndFigures(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
  columns: SQL,
  now: Date,
) {
  if (!id || id.length > 100) return null;
  const [sessions, worked] = await db.batch([
    sessionQuery(db, actor, permission, id),
    db.all<Record<string, unknown>>(sql`SELECT w.status, w.computed_at AS computedAt, w.totals, ${columns}
      FROM worked_out_counts AS w WHERE w.session_id = ${id}`),
  ]);
  const session = sessions[0];
  if (!session) return null;
  const row = worked[0];
  const found = standing(row, session, now);
  return { session, figures: row && found ? { row, ...found } : null };
}

const listOf = (text: unknown): unknown[] => {
  const value: unknown = typeof text === "string" ? JSON.parse(text) : null;
  return Array.isArray(value) ? value : [];
};

/**
 * The totals of the worked-out row `row` and when they were worked out, if its figures stand for
 * `session` at `now` (see the top of this file); else null.
 */
function standing(
  row: Record<string, unknown> | undefined,
  session: SessionRow,
  now: Date,
): { asOf: number; kept: KeptTotals } | null {
  if (!row || row.status !== session.status) return null;
  const asOf = Number(row.computedAt);
  const at = now.getTime();
  if (asOf > at) return null;
  const since =
    session.status === "submitted" ? session.submittedAt : session.status === "approved" ? session.reviewedAt : null;
  if (since === null || asOf < Number(since)) return null;
  if (session.status === "submitted" && at - asOf > WORKED_OUT_STANDS_FOR_MS) return null;
  const kept = jsonObjectOf(row.totals as string) as KeptTotals | null;
  return kept?.totals && kept.lengths ? { asOf, kept } : null;
}

/** The review of a standing worked-out row as workedOutQuery reads it (each list a page). */
function reviewOfRow(row: Record<string, unknown>, { asOf, kept }: { asOf: number; kept: KeptTotals }): Review {
  const { totals, lengths } = kept;
  const list = <T>(name: (typeof KEPT_LISTS)[number]): ListPage<T> => ({
    rows: listOf(row[name]) as T[],
    total: Number(lengths[name] ?? 0),
  });
  return {
    asOf,
    totals,
    vials: list("vials"),
    bulk: list("bulk"),
    missing: list("missing"),
    notCounted: { rows: listOf(row.notCounted) as NotCounted[], total: totals.notCounted },
    during: list("during"),
  };
}

/** What the live read of a page of the report is asked (./report.server's ReportPage). */
function reportPageOf(pages: ReviewPages): ReportPage {
  return {
    vialOffset: (pages.vials - 1) * REVIEW_PAGE.rows,
    vialLimit: REVIEW_PAGE.rows,
    missingOffset: (pages.missing - 1) * REVIEW_PAGE.rows,
    missingLimit: REVIEW_PAGE.rows,
    notCountedLimit: REVIEW_PAGE.notCountedNamed,
  };
}

function reviewOfLive(report: CountReport, pages: ReviewPages): Review {
  return {
    asOf: null,
    totals: report.totals,
    vials: { rows: (report.vialPage ?? []).map(shown), total: report.vials.length },
    bulk: pageOf(bulkDiffersFirst(report), pages.bulk),
    missing: { rows: report.missing, total: report.totals.missingVials },
    notCounted: { rows: report.notCounted, total: report.totals.notCounted },
    during: pageOf(report.during, pages.during),
  };
}

/**
 * The count `id` if it is at a location `actor` reaches with `permission`, and a page of its
 * review: one round trip when its worked-out figures stand, else a second that reads it live.
 */
export async function readReview(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
  pages: ReviewPages,
  now = new Date(),
): Promise<{ session: SessionRow; review: Review } | null> {
  const read = await sessionAndFigures(db, actor, permission, id, pagedColumns(pages), now);
  if (!read) return null;
  if (read.figures) return { session: read.session, review: reviewOfRow(read.figures.row, read.figures) };
  return readLiveReview(db, actor, permission, id, pages);
}

/** Like readReview, read live (its fallback): the session and a page of its report in one round trip. */
export async function readLiveReview(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
  pages: ReviewPages,
): Promise<{ session: SessionRow; review: Review } | null> {
  const live = await readSessionReport(db, actor, permission, id, reportPageOf(pages));
  return live ? { session: live.session, review: reviewOfLive(live.report, pages) } : null;
}

/**
 * A count whole, as the JSON API answers it: every vial line (in the order counted), every bulk
 * product and size, every vial missing, the first products and sizes not counted (totals count
 * them all), the movements while it was open.
 */
export interface CountDocument {
  asOf: number | null;
  totals: CountReport["totals"];
  vials: ReviewVial[];
  bulk: BulkRow[];
  missing: MissingVial[];
  notCounted: NotCounted[];
  during: MovementDuring[];
}

/**
 * The count `id` if it is at a location `actor` reaches with `permission`, and the whole of it:
 * its worked-out figures while they stand (one round trip), else its report read live.
 */
export async function readCountDocument(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
  now = new Date(),
): Promise<{ session: SessionRow; document: CountDocument } | null> {
  const read = await sessionAndFigures(db, actor, permission, id, WHOLE_COLUMNS, now);
  if (!read) return null;
  if (read.figures) {
    const { row, asOf, kept } = read.figures;
    const byCount = (a: ReviewVial, b: ReviewVial) =>
      a.countedAt - b.countedAt || (a.lineId < b.lineId ? -1 : a.lineId > b.lineId ? 1 : 0);
    return {
      session: read.session,
      document: {
        asOf,
        totals: kept.totals,
        // Kept what differs first (the page's order): the API answers them in the order counted.
        vials: (listOf(row.vials) as ReviewVial[]).sort(byCount),
        bulk: listOf(row.bulk) as BulkRow[],
        missing: listOf(row.missing) as MissingVial[],
        notCounted: listOf(row.notCounted) as NotCounted[],
        during: listOf(row.during) as MovementDuring[],
      },
    };
  }
  return readLiveCountDocument(db, actor, permission, id);
}

/** Like readCountDocument, read live (its fallback): the session and its whole report in one round trip. */
export async function readLiveCountDocument(
  db: Database,
  actor: ScopedActor,
  permission: Permission,
  id: string,
): Promise<{ session: SessionRow; document: CountDocument } | null> {
  const live = await readSessionReport(db, actor, permission, id);
  if (!live) return null;
  const { report } = live;
  return {
    session: live.session,
    document: {
      asOf: null,
      totals: report.totals,
      vials: report.vials.map(shown),
      bulk: bulkDiffersFirst(report),
      missing: report.missing,
      notCounted: report.notCounted.slice(0, REVIEW_PAGE.notCountedNamed),
      during: report.during,
    },
  };
}

/** At most this many counts worked out a run (the ones waiting longest for it first). */
const COUNTS_A_RUN = 10;

/**
 * Works out the review figures of every count awaiting review, and of each approved count not yet
 * worked out since its approval (the work cron, every minute). Answers what it did.
 */
export async function workOutCountReviews(db: Database): Promise<string> {
  const sessions = await db.all<SessionRow>(sql`SELECT ${SESSION_COLUMNS}
    FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
      LEFT JOIN worked_out_counts AS w ON w.session_id = s.id
    WHERE s.status = 'submitted' OR (s.status = 'approved'
      AND (w.session_id IS NULL OR w.status <> 'approved' OR w.computed_at < s.reviewed_at))
    ORDER BY s.status = 'submitted' DESC, coalesce(w.computed_at, 0), s.id
    LIMIT ${COUNTS_A_RUN}`);
  for (const session of sessions) {
    // Stamped before the read: figures stand only for a count submitted before it (see standing).
    const computedAt = new Date();
    const values = workedOutOf(session, await readReport(db, session), computedAt);
    // Not over figures of a later run, nor of the count as it stands now if it moved on meanwhile
    // (the next run works those out).
    await db
      .insert(schema.workedOutCounts)
      .values(values)
      .onConflictDoUpdate({
        target: schema.workedOutCounts.sessionId,
        set: values,
        setWhere: sql`${schema.workedOutCounts.computedAt} <= excluded.computed_at`,
      });
  }
  return `review figures of ${sessions.length} count${sessions.length === 1 ? "" : "s"}`;
}
