// A local Date as the spec's patterns write it, with no imports: the page (dates, the banner's
// retry time) and the service worker (a saved copy's age) share it, and neither ships date-fns.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/**
 * date-fns's 'MMM d, yyyy', 'MMM d, H:mm' and 'H:mm' of a local Date, exactly as it writes them; the
 * browser's own clock for what happens on this device (the banner's retry time, a saved copy's age).
 */
export function formatLocal(local: Date, pattern: "MMM d, yyyy" | "MMM d, H:mm" | "H:mm"): string {
  const time = `${local.getHours()}:${String(local.getMinutes()).padStart(2, "0")}`;
  if (pattern === "H:mm") return time;
  const day = `${MONTHS[local.getMonth()]} ${local.getDate()}`;
  return pattern === "MMM d, H:mm" ? `${day}, ${time}` : `${day}, ${String(local.getFullYear()).padStart(4, "0")}`;
}
