import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, instant } from "../columns";

/** One row per run of a scheduled job, so an admin (and a test) can see the cron is alive. */
export const jobRuns = sqliteTable(
  "job_runs",
  {
    id: id(),
    job: text("job").notNull(),
    cron: text("cron"),
    startedAt: instant("started_at").notNull(),
    finishedAt: instant("finished_at"),
    status: text("status", { enum: ["running", "succeeded", "failed"] }).notNull(),
    detail: text("detail"),
  },
  (t) => [
    // Serves "last run of each job".
    index("job_runs_job_started_idx").on(t.job, t.startedAt),
  ],
);
