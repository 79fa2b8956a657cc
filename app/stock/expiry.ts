// Item expiry (spec section 4 "Item expiry"): an item's deadline, how much of its life is left as
// one of five bands, and the label and time-left texts the screens show (dates and times written by
// ~/ui/dates). Browser-safe: the API computes `isExpired` with it and the screens render the same words.
import { calendarDayIn, calendarDateParts as dateParts, formatDate, showInstant } from "~/ui/dates";

/** An instant as the database (Date), JSON (ISO string) or a timer (epoch ms) carries it. */
export type Instant = Date | string | number;

/** What expiry is computed from; the fields of spec section 3 "Item expiry data", plus receivedAt. */
export interface ItemExpiry {
  state: string;
  /** YYYY-MM-DD, the manufacturer's expiry: the end of that day in UTC (spec section 3). */
  expirationDate?: string | null;
  /** An in-use item's use-by deadline, counted from startedAt. */
  expiresAt?: Instant | null;
  startedAt?: Instant | null;
  /**
   * When it was received here. Not part of the band (ADR 0019: a sealed item's life is the year
   * before its deadline, so one lot reads the same at every location); kept so callers may pass a vial.
   */
  receivedAt?: Instant | null;
}

export const EXPIRY_BANDS = ["expired", "critical", "warning", "caution", "safe"] as const;
export type ExpiryBand = (typeof EXPIRY_BANDS)[number];

/** Upper bounds (percent of life left, inclusive) of the bands below "safe" (spec section 9). */
const BAND_LIMITS: readonly (readonly [number, ExpiryBand])[] = [
  [0, "expired"],
  [10, "critical"],
  [25, "warning"],
  [50, "caution"],
];

export const USE_BY_DEADLINE = "Use-By Deadline";
export const MANUFACTURER_EXPIRATION = "Manufacturer Expiration";
export const EXPIRED = "Expired";
export const NO_EXPIRATION_DATE = "No expiration date";

/**
 * A sealed item's total life for its band (ADR 0019): the 360 days up to its deadline, whenever and
 * wherever it was received. The bands then fall at fixed distances from the date: critical within
 * 36 days, warning within 90, caution within 180, safe beyond.
 */
export const SEALED_LIFE_DAYS = 360;

/** Screens flag a sealed lot as "expiring soon" this many days ahead. */
export const EXPIRING_SOON_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

function instant(value: Instant | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value);
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (no 2027-02-30). */
export function isCalendarDate(text: string): boolean {
  return dateParts(text) !== null;
}

/** The last millisecond of `date` in UTC; an Invalid Date when `date` is not a real calendar date. */
export function expirationEndOfDay(date: string): Date {
  const parts = dateParts(date);
  if (!parts) return new Date(Number.NaN);
  const [y, m, d] = parts;
  return new Date(Date.UTC(y, m - 1, d + 1) - 1);
}

/**
 * When the item stops being usable: an in-use item's expiresAt, any other item's expiration date
 * (end of that day, UTC). Null when that date is missing; an Invalid Date when it does not parse.
 */
export function deadlineOf(item: ItemExpiry): Date | null {
  if (item.state === "in_use") return instant(item.expiresAt);
  return item.expirationDate ? expirationEndOfDay(item.expirationDate) : null;
}

/**
 * When the item's life started: an in-use item's startedAt; any other item's deadline less
 * SEALED_LIFE_DAYS, so its band depends on its date alone, not on when this location received it.
 */
function lifeStartOf(item: ItemExpiry): Date | null {
  if (item.state === "in_use") return instant(item.startedAt);
  const deadline = deadlineOf(item);
  return deadline && new Date(deadline.getTime() - SEALED_LIFE_DAYS * DAY_MS);
}

/**
 * Life left, as a percentage of the whole span from start to deadline (negative once passed).
 * Missing or invalid dates, or a span of zero or less, count as no life left: 0.
 */
export function remainingLifePercent(item: ItemExpiry, now: Date): number {
  const deadline = deadlineOf(item)?.getTime() ?? Number.NaN;
  const start = lifeStartOf(item)?.getTime() ?? Number.NaN;
  const total = deadline - start;
  if (!Number.isFinite(total) || total <= 0) return 0;
  return ((deadline - now.getTime()) / total) * 100;
}

/** expired at 0 or below; critical up to 10; warning up to 25; caution up to 50; safe above 50. */
export function bandForPercent(percent: number): ExpiryBand {
  if (Number.isNaN(percent)) return "expired";
  for (const [limit, band] of BAND_LIMITS) if (percent <= limit) return band;
  return "safe";
}

export function expiryBand(item: ItemExpiry, now: Date): ExpiryBand {
  return bandForPercent(remainingLifePercent(item, now));
}

/**
 * Whether the item is reported as expired: its deadline has passed, or (spec section 4) its dates
 * are missing or invalid or its life span is zero or negative.
 */
export function isExpired(item: ItemExpiry, now: Date): boolean {
  return expiryBand(item, now) === "expired";
}

/** "2d 3h" from a day on, "5h 12m" from an hour on, else "42m"; never negative. */
export function formatDuration(ms: number): string {
  const left = Math.max(0, Math.floor(ms));
  const days = Math.floor(left / DAY_MS);
  const hours = Math.floor((left % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((left % HOUR_MS) / MINUTE_MS);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}

/**
 * "Mar 5, 14:30 EST" for a use-by deadline, in `timeZone` (the location's) when given, else the
 * runtime's own zone; another year's deadline reads as its date ("Mar 5, 2025"), see ~/ui/dates.
 */
export function formatUseBy(at: Instant, timeZone?: string, now: Date = new Date()): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return showInstant(at, zone, now)?.text ?? "";
}

export interface ExpiryLabel {
  band: ExpiryBand;
  /** "Use-By Deadline", "Manufacturer Expiration" or "Expired". */
  label: string;
  /** The date (or "No expiration date"), or "{time} left" for an in-use item. */
  text: string;
  /** Beside a manufacturer expiration date: the days left in words ("9 days left", see daysLeftText). */
  left?: string;
}

/**
 * What an item's expiry reads as (spec section 4): once expired, which deadline passed ("Use-By
 * Deadline" with its time, "Manufacturer Expiration" with its date), else "Expired"; before that,
 * "Use-By Deadline" with the time left for an in-use item, else "Manufacturer Expiration".
 */
export function expiryLabel(item: ItemExpiry, now: Date, timeZone?: string): ExpiryLabel {
  const band = expiryBand(item, now);
  const expirationDate = item.expirationDate && dateParts(item.expirationDate) ? item.expirationDate : null;
  const dateText = expirationDate ? formatDate(expirationDate) : NO_EXPIRATION_DATE;
  const useBy = item.state === "in_use" ? instant(item.expiresAt) : null;
  const validUseBy = useBy && !Number.isNaN(useBy.getTime()) ? useBy : null;
  if (band === "expired") {
    if (validUseBy && validUseBy.getTime() <= now.getTime()) {
      return { band, label: USE_BY_DEADLINE, text: formatUseBy(validUseBy, timeZone, now) };
    }
    if (expirationDate && expirationEndOfDay(expirationDate).getTime() <= now.getTime()) {
      return { band, label: MANUFACTURER_EXPIRATION, text: dateText, ...leftOf(expirationDate, now, timeZone) };
    }
    return { band, label: EXPIRED, text: dateText };
  }
  if (item.state === "in_use" && validUseBy) {
    return { band, label: USE_BY_DEADLINE, text: `${formatDuration(validUseBy.getTime() - now.getTime())} left` };
  }
  return { band, label: MANUFACTURER_EXPIRATION, text: dateText, ...leftOf(expirationDate, now, timeZone) };
}

function leftOf(date: string | null, now: Date, timeZone?: string): { left?: string } {
  const left = daysLeftText(date, now, timeZone);
  return left ? { left } : {};
}

const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);

/**
 * An expiration date's distance in words: "9 days left", "1 day left", "Expires today", then
 * "Expired today", "Expired 3 days ago". Days are counted between calendar dates in `timeZone`
 * (the location's; default the runtime's), the way its other dates read; whether it has expired is
 * the deadline's instant (end of the day in UTC), so the words never contradict the band. Null for
 * no date or one not on the calendar.
 */
export function daysLeftText(date: string | null | undefined, now: Date, timeZone?: string): string | null {
  if (!date || !dateParts(date)) return null;
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = daysUntilExpiration(date, new Date(`${calendarDayIn(now, zone)}T12:00:00.000Z`)) ?? 0;
  if (expirationEndOfDay(date).getTime() <= now.getTime()) {
    return today >= 0 ? "Expired today" : `Expired ${days(-today)} ago`;
  }
  return today <= 0 ? "Expires today" : `${days(today)} left`;
}

/**
 * Whole calendar days (UTC) from `now` to an expiration date: 0 on the day itself, negative once
 * it has passed. Null for a date that does not parse.
 */
export function daysUntilExpiration(date: string, now: Date): number | null {
  const parts = dateParts(date);
  if (!parts) return null;
  const [y, m, d] = parts;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.UTC(y, m - 1, d) - today) / DAY_MS);
}

/** How a lot's expiration date reads on a list: passed, within EXPIRING_SOON_DAYS, or later. */
export function expirationUrgency(date: string | null, now: Date): "expired" | "soon" | "later" | null {
  if (!date) return null;
  const days = daysUntilExpiration(date, now);
  if (days === null || days < 0) return "expired";
  return days <= EXPIRING_SOON_DAYS ? "soon" : "later";
}
