// How long one scheduled run may work before it commits and leaves the rest to the next run.

/** A run of the every-minute work cron stops starting new steps after this long. */
export const RUN_BUDGET_MS = 40_000;

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
  constructor(budgetMs = RUN_BUDGET_MS) {
    this.until = Date.now() + budgetMs;
  }
  get spent(): boolean {
    return Date.now() >= this.until;
  }
}
