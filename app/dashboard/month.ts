// The months the dashboard's waste figures cover, as instants (epoch ms). A month is a calendar
// month on the wall clock of the place the dashboard speaks for: the location's time zone for one
// location (its staff's "this month"), and UTC in organization mode (ten locations from Honolulu
// to Tokyo have no one local month; UTC is the zone the organization's other figures are in, e.g.
// the expiration dates, and it is what `timeZoneHere` answers there). Browser-safe.
import { calendarDayIn, startOfDayIn } from "~/ui/dates";

export interface WasteMonths {
  /** The first instant of last month, of this month and of next month, in `timeZone`. */
  lastMonthStart: number;
  thisMonthStart: number;
  nextMonthStart: number;
  /** "2026-11": this month, as its first day is written. */
  thisMonth: string;
  lastMonth: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar month `offset` months from year `y`, month `m` (1-12), as "YYYY-MM". */
function monthOf(y: number, m: number, offset: number): string {
  const index = y * 12 + (m - 1) + offset;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${pad((index % 12) + 1)}`;
}

function startOf(month: string, timeZone: string): number {
  const at = startOfDayIn(`${month}-01`, timeZone);
  // The first of a month always exists; a zone the runtime does not know falls back to UTC.
  return at ?? Date.parse(`${month}-01T00:00:00Z`);
}

/** Last month, this month and where next month begins, on the wall clock of `timeZone` at `now`. */
export function wasteMonths(now: Date, timeZone: string): WasteMonths {
  const today = calendarDayIn(now, timeZone);
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const thisMonth = monthOf(y, m, 0);
  const lastMonth = monthOf(y, m, -1);
  return {
    lastMonthStart: startOf(lastMonth, timeZone),
    thisMonthStart: startOf(thisMonth, timeZone),
    nextMonthStart: startOf(monthOf(y, m, 1), timeZone),
    thisMonth,
    lastMonth,
  };
}

/** "November 2026" for "2026-11". */
export function monthName(month: string): string {
  const date = new Date(`${month}-15T12:00:00Z`);
  return date.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}
