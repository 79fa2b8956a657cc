// The reconciliation's question, as the screen's GET form, its CSV link, the drill-down's links and
// GET /api/reconciliation send it: a period of whole days (in the location's time zone; UTC in
// organization mode), a flag threshold in percent, and the page. One schema for all of them (ADR
// 0026); a value it cannot use is refused with its message, never read as "no filter".
import { z } from "zod";
import { filterText, pageNumber } from "~/forms/text";
import { calendarDateParts } from "~/ui/dates";

export const RECONCILIATION_PAGE_SIZE = 25;
/** The API's rows a page unless `pageSize` says otherwise (at most 500): a chain's year is 4,700 rows. */
export const RECONCILIATION_API_PAGE_SIZE = 100;
export const RECONCILIATION_API_MAX_PAGE_SIZE = 500;

/** Which movements the drill-down lists: every one, or those behind one figure of the split. */
export const MOVEMENT_KINDS = ["all", "drawn", "waste", "loss", "sale"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];
/** Days the period covers when none is asked for, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** Longest period read at once (a year and a day: a leap year's 365 days back and today). */
export const MAX_PERIOD_DAYS = 366;
/** A row is flagged when its variance is more than this many percent of what was expected. */
export const DEFAULT_THRESHOLD = 10;

export const RECONCILIATION_MESSAGES = {
  day: "Enter a date as YYYY-MM-DD, e.g. 2026-11-25.",
  order: "The period ends before it starts: pick a 'to' date on or after the 'from' date.",
  long: `A period is at most ${MAX_PERIOD_DAYS} days: pick a later 'from' date or an earlier 'to' date.`,
  threshold: "The threshold is a percentage from 0 to 1000, e.g. 10.",
  id: "An id is at most 100 characters: choose it again from the list.",
} as const;
const M = RECONCILIATION_MESSAGES;

const day = z
  .string({ error: M.day })
  .trim()
  .refine((value) => value === "" || calendarDateParts(value) !== null, M.day)
  .default("");

export const ReconciliationQuery = z.object({
  from: day,
  to: day,
  threshold: z
    .union([z.literal(""), z.coerce.number({ error: M.threshold }).min(0, M.threshold).max(1000, M.threshold)], {
      error: M.threshold,
    })
    .default(""),
  /** Organization mode: one location's figures (the drill-down from a location's row). */
  locationId: filterText(100, M.id),
  page: pageNumber(),
  /** The API's rows a page (the screen shows RECONCILIATION_PAGE_SIZE). */
  pageSize: z.coerce.number().int().min(1).max(RECONCILIATION_API_MAX_PAGE_SIZE).catch(RECONCILIATION_API_PAGE_SIZE),
  /** The drill-down's second list (the movements), paged apart from its sales rows. */
  mpage: pageNumber(),
  /** The drill-down's movements: all of them, or those behind one figure. */
  kind: z.enum(MOVEMENT_KINDS).catch("all"),
  /** The table as a CSV file instead of the page (`/reconciliation?format=csv`, as /reconciliation.csv). */
  format: z.enum(["html", "csv"]).catch("html"),
});
export type ReconciliationQueryInput = z.output<typeof ReconciliationQuery>;

export interface Period {
  /** First day, "YYYY-MM-DD". */
  from: string;
  /** Last day, included. */
  to: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** "YYYY-MM-DD" `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysIn(period: Period): number {
  return Math.round((Date.parse(`${period.to}T12:00:00Z`) - Date.parse(`${period.from}T12:00:00Z`)) / DAY_MS) + 1;
}

/** Today's date in `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/**
 * The period asked for: each end as given, a missing `to` is today (in `timeZone`), a missing
 * `from` the 30 days up to `to`. A period that ends before it starts, or runs past a year, is a
 * problem (said under the dates), not quietly swapped or cut.
 */
export function periodOf(
  query: Pick<ReconciliationQueryInput, "from" | "to">,
  timeZone: string,
  now: Date,
): { period: Period; problem: string | null } {
  const to = query.to || todayIn(timeZone, now);
  const from = query.from || addDays(to, 1 - DEFAULT_PERIOD_DAYS);
  const period = { from, to };
  const days = daysIn(period);
  if (days < 1) return { period, problem: M.order };
  if (days > MAX_PERIOD_DAYS) return { period, problem: M.long };
  return { period, problem: null };
}

/** The threshold asked for, or the default. */
export function thresholdOf(query: Pick<ReconciliationQueryInput, "threshold">): number {
  return query.threshold === "" ? DEFAULT_THRESHOLD : query.threshold;
}

/** The question's parameters as a link carries them (period always; threshold when not the default). */
export function periodParams(period: Period, threshold: number, locationId?: string | null): URLSearchParams {
  const params = new URLSearchParams({ from: period.from, to: period.to });
  if (threshold !== DEFAULT_THRESHOLD) params.set("threshold", String(threshold));
  if (locationId) params.set("locationId", locationId);
  return params;
}
