// What is in transit to a location: the pending lines of transfers sent to it and not yet received
// (a vial's units, or a bulk quantity, in base units). The transfers screen and the dashboard count
// them ("on the way"), purchasing's reorder suggestions add them to what is coming; one definition.
// A request or a draft is not in transit: nothing has left yet, and it may never be sent.
import { type SQL, sql } from "drizzle-orm";

/**
 * The pending lines of transfers in transit to `locations` (a subquery or list in parentheses), as a
 * select of (transferId, locationId, variationId, itemId, units): each location's transfers in
 * transit by transfers_to_status_idx, their lines by transfer_lines_transfer_idx.
 */
export function inTransitLinesSql(locations: SQL): SQL {
  return sql`SELECT t.id AS transferId, t.to_location_id AS locationId, tl.variation_id AS variationId,
      tl.item_id AS itemId, tl.quantity AS units
    FROM transfers AS t INDEXED BY transfers_to_status_idx
    CROSS JOIN transfer_lines AS tl ON tl.transfer_id = t.id
    WHERE t.to_location_id IN ${locations} AND t.status = 'in_transit' AND tl.status = 'pending'`;
}

/** Base units in transit to `locations` per location and variation: a select of (locationId, variationId, units). */
export function inTransitUnitsSql(locations: SQL): SQL {
  return sql`SELECT locationId, variationId, sum(units) AS units FROM (${inTransitLinesSql(locations)})
    GROUP BY locationId, variationId`;
}
