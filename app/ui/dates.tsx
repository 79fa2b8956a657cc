// Dates and times as every screen and message shows them: spec section 4's formats (date-fns
// strings 'MMM d, yyyy' and 'MMM d, H:mm'), nothing else. The one place a date or time is turned
// into text; loaders call it so a page hydrates with the server's text and date-fns stays off the
// client.
//
// - A calendar date ("YYYY-MM-DD": expiration dates) is a day as written, in no time zone:
//   "Mar 5, 2027".
// - An instant is shown as the wall-clock time of the location it belongs to, followed by that
//   zone's short name: "Nov 22, 14:05 EST". A row is always shown in its own location's zone, so
//   the same instant reads the same in location and organization mode; where there is no location
//   (organization mode on a screen about users or products) the zone is UTC and says so.
// - 'MMM d, H:mm' has no year, so an instant outside the current year (in that zone) is shown as
//   its date alone, 'MMM d, yyyy' ("Mar 3, 2025"); the exact time and zone stay in the `title`.
//
// The three patterns are written out (./clock) rather than by date-fns's `format`: live screens (the
// expiry badges of the scan and inventory pages) render dates in the browser too, and date-fns
// would add 6 KiB (gzip) to each of them for three fixed English patterns.
import { formatLocal } from "./clock";

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The year, month (1-12) and day of a real calendar date "YYYY-MM-DD", else null (no 2027-02-30). */
export function calendarDateParts(date: string): [number, number, number] | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  return [y, m, d];
}

/** The UTC calendar date of an instant, "YYYY-MM-DD": the key expiration dates are compared with. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** "Mar 5, 2027" for "2027-03-05": the day as written, whatever the time zone; other text as it is. */
export function formatDate(date: string): string {
  const parts = calendarDateParts(date);
  if (!parts) return date;
  const [y, m, d] = parts;
  return formatLocal(new Date(y, m - 1, d), "MMM d, yyyy");
}

/** An instant as shown: `text` on the page, `dateTime` (ISO) and `title` for a `<time>` element. */
export interface ShownInstant {
  /** "Nov 22, 14:05 EST" this year, "Mar 3, 2025" another year. */
  text: string;
  /** The exact instant, ISO 8601 in UTC. */
  dateTime: string;
  /** Date, time and zone in full: "Mar 3, 2025 9:05 EST (America/New_York)". */
  title: string;
}

// One formatter per zone: making one costs far more than using it, and a list shows many rows.
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let found = wallClockFormats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    wallClockFormats.set(timeZone, found);
  }
  return found;
}

/** The wall-clock time of `at` in `timeZone` (as a local Date date-fns can format) and the zone's short name. */
function wallClock(at: Date, timeZone: string): { local: Date; zone: string } {
  const parts = wallClockFormat(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(part(type));
  return {
    local: new Date(n("year"), n("month") - 1, n("day"), n("hour"), n("minute")),
    zone: part("timeZoneName"),
  };
}

/**
 * How an instant reads in `timeZone` (the location's), by the rules at the top of this file; null
 * for no instant or an invalid one. `now` decides which year is "this year".
 */
export function showInstant(
  at: Date | string | number | null | undefined,
  timeZone: string,
  now: Date = new Date(),
): ShownInstant | null {
  if (at === null || at === undefined) return null;
  const instant = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(instant.getTime())) return null;
  const { local, zone } = wallClock(instant, timeZone);
  const thisYear = wallClock(now, timeZone).local.getFullYear() === local.getFullYear();
  const day = formatLocal(local, "MMM d, yyyy");
  return {
    text: thisYear ? `${formatLocal(local, "MMM d, H:mm")} ${zone}` : day,
    dateTime: instant.toISOString(),
    title: `${day} ${formatLocal(local, "H:mm")} ${zone} (${timeZone})`,
  };
}

/**
 * The instant (epoch ms) a calendar day "YYYY-MM-DD" begins in `timeZone`: a filter's "from" date
 * as the location's staff mean it. Null for a date that does not exist.
 */
export function startOfDayIn(date: string, timeZone: string): number | null {
  const parts = calendarDateParts(date);
  if (!parts) return null;
  const [y, m, d] = parts;
  const wanted = Date.UTC(y, m - 1, d);
  // Step by the zone's offset until the wall clock reads midnight (twice covers a DST change).
  let at = wanted;
  for (let i = 0; i < 2; i++) {
    const { local } = wallClock(new Date(at), timeZone);
    const shown = Date.UTC(
      local.getFullYear(),
      local.getMonth(),
      local.getDate(),
      local.getHours(),
      local.getMinutes(),
    );
    at += wanted - shown;
  }
  return at;
}

/** The day an instant falls on in `timeZone`, 'MMM d, yyyy': for messages naming when something happened there. */
/** "14:05": the wall-clock time of `at` in `timeZone`, as 'H:mm' (e.g. who resolved something, and when). */
export function clockTimeIn(at: Date | number, timeZone: string): string {
  return formatLocal(wallClock(at instanceof Date ? at : new Date(at), timeZone).local, "H:mm");
}

export function formatDayOf(at: Date | string | number, timeZone: string): string {
  return formatLocal(wallClock(at instanceof Date ? at : new Date(at), timeZone).local, "MMM d, yyyy");
}

/** The calendar date "YYYY-MM-DD" an instant falls on in `timeZone`: "today" as the location's staff mean it. */
export function calendarDayIn(at: Date, timeZone: string): string {
  const { local } = wallClock(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(local.getFullYear()).padStart(4, "0")}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** An instant as `showInstant` made it: its text, with the exact instant for machines and on hover. */
export function Time({ at, empty = "—" }: { at: ShownInstant | null; empty?: string }) {
  if (!at) return <>{empty}</>;
  return (
    <time dateTime={at.dateTime} title={at.title}>
      {at.text}
    </time>
  );
}
