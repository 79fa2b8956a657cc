// One way to show an instant: in the location's time zone, e.g. "Nov 22, 2026, 14:05".
/** "Jan 5, 2027, 14:03" in the given zone, made on the server so the page hydrates identically. */
export function formatInstant(at: Date | null, timeZone: string): string | null {
  if (!at) return null;
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
}
