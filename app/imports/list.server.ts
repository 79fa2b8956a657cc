// Reading the imports: which jobs an actor reaches, the list (newest first, 25 a page, by location or
// every location in organization mode), one job with its first errors, and the rows in error page by
// page (for the CSV report, never the whole table at once).
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { isOrganizationAdmin, ORGANIZATION, type Permission } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { ImportFormat, ImportKind, ImportSource, ImportStatus } from "../../db/schema/imports/constants";
import { IMPORTS_PAGE_SIZE } from "./forms";

/**
 * Whether the job aliased `j` is one the actor reaches: its organization's, and at a location they
 * reach with `permission`; a job whose rows name their own locations (no location) at one of those,
 * or before it is queued, its uploader's (and every job for an organization admin in organization mode).
 */
export function jobReached(actor: ScopedActor, permission: Permission, alias = "j"): SQL {
  const j = sql.raw(alias);
  const reach = locationsFor(actor, permission);
  const everywhere = actor.locationId === ORGANIZATION && isOrganizationAdmin(actor);
  const anywhere = everywhere
    ? sql`1`
    : sql`(${j}.created_by = ${actor.id} OR EXISTS (SELECT 1 FROM json_each(coalesce(${j}.location_map, '{}')) AS m
        WHERE ${reach.where(sql`m.value`)}))`;
  return sql`${j}.organization_id = ${organizationOf(actor)}
    AND ((${j}.location_id IS NOT NULL AND ${reach.where(sql`${j}.location_id`)}) OR (${j}.location_id IS NULL AND ${anywhere}))`;
}

export interface ImportCounts {
  imported: number;
  duplicates: number;
  skipped: number;
  unmapped: number;
  errors: number;
}

/** What every view of an import names it by: its file, kind, state and location. */
export interface ImportHead {
  id: string;
  kind: ImportKind;
  status: ImportStatus;
  source: ImportSource;
  format: ImportFormat;
  fileName: string;
  locationId: string | null;
  locationName: string | null;
}

/** An import's head alone (a view that adds its own facts to it). */
export function headOf(job: ImportHead): ImportHead {
  const { id, kind, status, source, format, fileName, locationId, locationName } = job;
  return { id, kind, status, source, format, fileName, locationId, locationName };
}

export interface ImportListItem extends ImportHead {
  createdBy: string;
  createdByName: string;
  createdAt: number;
  queuedAt: number | null;
  finishedAt: number | null;
  rowsDone: number;
  rowsTotal: number;
  counts: ImportCounts;
  lastError: string | null;
}

interface JobRow {
  id: string;
  kind: ImportKind;
  status: ImportStatus;
  source: ImportSource;
  format: ImportFormat;
  file_name: string;
  location_id: string | null;
  location_name: string | null;
  created_by: string;
  created_by_name: string | null;
  created_at: number;
  queued_at: number | null;
  finished_at: number | null;
  rows_done: number;
  rows_total: number;
  imported: number;
  duplicates: number;
  skipped: number;
  unmapped: number;
  errors: number;
  last_error: string | null;
}

const JOB_COLUMNS = sql`j.id, j.kind, j.status, j.source, j.format, j.file_name, j.location_id, l.name AS location_name,
  j.created_by, trim(u.first_name || ' ' || u.last_name) AS created_by_name, j.created_at, j.queued_at, j.finished_at,
  j.rows_done, j.rows_total, j.imported, j.duplicates, j.skipped, j.unmapped, j.errors, j.last_error`;
const JOB_JOINS = sql`LEFT JOIN locations AS l ON l.id = j.location_id LEFT JOIN users AS u ON u.id = j.created_by`;

function itemOf(r: JobRow): ImportListItem {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    source: r.source,
    format: r.format,
    fileName: r.file_name,
    locationId: r.location_id,
    locationName: r.location_name,
    createdBy: r.created_by,
    createdByName: r.created_by_name || "Someone",
    createdAt: Number(r.created_at),
    queuedAt: r.queued_at === null ? null : Number(r.queued_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    rowsDone: Number(r.rows_done),
    rowsTotal: Number(r.rows_total),
    counts: {
      imported: Number(r.imported),
      duplicates: Number(r.duplicates),
      skipped: Number(r.skipped),
      unmapped: Number(r.unmapped),
      errors: Number(r.errors),
    },
    lastError: r.last_error,
  };
}

/** The statements of a page of the list (for the page's one batch), and how to read their rows. */
export function importListQueries(db: Database, actor: ScopedActor, page: number, kind: ImportKind = "sales") {
  const where = sql`j.kind = ${kind} AND ${jobReached(actor, "READ_IMPORTS")}`;
  return [
    db.all<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM import_jobs AS j ${JOB_JOINS} WHERE ${where}
      ORDER BY j.created_at DESC, j.id DESC LIMIT ${IMPORTS_PAGE_SIZE} OFFSET ${(page - 1) * IMPORTS_PAGE_SIZE}`),
    db.all<{ total: number }>(sql`SELECT count(*) AS total FROM import_jobs AS j WHERE ${where}`),
  ] as const;
}

export function importListOf(rows: JobRow[], counted: { total: number }[], page: number) {
  return { items: rows.map(itemOf), page, pageSize: IMPORTS_PAGE_SIZE, total: Number(counted[0]?.total ?? 0) };
}

export async function listImports(db: Database, actor: ScopedActor, page: number, kind: ImportKind = "sales") {
  const [rows, counted] = await db.batch(importListQueries(db, actor, page, kind));
  return importListOf(rows, counted, page);
}

export interface ImportRowError {
  row: number;
  column: string | null;
  value: string | null;
  message: string;
}

export interface ImportDetail extends ImportListItem {
  errorsShown: ImportRowError[];
}

type ErrorRow = { row_number: number; column: string | null; value: string | null; message: string };

/** The statements of one job the actor reaches and its first `errors` rows in error (importJobOf reads them). */
export function importJobQueries(db: Database, actor: ScopedActor, id: string, errors = 20) {
  return [
    db.all<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM import_jobs AS j ${JOB_JOINS}
      WHERE j.id = ${id} AND ${jobReached(actor, "READ_IMPORTS")}`),
    db.all<ErrorRow>(sql`SELECT e.row_number, e."column", e.value, e.message FROM import_row_errors AS e
      WHERE e.job_id = ${id} AND EXISTS (SELECT 1 FROM import_jobs AS j WHERE j.id = e.job_id AND ${jobReached(actor, "READ_IMPORTS")})
      ORDER BY e.row_number LIMIT ${errors}`),
  ] as const;
}

export function importJobOf(rows: JobRow[], errorRows: ErrorRow[]): ImportDetail | null {
  const row = rows[0];
  if (!row) return null;
  return {
    ...itemOf(row),
    errorsShown: errorRows.map((e) => ({
      row: Number(e.row_number),
      column: e.column,
      value: e.value,
      message: e.message,
    })),
  };
}

/** One job the actor reaches, with its first `errors` rows in error; null if none. */
export async function importJob(
  db: Database,
  actor: ScopedActor,
  id: string,
  errors = 20,
): Promise<ImportDetail | null> {
  const [rows, errorRows] = await db.batch(importJobQueries(db, actor, id, errors));
  return importJobOf(rows, errorRows);
}

/** The rows in error of a job the caller already reached, a page at a time (keyset on the row number). */
export async function* rowErrorPages(db: Database, jobId: string, pageSize = 1000): AsyncGenerator<ImportRowError[]> {
  let after = -1;
  for (;;) {
    const rows = await db.all<{ row_number: number; column: string | null; value: string | null; message: string }>(
      sql`SELECT row_number, "column", value, message FROM import_row_errors
        WHERE job_id = ${jobId} AND row_number > ${after} ORDER BY row_number LIMIT ${pageSize}`,
    );
    if (rows.length === 0) return;
    yield rows.map((e) => ({ row: Number(e.row_number), column: e.column, value: e.value, message: e.message }));
    after = Number(rows[rows.length - 1]?.row_number);
    if (rows.length < pageSize) return;
  }
}
