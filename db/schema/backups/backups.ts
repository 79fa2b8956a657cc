import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, instant } from "../columns";
import { organizations } from "../organization/organizations";
import { BACKUP_ORIGINS, BACKUP_STATUSES, REHEARSAL_STATUSES, RESTORE_STATUSES } from "./constants";

/**
 * One snapshot of the whole database in R2 (domain.md "Flows": backup). The jobs worker writes it
 * page by page and commits its progress mark (`cursor`) with each page, so a run that stops resumes
 * where the last committed page ended. These two tables are never part of a snapshot or a restore:
 * they are the record of the backups themselves, and a restore must not forget the later ones.
 */
export const backups = sqliteTable(
  "backups",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    origin: text("origin", { enum: BACKUP_ORIGINS }).notNull(),
    /** The user who asked or uploaded; null for the schedule. No foreign key, like activity_log. */
    requestedBy: text("requested_by"),
    requestedAt: instant("requested_at")
      .notNull()
      .$defaultFn(() => new Date()),
    status: text("status", { enum: BACKUP_STATUSES }).notNull(),
    /** The snapshot file's key in the FILES bucket. */
    r2Key: text("r2_key").notNull(),
    startedAt: instant("started_at"),
    finishedAt: instant("finished_at"),
    /** Rows written so far and rows to write (the progress bar). */
    rowsDone: integer("rows_done").notNull().default(0),
    rowsTotal: integer("rows_total"),
    /** Compressed bytes in R2 once ready. */
    sizeBytes: integer("size_bytes"),
    /** The writer's resume mark (JSON, the backups module's own shape). */
    cursor: text("cursor", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Schema version, tables, row counts, per-table checksums, who made it, size, time (JSON). */
    manifest: text("manifest", { mode: "json" }).$type<Record<string, unknown>>(),
    error: text("error"),
    rehearsalStatus: text("rehearsal_status", { enum: REHEARSAL_STATUSES }),
    rehearsedAt: instant("rehearsed_at"),
    /** What the rehearsal checked and found (JSON). */
    rehearsal: text("rehearsal", { mode: "json" }).$type<Record<string, unknown>>(),
    deletedAt: instant("deleted_at"),
  },
  (t) => [
    check("backups_progress", sql`${t.rowsDone} >= 0`),
    // Serves the backup list and "last backup", newest first.
    index("backups_org_requested_idx").on(t.organizationId, t.requestedAt),
    // Serves the jobs worker's pick-up of unfinished work.
    index("backups_status_idx").on(t.status, t.requestedAt),
  ],
);

/** One restore of a snapshot into the database; the switch is one batch, so it either happens whole or not at all. */
export const backupRestores = sqliteTable(
  "backup_restores",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    backupId: text("backup_id")
      .notNull()
      .references(() => backups.id),
    requestedBy: text("requested_by"),
    requestedAt: instant("requested_at")
      .notNull()
      .$defaultFn(() => new Date()),
    status: text("status", { enum: RESTORE_STATUSES }).notNull(),
    startedAt: instant("started_at"),
    finishedAt: instant("finished_at"),
    rowsDone: integer("rows_done").notNull().default(0),
    rowsTotal: integer("rows_total"),
    cursor: text("cursor", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Why it was refused or failed, in words for the admin. */
    message: text("message"),
  },
  (t) => [
    // Serves the restore list and the jobs worker's pick-up, newest first.
    index("backup_restores_org_requested_idx").on(t.organizationId, t.requestedAt),
    index("backup_restores_status_idx").on(t.status, t.requestedAt),
  ],
);
