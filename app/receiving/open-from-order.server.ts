// Receiving against a purchase order: an open receipt at the order's location, from the order's
// vendor, with receipts.purchase_order_id set. Only a submitted or partially received order of the
// organization, at a location where the actor may write inventory AND read purchasing (managers
// and admins; staff receive without an order). The receipt opens without lines: its page lists
// what the order still expects, and each expected line (or a GS1 scan of it) fills "Add line" with
// the packages outstanding and the order's unit cost, so lots and expiry dates are still scanned
// per package as on any receipt. Completion advances the order (./complete.server).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { canHere } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { RECEIVABLE_STATUSES, receivableHere } from "~/stock/order-receiving.server";
import type { OpenFromOrderInput } from "./forms";
import { notReceivable, type Outcome, refuse } from "./outcome";

export async function openReceiptFromOrder(
  db: Database,
  actor: ScopedActor,
  input: OpenFromOrderInput,
): Promise<Outcome<{ receiptId: string }>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const receiptId = uuidv7();
  const order = sql`po.id = ${input.purchaseOrderId} AND ${receivableHere(actor)}`;
  const [opened, , found] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO receipts (id, location_id, vendor_id, purchase_order_id, reference, notes,
        status, version, opened_by, created_at)
      SELECT ${receiptId}, po.location_id, po.vendor_id, po.id, ${input.reference}, ${input.notes},
        'open', 1, ${actor.id}, ${Date.now()}
      FROM purchase_orders AS po JOIN locations AS loc ON loc.id = po.location_id AND loc.active = 1
      WHERE ${order} AND po.status IN (${sql.join(
        RECEIVABLE_STATUSES.map((s) => sql`${s}`),
        sql`, `,
      )})
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: sql`r.location_id`,
        action: "open_receipt",
        entity: "receipt",
        entityId: receiptId,
        summary: sql`json_object('vendorId', r.vendor_id, 'vendor', (SELECT name FROM vendors WHERE id = r.vendor_id),
          'reference', r.reference, 'notes', r.notes, 'purchaseOrderId', po.id, 'number', po.number)`,
      },
      sql`FROM receipts AS r JOIN purchase_orders AS po ON po.id = r.purchase_order_id WHERE r.id = ${receiptId}`,
    ),
    db.all<{ status: string; locationActive: number }>(sql`SELECT po.status,
        (SELECT active FROM locations WHERE id = po.location_id) AS locationActive
      FROM purchase_orders AS po WHERE ${order}`),
  ]);
  if (opened.length === 1) return { ok: true, receiptId };
  const row = found[0];
  if (!row) return refuse("order_not_found");
  if (!row.locationActive) return refuse("location_unavailable");
  return notReceivable(row.status);
}
