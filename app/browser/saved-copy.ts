// What the page and its service worker (app/service-worker/) agree on about a saved copy: a screen
// shown from the copy the worker kept when the connection was last there, not from the server.
// The page learns it two ways: a document served from a saved copy carries a Server-Timing entry
// (read through the navigation's PerformanceServerTiming, no round trip to the worker); a screen's
// data fetched during a client-side navigation is followed by a message from the worker to that page.
import { formatLocal } from "~/ui/clock";

/** Stored with each saved response: when it came from the server (ISO). */
export const SAVED_AT_HEADER = "X-Saved-Copy-At";

/** The Server-Timing entry's name on a response served from a saved copy; its description is the ISO time. */
export const SAVED_COPY_TIMING = "saved-copy";

/** The worker to a page: the data of `pathname` it just answered came from a saved copy (savedAt) or the server (null). */
export interface CopyMessage {
  type: "screen-copy";
  pathname: string;
  savedAt: string | null;
}

/** The page to its worker: the build's assets this page loaded before the worker controlled it, and the page itself. */
export interface WarmMessage {
  type: "warm";
  assets: string[];
  /** The page's address, when no worker controlled its load (so no copy of it was kept). */
  page: string | null;
}

export function isCopyMessage(data: unknown): data is CopyMessage {
  if (typeof data !== "object" || data === null) return false;
  const message = data as Partial<CopyMessage>;
  return (
    message.type === "screen-copy" &&
    typeof message.pathname === "string" &&
    (message.savedAt === null || typeof message.savedAt === "string")
  );
}

export function isWarmMessage(data: unknown): data is WarmMessage {
  if (typeof data !== "object" || data === null) return false;
  const message = data as Partial<WarmMessage>;
  return (
    message.type === "warm" &&
    Array.isArray(message.assets) &&
    message.assets.every((a) => typeof a === "string") &&
    (message.page === null || typeof message.page === "string")
  );
}

export function serverTimingOf(savedAt: string): string {
  return `${SAVED_COPY_TIMING};desc="${savedAt}"`;
}

/** The saved time a navigation's Server-Timing entries carry, if the document came from a saved copy. */
export function savedAtFromTiming(entries: readonly { name: string; description: string }[]): string | null {
  const entry = entries.find((e) => e.name === SAVED_COPY_TIMING);
  return entry && !Number.isNaN(Date.parse(entry.description)) ? entry.description : null;
}

/** "14:02" today, "Nov 26, 14:02" another day: the browser's wall clock, like the spec's 'MMM d, H:mm'. */
function clockTime(at: Date, now: Date): string {
  return formatLocal(at, at.toDateString() === now.toDateString() ? "H:mm" : "MMM d, H:mm");
}

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
export function ageOf(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - at.getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

/** The notice over a screen shown from its saved copy. */
export function savedCopyText(savedAt: Date, now: Date): string {
  return `Saved copy from ${clockTime(savedAt, now)}, ${ageOf(savedAt, now)}: changes made elsewhere since then are not shown`;
}
