// The id shown on an error screen and sent with the report, so support can find one from the other.

const RANDOM_DIGITS = 8;

/** `err_{Date.now()}_{8 base-36 characters}`. */
export function newErrorId(now: number = Date.now(), random: () => number = Math.random): string {
  const suffix = Math.floor(random() * 36 ** RANDOM_DIGITS)
    .toString(36)
    .padStart(RANDOM_DIGITS, "0");
  return `err_${now}_${suffix}`;
}

export const ERROR_ID_PATTERN = /^err_\d+_[0-9a-z]{8}$/;

/**
 * The id for a boundary that is rendering now. The server makes one; the browser, hydrating that
 * page, takes the one already in the HTML (a fresh one would not match and break hydration), and
 * makes a new one for an error that happens after the page loaded.
 */
export function errorIdForBoundary(): string {
  if (typeof document === "undefined") return newErrorId();
  const rendered = document.querySelector<HTMLElement>("[data-error-id]")?.dataset.errorId;
  return rendered && ERROR_ID_PATTERN.test(rendered) ? rendered : newErrorId();
}
