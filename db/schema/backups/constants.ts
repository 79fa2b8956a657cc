// Backups' states, importing nothing so pages can show them without drizzle (domain.md "Flows").

/** Who asked for a snapshot: the nightly schedule, a user pressing "Back up now", or an upload. */
export const BACKUP_ORIGINS = ["schedule", "user", "upload"] as const;
export type BackupOrigin = (typeof BACKUP_ORIGINS)[number];

/**
 * A snapshot's life: queued (waiting for the jobs worker), writing (pages going to R2, resumable
 * across runs from `cursor`), ready (complete, manifest written), failed (error says why), deleted
 * (removed from R2 by the retention rule; the row stays, history points at it).
 */
export const BACKUP_STATUSES = ["queued", "writing", "ready", "failed", "deleted"] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

/** The restore rehearsal of a ready snapshot: staged, checked, dropped. */
export const REHEARSAL_STATUSES = ["pending", "running", "passed", "failed"] as const;
export type RehearsalStatus = (typeof REHEARSAL_STATUSES)[number];

/**
 * A restore's life: queued, checking (manifest, checksums, schema version), staging (rows into
 * staging tables, resumable), switching (the one batch), done; or refused (the snapshot failed a
 * check: nothing changed) or failed (an error: nothing changed).
 */
export const RESTORE_STATUSES = ["queued", "checking", "staging", "switching", "done", "refused", "failed"] as const;
export type RestoreStatus = (typeof RESTORE_STATUSES)[number];
