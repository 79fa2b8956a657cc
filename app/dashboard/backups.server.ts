// The dashboard's backup line (READ_BACKUPS): the last backup made and the last verified restore.
// Read from the backups table the jobs worker writes (db/schema/backups); nothing here writes it.
// - last backup: the newest snapshot that is complete (status ready), and, when a newer attempt
//   failed since, that attempt (the dashboard says so in red);
// - last verified restore: the newest snapshot whose restore rehearsal passed (its rehearsed_at):
//   it was loaded into staging tables and every checksum and ledger invariant held.
import { sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";

export interface BackupLine {
  lastBackup: { id: string; finishedAt: number | null; requestedAt: number; sizeBytes: number | null } | null;
  /** The newest snapshot attempt, when it failed after the last complete one. */
  failedSince: { id: string; requestedAt: number; error: string | null } | null;
  lastVerifiedRestore: { id: string; rehearsedAt: number; requestedAt: number } | null;
}

interface BackupRow {
  kind: "ready" | "latest" | "verified";
  id: string;
  status: string;
  requestedAt: number;
  finishedAt: number | null;
  sizeBytes: number | null;
  rehearsedAt: number | null;
  error: string | null;
}

export function backupQueries(db: Database, actor: Actor) {
  const organization = organizationOf(actor);
  const columns = sql`id, status, requested_at AS requestedAt, finished_at AS finishedAt, size_bytes AS sizeBytes,
    rehearsed_at AS rehearsedAt, error`;
  // Each newest-first by backups_org_requested_idx; a rehearsal follows its snapshot, so the newest
  // verified one is also among the newest requested (ordered by rehearsal time all the same).
  return [
    db.all<BackupRow>(sql`SELECT * FROM (SELECT 'ready' AS kind, ${columns} FROM backups
        WHERE organization_id = ${organization} AND status = 'ready' ORDER BY requested_at DESC LIMIT 1)
      UNION ALL SELECT * FROM (SELECT 'latest' AS kind, ${columns} FROM backups
        WHERE organization_id = ${organization} AND status <> 'deleted' ORDER BY requested_at DESC LIMIT 1)
      UNION ALL SELECT * FROM (SELECT 'verified' AS kind, ${columns} FROM backups
        WHERE organization_id = ${organization} AND rehearsal_status = 'passed'
        ORDER BY rehearsed_at DESC LIMIT 1)`),
  ] as const;
}

export function backupLineOf(results: readonly unknown[]): BackupLine {
  const [rows] = results as [BackupRow[]];
  const ready = rows.find((r) => r.kind === "ready");
  const latest = rows.find((r) => r.kind === "latest");
  const verified = rows.find((r) => r.kind === "verified");
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    lastBackup: ready
      ? {
          id: ready.id,
          finishedAt: n(ready.finishedAt),
          requestedAt: Number(ready.requestedAt),
          sizeBytes: n(ready.sizeBytes),
        }
      : null,
    failedSince:
      latest && latest.status === "failed" && (!ready || Number(latest.requestedAt) > Number(ready.requestedAt))
        ? { id: latest.id, requestedAt: Number(latest.requestedAt), error: latest.error }
        : null,
    lastVerifiedRestore:
      verified && verified.rehearsedAt !== null
        ? { id: verified.id, rehearsedAt: Number(verified.rehearsedAt), requestedAt: Number(verified.requestedAt) }
        : null,
  };
}
