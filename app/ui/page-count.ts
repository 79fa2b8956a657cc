// Numbered pages ("page 3 of 12", LIMIT and OFFSET) for the lists small enough to count exactly:
// vendors, services, users, receipts, products, par levels. Lists that grow with history page by
// keyset instead (ADR 0018). The list module reads its page and its count in one batch, then
// answers `{ rows…, ...numberedPage(totals, page, size) }`; the screen's Pagination reads those.

/** How many pages `total` rows fill at `pageSize` a page; an empty list still has its one page. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The OFFSET of page `page` (counted from 1) at `pageSize` rows a page. */
export function pageOffset(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/**
 * What a list screen shows under its rows: the total its count statement read (a `count(*)` row,
 * a number or, from raw SQL, a string), the page shown and how many pages there are.
 */
export function numberedPage(totals: readonly { total: number | string }[], page: number, pageSize: number) {
  const total = Number(totals[0]?.total ?? 0);
  return { total, page, pageCount: pageCount(total, pageSize) };
}

/**
 * A numbered list too long to count on every view (the par levels sheet: a chain's whole
 * catalogue) counts only this many rows past the start of the page shown ("1,000+" beyond), as
 * the keyset lists do (ADR 0018): its count then costs what the page's own walk does.
 */
export const NUMBERED_COUNT_CAP = 1000;

/** The LIMIT of a capped numbered count on page `page`: the rows before it, the cap, and one to tell there are more. */
export function cappedCountLimit(page: number, pageSize: number): number {
  return pageOffset(page, pageSize) + NUMBERED_COUNT_CAP + 1;
}

/**
 * `numberedPage` of a count read with `cappedCountLimit`: past the cap, the total is the rows
 * counted so far, inexact, and there is always a next page.
 */
export function cappedNumberedPage(totals: readonly { total: number | string }[], page: number, pageSize: number) {
  const counted = Number(totals[0]?.total ?? 0);
  const reach = cappedCountLimit(page, pageSize) - 1;
  const total = Math.min(counted, reach);
  return { total, totalExact: counted <= reach, page, pageCount: pageCount(total, pageSize) };
}

/**
 * Page `page` of a list read whole because something shown with it needs every row (a count's
 * totals need every line): the rows of the page and what Pagination reads. A page past the end
 * shows the last one.
 */
export function pageOfList<T>(list: readonly T[], page: number, pageSize: number) {
  const pages = pageCount(list.length, pageSize);
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const offset = pageOffset(shown, pageSize);
  return { rows: list.slice(offset, offset + pageSize), total: list.length, page: shown, pageCount: pages };
}
