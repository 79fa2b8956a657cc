// Taking a line off an open receipt (a wrong scan, a package sent back). A completed or cancelled
// receipt refuses in the database (receipt_lines triggers).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { canHere, idsReached } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { isReceiptClosed, statusOf } from "./add-line.server";
import { closedReceipt, type Outcome, refuse } from "./outcome";

export async function removeReceiptLine(
  db: Database,
  actor: ScopedActor,
  input: { receiptId: string; lineId: string },
): Promise<Outcome<{ label: string }>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const here = idsReached("receipts", actor, "WRITE_INVENTORY");
  const line = sql`l.id = ${input.lineId} AND l.receipt_id = ${input.receiptId} AND l.receipt_id IN ${here}`;
  try {
    const [found, , removed, receipts] = await db.batch([
      // Read before the delete, in the same transaction: what the toast names.
      db.all<{ label: string }>(sql`SELECT p.name || ' · ' || v.name AS label FROM receipt_lines AS l
        JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
        WHERE ${line}`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: sql`r.location_id`,
          action: "remove_receipt_line",
          entity: "receipt",
          entityId: input.receiptId,
          summary: sql`json_object('lineId', l.id, 'variationId', l.variation_id,
            'product', (SELECT p.name FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
              WHERE v.id = l.variation_id),
            'variation', (SELECT name FROM product_variations WHERE id = l.variation_id),
            'quantity', l.quantity, 'lot', l.lot, 'serial', l.serial, 'expirationDate', l.expiration_date,
            'unitCostCents', l.unit_cost_cents)`,
        },
        sql`FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id WHERE ${line}`,
      ),
      db.all<{ id: string }>(sql`DELETE FROM receipt_lines WHERE id IN (SELECT l.id FROM receipt_lines AS l
        WHERE ${line}) RETURNING id`),
      db.all<{ id: string }>(sql`SELECT id FROM receipts WHERE id = ${input.receiptId} AND id IN ${here}`),
    ]);
    if (!receipts[0]) return refuse("not_found");
    const label = found[0]?.label;
    if (removed.length !== 1 || !label) return refuse("line_not_found");
    return { ok: true, label };
  } catch (error) {
    if (isReceiptClosed(error)) return closedReceipt(await statusOf(db, actor, input.receiptId));
    throw error;
  }
}
