// The add-items page's reads (issue 23.5) in one round trip after the session: the order where the
// reader reaches it, the catalogue's choices for its vendor and the vendor's reorder suggestions at
// its location. The choices and the suggestions find the order's vendor and location themselves
// (by its id, with the same reach as the order's read), so none waits for the order to come back.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { catalogueChoices, ofOrder, orderOf, orderQueries, type PurchaseOrder } from "./read.server";
import type { ReorderSuggestion } from "./reorder";
import { reorderOf, reorderStatements } from "./suggestions.server";

export interface AddItemsRead {
  order: PurchaseOrder;
  choices: Awaited<ReturnType<typeof catalogueChoices>>;
  suggestions: ReorderSuggestion[];
}

/** The order `orderId` (READ_PURCHASING where it is) with its choices and suggestions; null where not reached. */
export async function readAddItems(
  db: Database,
  actor: ScopedActor,
  orderId: string,
  { q, onlyVendor }: { q: string; onlyVendor: boolean },
  now = new Date(),
): Promise<AddItemsRead | null> {
  const orderReads = orderQueries(db, actor, orderId, "READ_PURCHASING");
  const vendorId = ofOrder(actor, orderId, "READ_PURCHASING", "vendor_id");
  const locationId = ofOrder(actor, orderId, "READ_PURCHASING", "location_id");
  const rows = (await db.batch([
    ...orderReads,
    catalogueChoices(db, actor, { orderId, vendorId, q, onlyVendor }),
    ...reorderStatements(db, organizationOf(actor), locationId, vendorId, now),
  ] as never)) as unknown[];
  const order = orderOf(rows.slice(0, orderReads.length));
  if (!order) return null;
  const [choices, ...reorderResults] = rows.slice(orderReads.length) as [AddItemsRead["choices"], ...unknown[]];
  return { order, choices, suggestions: reorderOf(reorderResults, vendorId) ?? [] };
}
