// The ledger's invariants on the written file, in SQL: a level is the sum of its movements, a
// vial's units left are the sum of its own movements, and every usage entry is booked by exactly
// one USE movement of its units (and every USE movement by one entry). And what is on the road
// (ADR 0031): a vial is in transit exactly when it is on a pending line of a transfer in transit,
// with 0 units left (its units are the line's), and no other open transfer names a vial that is not sealed.
// And what arrived against an order (issue 23): each order line's packages_received is what the
// completed receipts linked to its order brought of its variation, and a linked receipt is at its
// order's location, from its vendor, with every variation it brought on the order.
import type { Writer } from "./writer";

export interface LedgerCheck {
  levelsOff: number;
  itemsOff: number;
  usesOff: number;
  transitOff: number;
  ordersOff: number;
}

export function checkLedger(w: Writer): LedgerCheck {
  const count = (text: string) => Number((w.db.prepare(text).get() as { n: number }).n);
  const levelsOff =
    count(`SELECT count(*) AS n FROM (
      SELECT location_id, variation_id, sum(quantity) AS total FROM stock_movements GROUP BY location_id, variation_id) AS m
    LEFT JOIN stock_levels AS s USING (location_id, variation_id) WHERE s.on_hand IS NOT m.total`) +
    count(`SELECT count(*) AS n FROM stock_levels AS s WHERE s.on_hand <> 0 AND NOT EXISTS (SELECT 1 FROM stock_movements AS m
      WHERE m.location_id = s.location_id AND m.variation_id = s.variation_id)`);
  const itemsOff = count(`SELECT count(*) AS n FROM items AS i LEFT JOIN (
      SELECT item_id, sum(quantity) AS total FROM stock_movements WHERE item_id IS NOT NULL GROUP BY item_id) AS m
    ON m.item_id = i.id WHERE i.units_remaining IS NOT coalesce(m.total, 0)`);
  const usesOff =
    count(`SELECT count(*) AS n FROM usage_entries AS u WHERE NOT EXISTS (SELECT 1 FROM stock_movements AS m
      WHERE m.reference_type = 'usage' AND m.reference_id = u.id AND m.type = 'USE' AND m.quantity = -u.units
        AND m.item_id = u.item_id AND m.location_id = u.location_id)`) +
    Math.abs(
      count("SELECT count(*) AS n FROM usage_entries") -
        count("SELECT count(*) AS n FROM stock_movements WHERE type = 'USE'"),
    );
  const transitOff =
    count(`SELECT count(*) AS n FROM items AS i WHERE i.state = 'in_transit' AND (i.units_remaining <> 0
      OR NOT EXISTS (SELECT 1 FROM transfer_lines AS tl JOIN transfers AS t ON t.id = tl.transfer_id
        WHERE tl.item_id = i.id AND tl.status = 'pending' AND t.status = 'in_transit'
          AND t.from_location_id = i.location_id AND tl.quantity > 0))`) +
    count(`SELECT count(*) AS n FROM transfer_lines AS tl JOIN transfers AS t ON t.id = tl.transfer_id
      JOIN items AS i ON i.id = tl.item_id
      WHERE tl.status = 'pending' AND ((t.status = 'in_transit' AND i.state <> 'in_transit')
        OR (t.status IN ('requested', 'draft') AND i.state <> 'sealed'))`);
  const ordersOff =
    count(`SELECT count(*) AS n FROM purchase_order_lines AS pol WHERE pol.packages_received IS NOT (
      SELECT coalesce(sum(l.quantity), 0) FROM receipts AS r JOIN receipt_lines AS l ON l.receipt_id = r.id
      WHERE r.purchase_order_id = pol.order_id AND r.status = 'completed' AND l.variation_id = pol.variation_id)`) +
    count(`SELECT count(*) AS n FROM receipts AS r LEFT JOIN purchase_orders AS po ON po.id = r.purchase_order_id
      WHERE r.purchase_order_id IS NOT NULL AND (po.id IS NULL OR po.location_id <> r.location_id
        OR po.vendor_id IS NOT r.vendor_id OR EXISTS (SELECT 1 FROM receipt_lines AS l WHERE l.receipt_id = r.id
          AND NOT EXISTS (SELECT 1 FROM purchase_order_lines AS pol WHERE pol.order_id = po.id
            AND pol.variation_id = l.variation_id)))`);
  return { levelsOff, itemsOff, usesOff, transitOff, ordersOff };
}
