// The one table of every list screen: header row, zebra-free rows, and an empty-state line.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export const CELL = "px-3 py-2";

export function DataTable({
  caption,
  columns,
  rowCount,
  empty,
  children,
}: {
  caption?: string;
  columns: readonly string[];
  rowCount: number;
  /** Shown in place of rows when there are none: say why and what to do. */
  empty: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="border-slate-200 border-b bg-slate-50 text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={`${CELL} font-medium`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
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

export function DataRow({ children }: { children: ReactNode }) {
  return <tr className="border-slate-100 border-b last:border-0">{children}</tr>;
}

/** Previous / Next links under a paginated list; plain links, so they work before JavaScript. */
export function Pagination({
  page,
  pageCount,
  total,
  noun,
  pageLink,
}: {
  page: number;
  pageCount: number;
  total: number;
  /** What is counted, plural: "products". */
  noun: string;
  pageLink: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5";
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
      <span className="text-slate-600">
        Page {page} of {pageCount} · {total} {noun}
      </span>
      <span className="flex gap-2">
        {page > 1 && (
          <Link to={pageLink(page - 1)} className={link}>
            Previous
          </Link>
        )}
        {page < pageCount && (
          <Link to={pageLink(page + 1)} className={link}>
            Next
          </Link>
        )}
      </span>
    </nav>
  );
}
