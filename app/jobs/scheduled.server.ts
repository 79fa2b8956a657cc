// What a cron tick runs. Each job records its run in job_runs, so a silent cron is visible.
// Imports and backups join the list in their own issues; the heartbeat proves the wiring. Every job
// runs on every tick (production every 5 minutes, and `npm start` fires the same tick locally).
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { wasteAtDeadline } from "~/vials/waste.server";

interface Tick {
  cron: string;
  at: Date;
}

type Job = (db: Database, tick: Tick) => Promise<string | undefined>;

const JOBS: Record<string, Job> = {
  heartbeat: async () => "alive",
  // In-use vials past their Use-By Deadline: what is left is wasted and the vial discarded.
  waste_at_deadline: async (db, tick) => `wasted ${(await wasteAtDeadline(db, tick.at)).wasted}`,
};

export async function runScheduledJobs(db: Database, tick: Tick): Promise<void> {
  for (const [name, job] of Object.entries(JOBS)) await recordRun(db, name, tick, job);
}

async function recordRun(db: Database, job: string, tick: Tick, run: Job): Promise<void> {
  const [started] = await db
    .insert(schema.jobRuns)
    .values({ job, cron: tick.cron, startedAt: tick.at, status: "running" })
    .returning({ id: schema.jobRuns.id });
  if (!started) throw new Error(`Could not record the start of job ${job}`);
  try {
    const detail = await run(db, tick);
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
