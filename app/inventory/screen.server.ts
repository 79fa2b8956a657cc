// What /inventory reads, in one batch: a page of the serialized items (vials, syringes, kits) at
// the locations in scope matching the filters, as GET /api/vials reads them; a page of the bulk
// products' quantities there, as the stock levels read them; and the product filtered to by id, by name.
import type { Actor } from "~/access/actor";
import { chosenProduct } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { firstPage } from "~/db/keyset.server";
import type { FilterProblems } from "~/http/filters.server";
import { levelKeyset, levelPageOf, StockLevelQuery, stockLevelQueries } from "~/stock/levels.server";
import {
  DEFAULT_VIAL_STATES,
  readVialQuery,
  type VialQueryInput,
  vialKeyset,
  vialListQueries,
  vialPageOf,
} from "~/stock/vials.server";

export const INVENTORY_PAGE_SIZE = 25;

export interface InventoryQuery extends VialQueryInput {
  /** The bulk quantities' own cursor (`bulkAfter` / `bulkBefore`), apart from the vials'. */
  bulk: { after?: string; before?: string };
}

/**
 * The screen's query from its URL (the filter form's GET fields and the two lists' cursors), and
 * what is wrong with any filter it cannot use (the screen then says so and lists nothing).
 */
export function readInventoryQuery(params: URLSearchParams): { query: InventoryQuery; problems: FilterProblems } {
  const { query, problems } = readVialQuery(params);
  return {
    query: {
      ...query,
      pageSize: INVENTORY_PAGE_SIZE,
      bulk: { after: params.get("bulkAfter") || undefined, before: params.get("bulkBefore") || undefined },
    },
    problems,
  };
}

/** The screen's query from its URL, any filter it cannot use left out (see readInventoryQuery). */
export function inventoryQueryOf(params: URLSearchParams): InventoryQuery {
  return readInventoryQuery(params).query;
}

/**
 * Whether a filter only vials have is set (state other than the default, lot, expiring, recall):
 * then the bulk quantities, which have none of these, are not what was asked for.
 */
export function filtersVialsOnly(query: VialQueryInput): boolean {
  const defaultStates =
    query.state.length === DEFAULT_VIAL_STATES.length && DEFAULT_VIAL_STATES.every((s) => query.state.includes(s));
  return !defaultStates || Boolean(query.lot) || query.expiringWithinDays !== null || query.recalled !== null;
}

export async function inventoryScreen(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: InventoryQuery,
  now = new Date(),
) {
  const bulkQuery = StockLevelQuery.parse({
    productId: query.productId,
    product: query.product,
    tracking: "bulk",
    ...query.bulk,
    pageSize: INVENTORY_PAGE_SIZE,
  });
  // A forged or stale cursor shows the first page.
  const keyset = firstPage(vialKeyset(query), query.pageSize);
  const bulkKeyset = firstPage(levelKeyset(bulkQuery), INVENTORY_PAGE_SIZE);
  const [rows, counted, levels, levelsCounted, chosen] = await db.batch([
    ...vialListQueries(db, actor, locationIds, query, keyset, now),
    ...stockLevelQueries(db, actor, locationIds, bulkQuery, bulkKeyset, now),
    chosenProduct(db, actor, query),
  ]);
  return {
    vials: vialPageOf(rows, counted, keyset, now),
    bulk: filtersVialsOnly(query) ? null : levelPageOf(levels, levelsCounted, bulkKeyset),
    chosen: chosen[0] ?? null,
  };
}
