// The jobs worker's scheduled handler, run inside workerd against the test database.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { desc } from "drizzle-orm";
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
    const [run] = await db.select().from(schema.jobRuns).orderBy(desc(schema.jobRuns.id)).limit(1);
    expect(run).toMatchObject({ job: "heartbeat", cron: "0 3 * * *", status: "succeeded", detail: "alive" });
    expect(run?.startedAt.getTime()).toBe(scheduledTime);
    expect(run?.finishedAt).toBeInstanceOf(Date);
  });
});
