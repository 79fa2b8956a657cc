// How long one scheduled run may work before it commits and leaves the rest to the next run.

/** A run of the every-minute work cron stops starting new steps after this long. */
export const RUN_BUDGET_MS = 40_000;
/**
 * Or after this many requests to the database and R2: a Worker invocation may make 1,000
 * subrequests on the Standard plan (10,000 on today's paid plan); the rest is left for the job's own
 * bookkeeping and the step that is finishing.
 */
export const RUN_REQUESTS = 800;

export interface WorkOptions {
  /** Milliseconds this run may start new steps for (a step that started finishes). */
  budgetMs?: number;
  /** Where a handled failure goes (a failed rehearsal): the worker's error reporter. */
  report?: (error: unknown) => void;
  /** R2 part size; tests of several parts use R2's minimum, as production does. */
  partBytes?: number;
}

export class Budget {
  private readonly until: number;
  private requests = 0;
  constructor(
    budgetMs = RUN_BUDGET_MS,
    private readonly maxRequests = RUN_REQUESTS,
  ) {
    this.until = Date.now() + budgetMs;
  }
  /** Counts requests made (a page read, a batch, an R2 call). */
  spend(requests = 1): void {
    this.requests += requests;
  }
  get spent(): boolean {
    return Date.now() >= this.until || this.requests >= this.maxRequests;
  }
  get requestsMade(): number {
    return this.requests;
  }
}
