// What a cron tick runs. Each job names the cron it runs on, and a tick runs only the jobs of the
// cron that fired (production: wrangler.jobs.toml; `npm start` fires the same ticks locally). Each
// job records its run in job_runs, so a silent cron is visible.
import { eq } from "drizzle-orm";
import { advanceBackupWork, applyRetention, queueNightlyBackup } from "~/backups/work.server";
import { workOutCountReviews } from "~/counts/review.server";
import { workOutOrganizationFigures } from "~/dashboard/organization-figures.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { advanceImports } from "~/imports/work.server";
import { workOutReconciliation } from "~/reconciliation/worked-out.server";
import { workOutBalancingSuggestions } from "~/transfers/suggestions.server";
import { wasteAtDeadline } from "~/vials/waste.server";

/** The crons of wrangler.jobs.toml, by what they are for. */
export const CRONS = {
  /** Every five minutes: deadlines and the heartbeat. */
  fiveMinutes: "*/5 * * * *",
  /** Every minute: work in progress that resumes run after run (backups, restores, sales imports). */
  work: "* * * * *",
  /** 03:00 UTC: the nightly snapshot, then the retention rule. */
  nightly: "0 3 * * *",
} as const;

export interface Tick {
  cron: string;
  at: Date;
}

/** What a job may use besides the database: the FILES bucket (snapshots, uploads), the error reporter. */
export interface JobBindings {
  files: R2Bucket;
  /** A failure the job handled but someone must hear of (a failed rehearsal): the worker's reporter. */
  report: (error: unknown) => void;
}

/** A job's detail for job_runs; `undefined` from a job marked `quietWhenIdle` means it found nothing to do. */
type Job = (db: Database, tick: Tick, bindings: JobBindings) => Promise<string | undefined>;

interface ScheduledJob {
  name: string;
  cron: string;
  run: Job;
  /** A run that found nothing to do leaves no job_runs row (the every-minute work cron: 1,440 a day). */
  quietWhenIdle?: boolean;
  /** Only a failure leaves a job_runs row (routine work every minute; the heartbeat shows the cron runs). */
  quietUnlessFailed?: boolean;
}

/** Every job with the one cron it runs on; in each cron, the jobs run in this order. */
export const JOBS: readonly ScheduledJob[] = [
  { name: "heartbeat", cron: CRONS.fiveMinutes, run: async () => "alive" },
  // In-use vials past their Use-By Deadline: what is left is wasted and the vial discarded.
  {
    name: "waste_at_deadline",
    cron: CRONS.fiveMinutes,
    run: async (db, tick) => `wasted ${(await wasteAtDeadline(db, tick.at)).wasted}`,
  },
  // The organization's dashboard figures, read in organization mode (app/dashboard/organization-figures.server.ts),
  // first: a long share of backup work does not hold them back.
  {
    name: "dashboard_figures",
    cron: CRONS.work,
    run: async (db, tick) => workOutOrganizationFigures(db, tick.at),
    quietUnlessFailed: true,
  },
  // The balancing suggestions /transfers shows (app/transfers/suggestions.server.ts), likewise.
  {
    name: "balancing_suggestions",
    cron: CRONS.work,
    run: async (db, tick) => workOutBalancingSuggestions(db, tick.at),
    quietUnlessFailed: true,
  },
  {
    name: "reconciliation_figures",
    cron: CRONS.work,
    run: async (db, tick) => workOutReconciliation(db, tick.at),
    quietUnlessFailed: true,
  },
  // The figures of counts awaiting review, and of those just approved, that their review page reads
  // (app/counts/review.server.ts), likewise.
  {
    name: "count_reviews",
    cron: CRONS.work,
    run: async (db) => workOutCountReviews(db),
    quietUnlessFailed: true,
  },
  // Snapshots being written, rehearsals, restores: a bounded share of each per run.
  {
    name: "backup_work",
    cron: CRONS.work,
    run: async (db, tick, { files, report }) => advanceBackupWork(db, files, tick.at, { report }),
    quietWhenIdle: true,
  },
  // Sales imports: a bounded share of the queued files' chunks per run, then the retail lines to
  // book from stock (app/imports/work.server.ts).
  {
    name: "sales_imports",
    cron: CRONS.work,
    run: async (db, tick, { files }) => advanceImports(db, files, tick.at),
    quietWhenIdle: true,
  },
  { name: "nightly_backup", cron: CRONS.nightly, run: async (db, tick) => queueNightlyBackup(db, tick.at) },
  {
    name: "backup_retention",
    cron: CRONS.nightly,
    run: async (db, tick, { files }) => applyRetention(db, files, tick.at),
  },
];

/** The jobs of one cron, in order. */
export function jobsOf(cron: string) {
  return JOBS.filter((job) => job.cron === cron);
}

/**
 * Runs the jobs of the cron that fired. A job that fails is recorded and the others still run;
 * the first failure is thrown at the end so the worker reports it.
 */
export async function runScheduledJobs(db: Database, tick: Tick, bindings: JobBindings): Promise<void> {
  let failure: unknown;
  for (const job of jobsOf(tick.cron)) {
    try {
      if (job.quietWhenIdle || job.quietUnlessFailed) await runQuietly(db, job, tick, bindings);
      else await recordRun(db, job.name, tick, () => job.run(db, tick, bindings));
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/** Runs a job first and records it only if it failed, or did something and is not quiet unless failed. */
async function runQuietly(db: Database, job: ScheduledJob, tick: Tick, bindings: JobBindings): Promise<void> {
  let outcome: { detail: string | undefined } | { error: unknown };
  try {
    outcome = { detail: await job.run(db, tick, bindings) };
  } catch (error) {
    outcome = { error };
  }
  if ("detail" in outcome && (outcome.detail === undefined || job.quietUnlessFailed)) return;
  await recordRun(db, job.name, tick, async () => {
    if ("error" in outcome) throw outcome.error;
    return outcome.detail;
  });
}

async function recordRun(db: Database, job: string, tick: Tick, run: () => Promise<string | undefined>): Promise<void> {
  const [started] = await db
    .insert(schema.jobRuns)
    .values({ job, cron: tick.cron, startedAt: tick.at, status: "running" })
    .returning({ id: schema.jobRuns.id });
  if (!started) throw new Error(`Could not record the start of job ${job}`);
  try {
    const detail = await run();
    await db
      .update(schema.jobRuns)
      .set({ status: "succeeded", finishedAt: new Date(), detail: detail ?? null })
      .where(eq(schema.jobRuns.id, started.id));
  } catch (error) {
    await db
      .update(schema.jobRuns)
      .set({ status: "failed", finishedAt: new Date(), detail: String(error).slice(0, 1000) })
      .where(eq(schema.jobRuns.id, started.id));
    throw error;
  }
}
