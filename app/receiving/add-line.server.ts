// Adding what arrived to an open receipt: packages of one active variation of the organization,
// from one lot. The unit cost defaults to the variation's cost. A completed or cancelled receipt
// refuses the line in the database (receipt_lines triggers), whatever the page showed. A serialized
// product (a vial) needs its lot and expiration date: recalls trace lots, and an item without an
// expiry counts as expired (spec section 4).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { lineProblems, type ReceiptLineInput } from "./forms";
import { closedReceipt, type Outcome, refuse } from "./outcome";
import { canAtScope, isReceiptClosed, receiptsHere } from "./scope.server";

export async function addReceiptLine(
  db: Database,
  actor: ScopedActor,
  input: ReceiptLineInput & { receiptId: string },
): Promise<Outcome<{ lineId: string; label: string }>> {
  if (!canAtScope(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const problem = Object.values(lineProblems(input))[0];
  if (problem) return refuse("invalid", problem);

  const lineId = uuidv7();
  const traced = input.lot !== null && input.expirationDate !== null;
  const here = receiptsHere(actor);
  const usable = sql`v.id = ${input.variationId} AND v.active = 1 AND p.active = 1
    AND p.organization_id = ${organizationOf(actor)}`;
  try {
    const [added, , found] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, lot, serial,
          expiration_date, unit_cost_cents, created_at)
        SELECT ${lineId}, r.id, v.id, ${input.quantity}, ${input.lot}, ${input.serial}, ${input.expirationDate},
          coalesce(${input.unitCostCents}, v.cost_cents), ${Date.now()}
        FROM receipts AS r, product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE r.id = ${input.receiptId} AND r.id IN ${here} AND ${usable}
          AND (p.tracking = 'bulk' OR ${traced ? 1 : 0})
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: sql`r.location_id`,
          action: "receipt_line_add",
          entity: "receipt",
          entityId: input.receiptId,
          summary: sql`json_object('lineId', l.id, 'variationId', v.id, 'product', p.name, 'variation', v.name,
            'quantity', l.quantity, 'lot', l.lot, 'serial', l.serial, 'expirationDate', l.expiration_date,
            'unitCostCents', l.unit_cost_cents)`,
        },
        sql`FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id
          JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
          WHERE l.id = ${lineId}`,
      ),
      db.all<{
        status: string;
        label: string | null;
        tracking: string | null;
      }>(sql`SELECT r.status, p.name || ' · ' || v.name AS label, p.tracking
        FROM receipts AS r LEFT JOIN (product_variations AS v JOIN products AS p ON p.id = v.product_id) ON ${usable}
        WHERE r.id = ${input.receiptId} AND r.id IN ${here}`),
    ]);
    const receipt = found[0];
    if (!receipt) return refuse("not_found");
    if (receipt.label === null) return refuse("variation_unavailable");
    if (added.length !== 1 && receipt.tracking === "serialized" && !traced) return refuse("untraced");
    if (added.length !== 1) return refuse("variation_unavailable");
    return { ok: true, lineId, label: receipt.label };
  } catch (error) {
    if (isReceiptClosed(error)) return closedReceipt(await statusOf(db, actor, input.receiptId));
    throw error;
  }
}

/** The receipt's status, read again after the triggers refused a change (refusals only). */
export async function statusOf(db: Database, actor: ScopedActor, receiptId: string): Promise<string> {
  const [row] = await db.all<{ status: string }>(
    sql`SELECT status FROM receipts WHERE id = ${receiptId} AND id IN ${receiptsHere(actor)}`,
  );
  return row?.status ?? "completed";
}
