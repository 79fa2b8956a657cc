// The one table of every list screen: header row, zebra-free rows, and an empty-state line.
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
