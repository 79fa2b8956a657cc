// The jobs worker: cron-triggered work with no UI (deadlines, backups and restores, CSV imports).
import "../app/context";
import { createDatabase } from "../app/db/client.server";
import type { Env } from "../app/env.server";
import { runScheduledJobs } from "../app/jobs/scheduled.server";
import { reportError } from "../app/observability/report.server";

export default {
  async scheduled(controller, env, ctx) {
    try {
      await runScheduledJobs(
        createDatabase(env),
        { cron: controller.cron, at: new Date(controller.scheduledTime) },
        { files: env.FILES, report: (error) => reportError(error, { env, ctx }) },
      );
    } catch (error) {
      reportError(error, { env, ctx });
      throw error;
    }
  },
  // No routes: the jobs worker is reached only by its cron triggers.
  async fetch() {
    return Response.json({ error: "The jobs worker has no routes; it runs on its cron schedule." }, { status: 404 });
  },
} satisfies ExportedHandler<Env>;
