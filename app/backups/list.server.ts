// What the backup screen and GET /api/backups read: the organization's snapshots newest first, by
// keyset (ADR 0018; deleted snapshots stay listed, greyed, because history points at them), each
// with who or what made it, its size, times, progress and rehearsal result; the latest restores;
// and the organization's name, which a restore is confirmed with. One batch.
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { CursorParams, cappedCountSql, firstPage, type Keyset, keysetList, type SortKey } from "~/db/keyset.server";
import { jsonObjectOf, organizationOf } from "~/db/sql.server";
import type { BackupOrigin, BackupStatus, RehearsalStatus, RestoreStatus } from "../../db/schema/backups/constants";

export const BACKUP_PAGE_SIZE = 20;
/** Restores shown under the list: the latest few (each is also in the activity log). */
export const RESTORES_SHOWN = 10;

/** `?after=&before=&pageSize=` of the backup list (screen and API). */
export const BackupListQuery = z.object({
  ...CursorParams,
  pageSize: z.coerce.number().int().min(1).max(100).catch(BACKUP_PAGE_SIZE),
});
export type BackupListQueryInput = z.output<typeof BackupListQuery>;

export interface Progress {
  rowsDone: number;
  rowsTotal: number | null;
  /** Whole percent done, null while the total is not known yet. */
  percent: number | null;
}

export interface Rehearsal {
  status: RehearsalStatus | null;
  at: string | null;
  /** What it found, in words: the failure's message, or what passed. Null until it has run. */
  message: string | null;
  /** What the rehearsal recorded (checks, counts), as the jobs worker wrote it. */
  result: Record<string, unknown> | null;
}

export interface BackupSummary {
  id: string;
  origin: BackupOrigin;
  status: BackupStatus;
  /** Who asked (a user's name), or null for the nightly schedule. */
  requestedBy: string | null;
  requestedAt: string;
  /** When its rows were frozen, from its manifest (an upload's is known once its rehearsal has read it). */
  takenAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  sizeBytes: number | null;
  progress: Progress;
  error: string | null;
  rehearsal: Rehearsal;
}

export interface BackupDetail extends BackupSummary {
  /** Schema version, tables, row counts, checksums (null until written; an upload's is read by the rehearsal). */
  manifest: Record<string, unknown> | null;
}

export interface RestoreSummary {
  id: string;
  backupId: string;
  /** When the snapshot restored was asked for (what it brings back). */
  backupRequestedAt: string;
  backupOrigin: BackupOrigin;
  status: RestoreStatus;
  requestedBy: string | null;
  requestedAt: string;
  finishedAt: string | null;
  progress: Progress;
  message: string | null;
}

interface BackupRow {
  id: string;
  origin: BackupOrigin;
  status: BackupStatus;
  requestedBy: string | null;
  requestedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  rowsDone: number;
  rowsTotal: number | null;
  sizeBytes: number | null;
  error: string | null;
  rehearsalStatus: RehearsalStatus | null;
  rehearsedAt: number | null;
  rehearsal: string | null;
  takenAt: string | null;
  manifest?: string | null;
}

interface RestoreRow {
  id: string;
  backupId: string;
  backupRequestedAt: number;
  backupOrigin: BackupOrigin;
  status: RestoreStatus;
  requestedBy: string | null;
  requestedAt: number;
  finishedAt: number | null;
  rowsDone: number;
  rowsTotal: number | null;
  message: string | null;
}

const iso = (ms: number | null) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

export function progressOf(rowsDone: number, rowsTotal: number | null): Progress {
  const done = Number(rowsDone);
  const total = rowsTotal === null ? null : Number(rowsTotal);
  const percent = total === null ? null : total === 0 ? 100 : Math.min(100, Math.floor((done * 100) / total));
  return { rowsDone: done, rowsTotal: total, percent };
}

/** The words of a rehearsal's result: its `message` if it wrote one, else its `error`. */
export function rehearsalMessage(result: Record<string, unknown> | null): string | null {
  const said = result?.message ?? result?.error;
  return typeof said === "string" && said ? said : null;
}

function summaryOf(row: BackupRow): BackupSummary {
  const result = jsonObjectOf(row.rehearsal);
  return {
    id: row.id,
    origin: row.origin,
    status: row.status,
    requestedBy: row.requestedBy,
    requestedAt: iso(row.requestedAt) ?? "",
    takenAt: typeof row.takenAt === "string" && !Number.isNaN(Date.parse(row.takenAt)) ? row.takenAt : null,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    progress: progressOf(row.rowsDone, row.rowsTotal),
    error: row.error,
    rehearsal: {
      status: row.rehearsalStatus,
      at: iso(row.rehearsedAt),
      message: rehearsalMessage(result),
      result,
    },
  };
}

function restoreOf(row: RestoreRow): RestoreSummary {
  return {
    id: row.id,
    backupId: row.backupId,
    backupRequestedAt: iso(row.backupRequestedAt) ?? "",
    backupOrigin: row.backupOrigin,
    status: row.status,
    requestedBy: row.requestedBy,
    requestedAt: iso(row.requestedAt) ?? "",
    finishedAt: iso(row.finishedAt),
    progress: progressOf(row.rowsDone, row.rowsTotal),
    message: row.message,
  };
}

const NAME_OF = (alias: string) =>
  sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE ${alias}.first_name || ' ' || ${alias}.last_name END`);

const COLUMNS = sql`b.id, b.origin, b.status, ${NAME_OF("who")} AS requestedBy, b.requested_at AS requestedAt,
  b.started_at AS startedAt, b.finished_at AS finishedAt, b.rows_done AS rowsDone, b.rows_total AS rowsTotal,
  b.size_bytes AS sizeBytes, b.error, b.rehearsal_status AS rehearsalStatus, b.rehearsed_at AS rehearsedAt,
  b.rehearsal, json_extract(b.manifest, '$.takenAt') AS takenAt`;

// Newest first; served by backups_org_requested_idx (organization_id, requested_at).
const KEYS: readonly SortKey[] = [
  { sql: sql`b.requested_at`, type: "integer", desc: true },
  { sql: sql`b.id`, type: "text", desc: true },
];
const PAGES = keysetList<BackupRow>(KEYS, (row) => [Number(row.requestedAt), row.id]);

const mine = (actor: ScopedActor): SQL => sql`b.organization_id = ${organizationOf(actor)}`;

function pageStatements(db: Database, actor: ScopedActor, keyset: Keyset) {
  const past = PAGES.where(keyset);
  return [
    db.all<BackupRow>(sql`SELECT ${COLUMNS} FROM backups AS b LEFT JOIN users AS who ON who.id = b.requested_by
      WHERE ${mine(actor)}${past ? sql` AND ${past}` : sql``}
      ORDER BY ${PAGES.orderBy(keyset)} LIMIT ${PAGES.limit(keyset)}`),
    db.all<{ total: number }>(cappedCountSql(sql`FROM backups AS b WHERE ${mine(actor)}`)),
  ] as const;
}

/** GET /api/backups: a page {items, next, previous, pageSize, total, totalExact}; null for a cursor it did not make. */
export async function readBackups(db: Database, actor: ScopedActor, query: BackupListQueryInput) {
  const keyset = PAGES.keyset(query);
  if (!keyset) return null;
  const [rows, totals] = await db.batch(pageStatements(db, actor, keyset));
  return PAGES.page(rows, totals[0]?.total, keyset, summaryOf);
}

/** GET /api/backups/{id}: one snapshot with its manifest and rehearsal result, or null if not the organization's. */
export async function readBackup(db: Database, actor: ScopedActor, id: string): Promise<BackupDetail | null> {
  const [row] = await db.all<BackupRow>(sql`SELECT ${COLUMNS}, b.manifest FROM backups AS b
    LEFT JOIN users AS who ON who.id = b.requested_by WHERE ${mine(actor)} AND b.id = ${id}`);
  return row ? { ...summaryOf(row), manifest: jsonObjectOf(row.manifest) } : null;
}

/** The snapshot's file in storage, for its download: its key and state, or null if not the organization's. */
export async function backupFile(db: Database, actor: ScopedActor, id: string) {
  const [row] = await db.all<{ r2Key: string; status: BackupStatus; requestedAt: number }>(sql`SELECT
      b.r2_key AS r2Key, b.status, b.requested_at AS requestedAt FROM backups AS b WHERE ${mine(actor)} AND b.id = ${id}`);
  return row ? { ...row, requestedAt: iso(row.requestedAt) ?? "" } : null;
}

/**
 * The /backup-restore screen: a page of snapshots, its count, the latest restores and the
 * organization's name, one batch. A cursor the list did not make shows the first page.
 */
export async function backupScreen(db: Database, actor: ScopedActor, query: BackupListQueryInput) {
  const keyset = firstPage(PAGES.keyset(query), query.pageSize);
  const [rows, totals, restores, organization] = await db.batch([
    ...pageStatements(db, actor, keyset),
    db.all<RestoreRow>(sql`SELECT r.id, r.backup_id AS backupId, b.requested_at AS backupRequestedAt,
        b.origin AS backupOrigin, r.status, ${NAME_OF("who")} AS requestedBy, r.requested_at AS requestedAt,
        r.finished_at AS finishedAt, r.rows_done AS rowsDone, r.rows_total AS rowsTotal, r.message
      FROM backup_restores AS r JOIN backups AS b ON b.id = r.backup_id
      LEFT JOIN users AS who ON who.id = r.requested_by
      WHERE r.organization_id = ${organizationOf(actor)}
      ORDER BY r.requested_at DESC, r.id DESC LIMIT ${RESTORES_SHOWN}`),
    db.all<{ name: string }>(sql`SELECT o.name FROM organizations AS o WHERE o.id = ${organizationOf(actor)}`),
  ]);
  return {
    ...PAGES.page(rows, totals[0]?.total, keyset, summaryOf),
    restores: restores.map(restoreOf),
    organizationName: organization[0]?.name.trim() ?? "",
  };
}
