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
    const outcome =
      writing.status === "queued"
        ? await startSnapshot(db, files, writing, at)
        : await continueSnapshot(db, files, writing, budget, options.partBytes);
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
    const outcome = await advanceRehearsal(db, files, rehearsal, budget, report);
    return `rehearsal ${rehearsal.id} ${outcome}`;
  }
  return undefined;
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
