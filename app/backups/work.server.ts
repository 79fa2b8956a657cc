// The backups' work on the jobs worker (ADR 0028): what each cron tick does.
// - advanceBackupWork (every minute): restores first, then snapshots being written, then
//   rehearsals; each resumes from its row's cursor and stops when the run's budget is spent.
// - queueNightlyBackup (03:00 UTC): one scheduled snapshot per organization and night.
// - applyRetention (03:00 UTC, after it): retention.server.ts.
import type { Client } from "@libsql/client";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { Budget, type WorkOptions } from "./budget";
import { backupKey } from "./keys";
import { advanceRehearsal } from "./rehearse.server";
import { advanceRestore } from "./restore.server";
import { continueSnapshot, startSnapshot } from "./snapshot.server";
import { dropAll, leftovers } from "./tables.server";

export { applyRetention, RETENTION, retentionRule } from "./retention.server";

/**
 * Moves the backups' work in progress as far as one run's budget allows. Answers what it did, or
 * undefined when there was nothing to do (the jobs list records no run then).
 */
export async function advanceBackupWork(
  db: Database,
  files: R2Bucket,
  at: Date,
  options: WorkOptions = {},
): Promise<string | undefined> {
  const budget = new Budget(options.budgetMs);
  const report = options.report ?? ((error: unknown) => console.error(error));
  const done: string[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const step = await nextStep(db, files, at, budget, options, report);
    if (!step) break;
    done.push(step);
    if (budget.spent) break;
  }
  return done.length ? summarize(done) : undefined;
}

async function nextStep(
  db: Database,
  files: R2Bucket,
  at: Date,
  budget: Budget,
  options: WorkOptions,
  report: (error: unknown) => void,
): Promise<string | undefined> {
  const [restore] = await db
    .select()
    .from(schema.backupRestores)
    .where(inArray(schema.backupRestores.status, ["queued", "checking", "staging", "switching"]))
    .orderBy(asc(schema.backupRestores.requestedAt))
    .limit(1);
  if (restore) {
    const outcome = await advanceRestore(db, files, restore, budget);
    return `restore ${restore.id} ${outcome}`;
  }
  const [writing] = await db
    .select()
    .from(schema.backups)
    .where(inArray(schema.backups.status, ["queued", "writing"]))
    .orderBy(asc(schema.backups.requestedAt))
    .limit(1);
  if (writing) {
    const outcome = await withStrikes(db, files, writing, report, "snapshot", () =>
      writing.status === "queued"
        ? startSnapshot(db, files, writing, at)
        : continueSnapshot(db, files, writing, budget, options.partBytes),
    );
    return `snapshot ${writing.id} ${outcome}`;
  }
  // A rehearsal under way first: a pending one would drop its staging tables.
  const [rehearsal] = await db
    .select()
    .from(schema.backups)
    .where(and(eq(schema.backups.status, "ready"), inArray(schema.backups.rehearsalStatus, ["running", "pending"])))
    .orderBy(desc(schema.backups.rehearsalStatus), asc(schema.backups.requestedAt))
    .limit(1);
  if (rehearsal) {
    const outcome = await withStrikes(db, files, rehearsal, report, "rehearsal", () =>
      advanceRehearsal(db, files, rehearsal, budget, report),
    );
    return `rehearsal ${rehearsal.id} ${outcome}`;
  }
  return undefined;
}

/** Errors a snapshot or rehearsal may meet before it is given up as failed (a transient one is retried). */
export const STRIKES = 3;

/**
 * Runs a step; an error is counted on the row (cursor.failures) and thrown, so the job records it
 * and the next run retries. The third gives the work up: a snapshot is marked failed (its upload
 * aborted, its frozen copy dropped), a rehearsal failed, in words, and the error reported.
 */
async function withStrikes(
  db: Database,
  files: R2Bucket,
  backup: { id: string; r2Key: string; cursor: Record<string, unknown> | null },
  report: (error: unknown) => void,
  what: "snapshot" | "rehearsal",
  step: () => Promise<string>,
): Promise<string> {
  try {
    return await step();
  } catch (error) {
    const client = db.$client as Client;
    const failures = Number(backup.cursor?.failures ?? 0) + 1;
    if (failures < STRIKES) {
      await client.execute({
        sql: "UPDATE backups SET cursor = json_set(coalesce(cursor, '{}'), '$.failures', ?) WHERE id = ?",
        args: [failures, backup.id],
      });
      throw error;
    }
    const message = `The ${what} stopped ${STRIKES} times: ${String((error as Error)?.message ?? error).slice(0, 300)}`;
    report(new Error(`Backup ${backup.id}: ${message}`, { cause: error }));
    if (what === "snapshot") {
      const uploadId = backup.cursor?.uploadId;
      if (typeof uploadId === "string")
        await files
          .resumeMultipartUpload(backup.r2Key, uploadId)
          .abort()
          .catch(() => {});
      await client.batch(
        [
          ...dropAll(await leftovers(client, "frozen")),
          {
            sql: "UPDATE backups SET status = 'failed', error = ?, finished_at = ?, cursor = NULL WHERE id = ?",
            args: [message, Date.now(), backup.id],
          },
        ],
        "write",
      );
    } else {
      await client.batch(
        [
          ...dropAll(await leftovers(client, "rehearsal")),
          {
            sql: `UPDATE backups SET rehearsal_status = 'failed', rehearsed_at = ?, rehearsal = ?, cursor = NULL
              WHERE id = ?`,
            args: [Date.now(), JSON.stringify({ passed: false, message }), backup.id],
          },
        ],
        "write",
      );
    }
    return "failed";
  }
}

function summarize(steps: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(step, (counts.get(step) ?? 0) + 1);
  return [...counts].map(([step, n]) => (n > 1 ? `${step} ×${n}` : step)).join("; ");
}

/**
 * Queues tonight's scheduled snapshot for each organization that has none from the schedule yet
 * today (UTC), so a cron fired twice queues one.
 */
export async function queueNightlyBackup(db: Database, at: Date): Promise<string> {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const organizations = await db.select({ id: schema.organizations.id }).from(schema.organizations);
  let queued = 0;
  for (const organization of organizations) {
    const id = uuidv7();
    const result = await (db.$client as Client).execute({
      sql: `INSERT INTO backups (id, organization_id, origin, requested_by, requested_at, status, r2_key, rows_done)
        SELECT ?, ?, 'schedule', NULL, ?, 'queued', ?, 0
        WHERE NOT EXISTS (SELECT 1 FROM backups WHERE organization_id = ? AND origin = 'schedule'
          AND requested_at >= ? AND requested_at < ?)`,
      args: [id, organization.id, at.getTime(), backupKey(id), organization.id, day, day + 86_400_000],
    });
    queued += result.rowsAffected;
  }
  return `queued ${queued}`;
}
