// The dashboard's par status (GET /api/dashboard/par-status and the page's list): the location ×
// variation pairs below par at the locations in scope, as the stock levels screen judges them
// (app/stock/levels.server.ts, the one definition of a level's status), those at or under the
// reorder point first, each with what to order to reach its maximum (./reorder.ts). The counts are
// exact, and equal the stock levels list filtered by each status. Transfers between locations come
// with their own issue: no transfer is suggested yet.
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { firstPage } from "~/db/keyset.server";
import {
  parStatusCountsOf,
  parStatusCountsQuery,
  type StockLevel,
  StockLevelQuery,
  stockLevelQueries,
  toStockLevel,
} from "~/stock/levels.server";
import { reorderPackages } from "./reorder";

/** Rows the list shows (the API's too): the stock levels screen lists the rest. */
export const PAR_LIST_SIZE = 10;

export interface ParStatusRow extends Omit<StockLevel, "updatedAt"> {
  /** Whole packages to order to reach the maximum (par when no maximum is set). */
  reorderPackages: number;
}

export interface ParStatus {
  /** Pairs at or under the reorder point (status below_reorder), under par above it (below_par), and both. */
  belowReorder: number;
  belowParOnly: number;
  belowPar: number;
  /** At most PAR_LIST_SIZE rows: at or under the reorder point first, then under par; each by product, variation, location. */
  items: ParStatusRow[];
}

type Status = "below_reorder" | "below_par";
const STATUSES: readonly Status[] = ["below_reorder", "below_par"];

/** The statements of the par status, for the caller's batch; `parStatusOf` reads their results. */
export function parStatusQueries(db: Database, actor: Actor, locationIds: readonly string[], now: Date) {
  const keyset = firstPage(null, PAR_LIST_SIZE);
  const lists = STATUSES.map((status) => {
    const query = StockLevelQuery.parse({ status, pageSize: PAR_LIST_SIZE });
    return stockLevelQueries(db, actor, locationIds, query, keyset, now)[0];
  });
  // Both counts in one pass (each par level judged once).
  return [...lists, parStatusCountsQuery(db, actor, locationIds, now)] as const;
}

export function parStatusOf(results: readonly unknown[]): ParStatus {
  const [reorderRows, parRows, counts] = results as [
    Parameters<typeof toStockLevel>[0][],
    Parameters<typeof toStockLevel>[0][],
    { status: string; total: number }[],
  ];
  const items = [...reorderRows.slice(0, PAR_LIST_SIZE), ...parRows.slice(0, PAR_LIST_SIZE)]
    .slice(0, PAR_LIST_SIZE)
    .map((row) => {
      const { updatedAt: _moved, ...level } = toStockLevel(row);
      return { ...level, reorderPackages: reorderPackages(level) };
    });
  const { belowReorder, belowParOnly } = parStatusCountsOf(counts);
  return { belowReorder, belowParOnly, belowPar: belowReorder + belowParOnly, items };
}
