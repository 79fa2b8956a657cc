// The screens that work with no connection (issue #25): the cart's. The service worker keeps the
// last copy of these it saw, their forms queue on the device, and every other screen is disabled
// offline with OFFLINE_DISABLED_REASON where its actions would have been.

/** Route patterns, as the browser's address shows them (":id" one segment). */
export const OFFLINE_SCREENS = ["/", "/scan", "/inventory", "/inventory/:id", "/audit"] as const;

const PATTERNS = OFFLINE_SCREENS.map((p) => new RegExp(`^${p.replace(/:[a-z]+/gi, "[^/]+")}/?$`));

/** Whether the screen at `pathname` is usable offline (from its last copy, its forms queued). */
export function worksOffline(pathname: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(pathname));
}

export const OFFLINE_DISABLED_REASON =
  "This screen needs the connection: its changes cannot wait on this device, so they are off until it is back.";
