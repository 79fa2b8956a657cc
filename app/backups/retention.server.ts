// The retention rule, as data (the backup screen shows it) and as the nightly job that applies it.
import type { Client } from "@libsql/client";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";

/** Keep the newest snapshot of each of the last `daily` days that have one, and of the last `monthly` months. */
export const RETENTION = { daily: 30, monthly: 12 } as const;

export const retentionRule = `Snapshots are kept ${RETENTION.daily} days and, beyond that, the newest of each month for ${RETENTION.monthly} months: the newest of each day for the last ${RETENTION.daily} days with a snapshot, and the newest of each of the last ${RETENTION.monthly} months. Older ones are deleted every night. Uploaded snapshots are left out of this rule: they stay in storage.`;

export interface Snapshot {
  id: string;
  /** When it was asked for (its day and month), epoch ms. */
  requestedAt: number;
}

/**
 * Which snapshots the rule keeps, among an organization's ready ones made by the schedule or a user:
 * the newest of each of the newest `daily` UTC days, and of each of the newest `monthly` UTC months.
 */
export function keptByRule(snapshots: readonly Snapshot[], rule = RETENTION): Set<string> {
  const newestFirst = [...snapshots].sort((a, b) => b.requestedAt - a.requestedAt || (a.id < b.id ? 1 : -1));
  const kept = new Set<string>();
  const pick = (period: (at: number) => string, count: number) => {
    const seen = new Set<string>();
    for (const s of newestFirst) {
      const key = period(s.requestedAt);
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      kept.add(s.id);
    }
  };
  pick((at) => new Date(at).toISOString().slice(0, 10), rule.daily);
  pick((at) => new Date(at).toISOString().slice(0, 7), rule.monthly);
  return kept;
}

/** Deletes the snapshots the rule no longer keeps: the file from R2, the row marked deleted and logged. */
export async function applyRetention(db: Database, files: R2Bucket, _at: Date): Promise<string> {
  const client = db.$client as Client;
  // A snapshot a restore is reading is kept until the restore ends.
  const result = await client.execute(`SELECT id, organization_id, requested_at, r2_key FROM backups AS b
    WHERE status = 'ready' AND origin IN ('schedule', 'user')
      AND NOT EXISTS (SELECT 1 FROM backup_restores AS r WHERE r.backup_id = b.id
        AND r.status IN ('queued', 'checking', 'staging', 'switching'))`);
  const byOrganization = new Map<string, { id: string; requestedAt: number; key: string }[]>();
  for (const row of result.rows) {
    const org = String(row.organization_id);
    byOrganization.set(org, [
      ...(byOrganization.get(org) ?? []),
      { id: String(row.id), requestedAt: Number(row.requested_at), key: String(row.r2_key) },
    ]);
  }
  let deleted = 0;
  for (const snapshots of byOrganization.values()) {
    const kept = keptByRule(snapshots);
    for (const snapshot of snapshots.filter((s) => !kept.has(s.id))) {
      await files.delete(snapshot.key);
      const now = Date.now();
      await client.batch(
        [
          {
            sql: "UPDATE backups SET status = 'deleted', deleted_at = ? WHERE id = ? AND status = 'ready'",
            args: [now, snapshot.id],
          },
          {
            sql: `INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
              SELECT ?, ?, NULL, NULL, 'delete_backup', 'backup', ?, ?
              WHERE EXISTS (SELECT 1 FROM backups WHERE id = ? AND status = 'deleted' AND deleted_at = ?)`,
            args: [
              uuidv7(),
              now,
              snapshot.id,
              JSON.stringify({ reason: "retention", requestedAt: new Date(snapshot.requestedAt).toISOString() }),
              snapshot.id,
              now,
            ],
          },
        ],
        "write",
      );
      deleted += 1;
    }
  }
  return `deleted ${deleted}`;
}
