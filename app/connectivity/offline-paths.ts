// The screens that work with no connection (issue #25): the cart's. The service worker keeps the
// last copy of these it saw, their forms queue on the device, and every other screen is disabled
// offline with OFFLINE_DISABLED_REASON where its actions would have been.

/** Route patterns, as the browser's address shows them (":id" one segment). */
export const OFFLINE_SCREENS = ["/", "/scan", "/inventory", "/inventory/:id", "/audit"] as const;

/** Of those, the screens whose forms can be saved on the device: the vial page, the scan card, the count. */
export const CART_FORM_SCREENS = [
  "/scan",
  "/inventory/:id",
  "/audit",
] as const satisfies readonly (typeof OFFLINE_SCREENS)[number][];

const matcher = (screens: readonly string[]) => {
  const patterns = screens.map((p) => new RegExp(`^${p.replace(/:[a-z]+/gi, "[^/]+")}/?$`));
  return (pathname: string) => patterns.some((pattern) => pattern.test(pathname));
};

/** Whether the screen at `pathname` is usable offline (from its last copy, its forms queued). */
export const worksOffline: (pathname: string) => boolean = matcher(OFFLINE_SCREENS);

/** Whether the screen at `pathname` has forms the offline queue can keep. */
export const hasCartForms: (pathname: string) => boolean = matcher(CART_FORM_SCREENS);

export const OFFLINE_DISABLED_REASON =
  "This screen needs the connection: its changes cannot wait on this device, so they are off until it is back.";
