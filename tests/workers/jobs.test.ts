// The jobs worker's scheduled handler, run inside workerd against the test database.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase, schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import jobs from "../../workers/jobs";

describe("jobs worker", () => {
  it("records a heartbeat run for each cron tick", async () => {
    const scheduledTime = Date.UTC(2026, 10, 22, 3, 0, 0);
    const ctx = createExecutionContext();
    await jobs.scheduled?.(
      { cron: "0 3 * * *", scheduledTime, type: "scheduled", noRetry: () => {} } as ScheduledController,
      env as unknown as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);

    const db = createDatabase(env as unknown as Env);
    const newest = (job: string) =>
      db.select().from(schema.jobRuns).where(eq(schema.jobRuns.job, job)).orderBy(desc(schema.jobRuns.id)).limit(1);
    const [run] = await newest("heartbeat");
    expect(run).toMatchObject({ job: "heartbeat", cron: "0 3 * * *", status: "succeeded", detail: "alive" });
    // Every job runs on each tick, the waste at the Use-By Deadline too.
    const [waste] = await newest("waste_at_deadline");
    expect(waste).toMatchObject({
      cron: "0 3 * * *",
      status: "succeeded",
      detail: expect.stringMatching(/^wasted \d+$/),
    });
    expect(run?.startedAt.getTime()).toBe(scheduledTime);
    expect(run?.finishedAt).toBeInstanceOf(Date);
  });
});
