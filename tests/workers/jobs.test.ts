// The jobs worker's scheduled handler, run inside workerd against the test database: a tick runs
// only the jobs of the cron that fired, and every cron a job names is one wrangler.jobs.toml fires.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase, schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { CRONS, JOBS, jobsOf } from "../../app/jobs/scheduled.server";
import jobs from "../../workers/jobs";
import jobsConfig from "../../wrangler.jobs.toml?raw";

const db = createDatabase(env as unknown as Env);

async function tick(cron: string, scheduledTime: number) {
  const ctx = createExecutionContext();
  await jobs.scheduled?.(
    { cron, scheduledTime, type: "scheduled", noRetry: () => {} } as ScheduledController,
    env as unknown as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** The runs of the tick at `at` (each tick gets its own instant here). */
async function runsAt(at: number) {
  return db
    .select()
    .from(schema.jobRuns)
    .where(eq(schema.jobRuns.startedAt, new Date(at)))
    .orderBy(desc(schema.jobRuns.id));
}

describe("jobs worker", () => {
  it("runs the five-minute jobs on the five-minute cron, and never the nightly ones", async () => {
    const at = Date.UTC(2026, 10, 22, 2, 55, 0);
    await tick(CRONS.fiveMinutes, at);
    const runs = await runsAt(at);
    expect(runs.map((r) => r.job).sort()).toEqual(["heartbeat", "waste_at_deadline"]);
    expect(runs.find((r) => r.job === "heartbeat")).toMatchObject({
      cron: CRONS.fiveMinutes,
      status: "succeeded",
      detail: "alive",
    });
    expect(runs.find((r) => r.job === "waste_at_deadline")?.detail).toMatch(/^wasted \d+$/);
    expect(runs[0]?.finishedAt).toBeInstanceOf(Date);
  });

  it("runs the nightly backup only on the nightly cron, and none of the five-minute jobs there", async () => {
    const at = Date.UTC(2026, 10, 22, 3, 0, 0);
    await tick(CRONS.nightly, at);
    const runs = await runsAt(at);
    expect(runs.map((r) => r.job).sort()).toEqual(["backup_retention", "nightly_backup"]);
    expect(runs.find((r) => r.job === "nightly_backup")).toMatchObject({ status: "succeeded", detail: "queued 1" });
    const queued = await db
      .select()
      .from(schema.backups)
      .where(and(eq(schema.backups.origin, "schedule"), eq(schema.backups.requestedAt, new Date(at))));
    expect(queued).toMatchObject([{ status: "queued", requestedBy: null }]);

    // The same cron fired twice that night queues nothing more; the other crons never queue one.
    await tick(CRONS.nightly, at + 1000);
    expect((await runsAt(at + 1000)).find((r) => r.job === "nightly_backup")?.detail).toBe("queued 0");
    for (const cron of [CRONS.fiveMinutes, CRONS.work]) {
      await tick(cron, at + 2000);
      expect((await runsAt(at + 2000)).map((r) => r.job)).not.toContain("nightly_backup");
    }
  });

  it("works out the organizations' dashboard figures on the work cron, recording only a failure", async () => {
    const at = Date.UTC(2026, 10, 22, 3, 2, 0);
    await tick(CRONS.work, at);
    const figures = await db.select().from(schema.workedOut).where(eq(schema.workedOut.kind, "dashboard_figures"));
    expect(figures.length).toBeGreaterThan(0);
    for (const row of figures) {
      expect(row.computedAt).toEqual(new Date(at));
      expect(JSON.parse(row.body).stats).toHaveProperty("vialsOnHand");
      expect(JSON.parse(row.body).waste).toHaveProperty("byReason");
    }
    expect((await runsAt(at)).map((r) => r.job)).not.toContain("dashboard_figures");
    // The other crons leave them as they were.
    await tick(CRONS.fiveMinutes, at + 60_000);
    for (const row of await db.select().from(schema.workedOut)) expect(row.computedAt).toEqual(new Date(at));
  });

  it("has the work cron write the queued snapshot to the FILES bucket", async () => {
    const at = Date.UTC(2026, 10, 22, 3, 1, 0);
    for (let run = 0; run < 20; run++) await tick(CRONS.work, at + run);
    const [backup] = await db.select().from(schema.backups).where(eq(schema.backups.origin, "schedule"));
    expect(backup).toMatchObject({ status: "ready", rehearsalStatus: "passed" });
    const file = await (env as unknown as Env).FILES.head(backup?.r2Key ?? "");
    expect(file?.size).toBe(backup?.sizeBytes);
  });

  it("names only crons that wrangler.jobs.toml fires, and every one of them has a job", () => {
    const crons = JSON.parse(/^crons\s*=\s*(\[.*\])$/m.exec(jobsConfig)?.[1] ?? "[]") as string[];
    expect(new Set(JOBS.map((j) => j.cron))).toEqual(new Set(crons));
    expect(jobsOf(CRONS.nightly).map((j) => j.name)).toEqual(["nightly_backup", "backup_retention"]);
  });
});
