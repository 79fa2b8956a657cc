// The one table of every list screen: header row, zebra-free rows, and an empty-state line. From
// 640 px up it is a plain table; below, each row is a stacked card (CSS only, so it works before
// JavaScript): the title column heads the card, key columns come next, every other cell shows its
// column's label beside its value, and unlabelled columns (a row's actions) close the card. The markup stays a <table>, so screen readers keep headers.
import { Link } from "@remix-run/react";
import { type ReactNode, useId } from "react";

export const CELL = "px-3 py-2";

/** A column: its header, and how its cells show on a phone card. A bare string is an ordinary column. */
export interface Column {
  /** The header; "" for a column of actions, which shows no label on the card. */
  label: string;
  /** The card's heading (default: the first column). */
  title?: boolean;
  /** What a phone user came for (status, expiry): shown first, under the title. */
  key?: boolean;
}

/**
 * The phone layout's per-table part, which Tailwind classes cannot say: which label each cell
 * shows and where key cells go. Cells are matched by position, as the header matches them.
 */
export function cardCss(scope: string, columns: readonly (string | Column)[]): string {
  const titleAt = Math.max(
    0,
    columns.findIndex((c) => typeof c !== "string" && c.title),
  );
  const rules = columns.map((column, i) => {
    const { label, key } = typeof column === "string" ? { label: column, key: false } : column;
    const cell = `[data-table="${scope}"] td:nth-child(${i + 1}):not([colspan])`;
    if (i === titleAt) return `${cell}{order:-2}`;
    if (!label) return `${cell}{order:1}`;
    // JSON's string escapes are valid CSS ones; "<" is escaped so no label can close the <style>.
    const content = JSON.stringify(label).replaceAll("<", "\\3c ");
    return `${cell}{order:${key ? -1 : 0};padding-left:8.5rem}${cell}::before{content:${content}}`;
  });
  return `@media (width < 40rem){${rules.join("")}}`;
}

export function DataTable({
  caption,
  columns,
  rowCount,
  empty,
  children,
}: {
  caption?: string;
  columns: readonly (string | Column)[];
  rowCount: number;
  /** Shown in place of rows when there are none: say why and what to do. */
  empty: ReactNode;
  children: ReactNode;
}) {
  const scope = useId();
  return (
    <div className="rounded-lg border border-slate-200 bg-white sm:overflow-x-auto">
      <style
        // biome-ignore lint/security/noDangerouslySetInnerHtml: CSS made from this table's own column labels (escaped); as text React would escape its quotes
        dangerouslySetInnerHTML={{ __html: cardCss(scope, columns) }}
      />
      <table
        data-table={scope}
        className="w-full text-left text-sm max-sm:block max-sm:[&_td]:relative max-sm:[&_td]:block max-sm:[&_td]:py-1 max-sm:[&_td]:wrap-anywhere max-sm:[&_td]:before:absolute max-sm:[&_td]:before:left-3 max-sm:[&_td]:before:w-30 max-sm:[&_td]:before:font-medium max-sm:[&_td]:before:font-sans max-sm:[&_td]:before:text-slate-500 max-sm:[&_td]:before:text-xs max-sm:[&_td]:before:leading-5 max-sm:[&_th]:block max-sm:[&_tr]:block"
      >
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="border-slate-200 border-b bg-slate-50 text-slate-600 max-sm:sr-only">
          <tr>
            {columns.map((column) => {
              const label = typeof column === "string" ? column : column.label;
              return (
                <th key={label} scope="col" className={`${CELL} font-medium`}>
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {children}
          {rowCount === 0 && (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A list's first column: the record's name, linking to its screen; `children` (a badge, a detail line) follow it. */
export function NameCell({ to, name, children }: { to: string; name: ReactNode; children?: ReactNode }) {
  return (
    <td className={CELL}>
      <Link to={to} className="font-medium text-sky-800 hover:underline">
        {name}
      </Link>
      {children}
    </td>
  );
}

/** The location column of a list in organization mode: the location's name and code. */
export function LocationCell({ location }: { location: { name: string; code: string } }) {
  return (
    <td className={`${CELL} text-slate-700`}>
      {location.name} <span className="text-slate-500 text-xs">{location.code}</span>
    </td>
  );
}

export function DataRow({ children }: { children: ReactNode }) {
  return (
    <tr className="border-slate-100 border-b last:border-0 max-sm:flex! max-sm:flex-col max-sm:py-2">{children}</tr>
  );
}

/** A list's count as shown: "312 vials", or "1,000+ vials" when it stopped counting at the cap (ADR 0018). */
export function countText(total: number, totalExact: boolean, noun: string): string {
  return `${total.toLocaleString("en-US")}${totalExact ? "" : "+"} ${noun}`;
}

/**
 * The Previous / Next hrefs of a keyset page: the list's path with its filters and the cursor
 * (`names`: the parameters, when a screen pages two lists).
 */
export function cursorLinks(
  path: string,
  filters: Record<string, string>,
  page: { next: string | null; previous: string | null },
  names = { after: "after", before: "before" },
): { next: string | null; previous: string | null } {
  const href = (name: string, cursor: string | null) => {
    if (!cursor) return null;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
    params.set(name, cursor);
    return `${path}?${params}`;
  };
  return { next: href(names.after, page.next), previous: href(names.before, page.previous) };
}

/**
 * Previous / Next links under a paginated list; plain links, so they work before JavaScript. A
 * small bounded list pages by number (`page`, `pageCount`, `pageLink`); a list that grows without
 * bound pages by cursor (`previous` and `next` hrefs, from `cursorLinks`) with a capped count.
 */
export function Pagination(
  props: {
    total: number;
    /** What is counted, plural: "products". */
    noun: string;
  } & (
    | {
        page: number;
        pageCount: number;
        pageLink: (page: number) => string;
        /** False when the count stopped at its cap (`cappedNumberedPage`): "Page 1 of 20+ · 1,000+ variations". */
        totalExact?: boolean;
      }
    | { totalExact: boolean; previous: string | null; next: string | null }
  ),
) {
  const { total, noun } = props;
  const [summary, previous, next] =
    "page" in props
      ? [
          props.totalExact === false
            ? `Page ${props.page} of ${props.pageCount}+ · ${countText(total, false, noun)}`
            : `Page ${props.page} of ${props.pageCount} · ${total} ${noun}`,
          props.page > 1 ? props.pageLink(props.page - 1) : null,
          props.page < props.pageCount ? props.pageLink(props.page + 1) : null,
        ]
      : [countText(total, props.totalExact, noun), props.previous, props.next];
  if (!previous && !next) return null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5";
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
      <span className="text-slate-600">{summary}</span>
      <span className="flex gap-2">
        {previous && (
          <Link to={previous} className={link}>
            Previous
          </Link>
        )}
        {next && (
          <Link to={next} className={link}>
            Next
          </Link>
        )}
      </span>
    </nav>
  );
}
