// When a sale happened, as exports write it: a date (`YYYY-MM-DD`, `M/D/YYYY` in US order, or an
// ISO instant with its offset), maybe a time (`14:30`, `2:30 PM`, `14:30:05`), and the time zone
// the file names (Square writes Rails names like `Eastern Time (US & Canada)`) or the location's.
// A local time becomes an instant through Intl.DateTimeFormat (the zone's rules, DST included).

export type InstantResult = { ok: true; at: Date } | { ok: false; message: string };

/** Which part of the input was wrong (rows.ts names that column in the row's error). */
export type InstantProblem = { ok: false; part: "date" | "time" | "timeZone"; message: string };

/** Point-of-sale time zone names (Rails' ActiveSupport names, which Square writes) → IANA. */
export const TIME_ZONE_NAMES: Record<string, string> = {
  "eastern time (us & canada)": "America/New_York",
  "central time (us & canada)": "America/Chicago",
  "mountain time (us & canada)": "America/Denver",
  "pacific time (us & canada)": "America/Los_Angeles",
  arizona: "America/Phoenix",
  hawaii: "Pacific/Honolulu",
  alaska: "America/Anchorage",
  "atlantic time (canada)": "America/Halifax",
  newfoundland: "America/St_Johns",
  saskatchewan: "America/Regina",
  "indiana (east)": "America/Indiana/Indianapolis",
  "puerto rico": "America/Puerto_Rico",
  utc: "UTC",
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      return null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The IANA zone a file's time zone value names, or null when it names none this reader knows. */
export function ianaTimeZone(value: string): string | null {
  const trimmed = value.trim();
  const named = TIME_ZONE_NAMES[trimmed.replace(/\s+/g, " ").toLowerCase()];
  if (named) return named;
  // Only Area/Location names (and UTC): abbreviations like EST or PST are ambiguous.
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(trimmed)) return null;
  const formatter = formatterOf(trimmed);
  return formatter ? trimmed : null;
}

/** The wall-clock fields of `utcMs` in `timeZone`, as a UTC timestamp of those fields. */
function wallClock(utcMs: number, formatter: Intl.DateTimeFormat): number {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(utcMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/**
 * The instant a local wall-clock time in `timeZone` is. A time repeated when clocks go back is the
 * first of the two; a time skipped when clocks go forward is read with the offset before the change.
 */
export function zonedToUtc(local: number, timeZone: string): number | null {
  const formatter = formatterOf(timeZone);
  if (!formatter) return null;
  const offsetAt = (utc: number) => wallClock(utc, formatter) - utc;
  // Offsets on either side of the instant: try the earlier one first (the first of a repeated hour).
  const candidates = [offsetAt(local - 86_400_000), offsetAt(local), offsetAt(local + 86_400_000)]
    .map((offset) => local - offset)
    .sort((a, b) => a - b);
  for (const utc of candidates) if (utc + offsetAt(utc) === local) return utc;
  return local - offsetAt(local - 86_400_000);
}

const YEAR_MIN = 2000;
const YEAR_MAX = 2100;

type Parts = { year: number; month: number; day: number };
type Clock = { hour: number; minute: number; second: number };

function calendarDate(year: number, month: number, day: number, text: string): Parts | InstantProblem {
  if (year < YEAR_MIN || year > YEAR_MAX) {
    return { ok: false, part: "date", message: `"${text}" is not a date between ${YEAR_MIN} and ${YEAR_MAX}.` };
  }
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return { ok: false, part: "date", message: `"${text}" is not a date on the calendar (month/day in US order).` };
  }
  return { year, month, day };
}

const DATE_MESSAGE = (text: string) =>
  `"${text}" is not a date this reader knows: write it YYYY-MM-DD (2026-03-05) or M/D/YYYY (3/5/2026).`;

function readClock(text: string): Clock | InstantProblem {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AaPp]\.?[Mm]\.?)?$/.exec(text.trim());
  const wrong: InstantProblem = {
    ok: false,
    part: "time",
    message: `"${text.trim()}" is not a time this reader knows: write it 14:30, 14:30:05 or 2:30 PM.`,
  };
  if (!match) return wrong;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3] ?? 0);
  if (minute > 59 || second > 59) return wrong;
  if (match[4]) {
    if (hour < 1 || hour > 12) return wrong;
    const pm = /^[Pp]/.test(match[4]);
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour > 23) return wrong;
  return { hour, minute, second };
}

/** Like parseSaleInstant, but says which part was wrong. */
export function readSaleInstant(
  input: { date: string; time?: string | null; timeZone?: string | null },
  defaultTimeZone: string,
): { ok: true; at: Date } | InstantProblem {
  const dateText = String(input.date ?? "").trim();
  if (dateText === "") return { ok: false, part: "date", message: "The date is empty." };

  // An instant with its offset says everything itself.
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})$/i.exec(
    dateText,
  );
  if (iso) {
    const date = calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]), dateText);
    if ("ok" in date) return date;
    const hour = Number(iso[4]);
    const minute = Number(iso[5]);
    const second = Number(iso[6] ?? 0);
    if (hour > 23 || minute > 59 || second > 59) return { ok: false, part: "date", message: DATE_MESSAGE(dateText) };
    const zone = (iso[8] as string).toUpperCase();
    let offsetMinutes = 0;
    if (zone !== "Z") {
      const digits = zone.replace(":", "");
      offsetMinutes = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * (digits[0] === "-" ? -1 : 1);
      if (Number(digits.slice(3, 5)) > 59 || Math.abs(offsetMinutes) > 14 * 60) {
        return { ok: false, part: "date", message: DATE_MESSAGE(dateText) };
      }
    }
    const ms = Number((iso[7] ?? "").padEnd(3, "0").slice(0, 3));
    const local = Date.UTC(date.year, date.month - 1, date.day, hour, minute, second, ms);
    return { ok: true, at: new Date(local - offsetMinutes * 60_000) };
  }

  // A date, maybe with a time in the same cell (`2026-03-05 14:30`, `3/5/2026 2:30 PM`).
  const dated = /^(?:(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))(?:(?:T|\s+)(.+))?$/.exec(dateText);
  if (!dated) return { ok: false, part: "date", message: DATE_MESSAGE(dateText) };
  const date = dated[1]
    ? calendarDate(Number(dated[1]), Number(dated[2]), Number(dated[3]), dateText)
    : calendarDate(Number(dated[6]), Number(dated[4]), Number(dated[5]), dateText);
  if ("ok" in date) return date;
  let clock: Clock = { hour: 0, minute: 0, second: 0 };
  const timeText = dated[7] ?? String(input.time ?? "").trim();
  if (timeText !== "") {
    const read = readClock(timeText);
    if ("ok" in read) return dated[7] ? { ...read, part: "date" } : read;
    clock = read;
  }

  const zoneText = String(input.timeZone ?? "").trim();
  let timeZone = defaultTimeZone;
  if (zoneText !== "") {
    const iana = ianaTimeZone(zoneText);
    if (!iana) {
      return {
        ok: false,
        part: "timeZone",
        message: `"${zoneText}" is not a time zone this reader knows: use a name like America/New_York or Eastern Time (US & Canada).`,
      };
    }
    timeZone = iana;
  }
  const local = Date.UTC(date.year, date.month - 1, date.day, clock.hour, clock.minute, clock.second);
  const utc = zonedToUtc(local, timeZone);
  if (utc === null) {
    return { ok: false, part: "timeZone", message: `"${timeZone}" is not a time zone this reader knows.` };
  }
  return { ok: true, at: new Date(utc) };
}

/** When a sale happened. No time: midnight of that date, local. Never throws. */
export function parseSaleInstant(
  input: { date: string; time?: string | null; timeZone?: string | null },
  defaultTimeZone: string,
): InstantResult {
  try {
    const read = readSaleInstant(input, defaultTimeZone);
    return read.ok ? read : { ok: false, message: read.message };
  } catch {
    return { ok: false, message: "The date could not be read." };
  }
}
