// Starting to receive a delivery: an open receipt at one location (WRITE_INVENTORY there),
// optionally from an active vendor of the organization, with the packing slip's reference.
// Purchase orders come later: `purchase_order_id` stays null until then.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { OpenReceiptInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

export async function openReceipt(
  db: Database,
  actor: ScopedActor,
  input: OpenReceiptInput,
): Promise<Outcome<{ receiptId: string }>> {
  if (!reachesAt(actor, "WRITE_INVENTORY", input.locationId)) return refuse("forbidden");
  const organization = organizationOf(actor);
  const receiptId = uuidv7();
  const locationOk = sql`EXISTS (SELECT 1 FROM locations AS l WHERE l.id = ${input.locationId}
    AND l.organization_id = ${organization} AND l.active = 1)`;
  const vendorOk = sql`(${input.vendorId} IS NULL OR EXISTS (SELECT 1 FROM vendors AS v WHERE v.id = ${input.vendorId}
    AND v.organization_id = ${organization} AND v.active = 1))`;
  const [opened, , checks] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO receipts (id, location_id, vendor_id, purchase_order_id, reference, notes,
        status, version, opened_by, created_at)
      SELECT ${receiptId}, ${input.locationId}, ${input.vendorId}, NULL, ${input.reference}, ${input.notes},
        'open', 1, ${actor.id}, ${Date.now()}
      WHERE ${locationOk} AND ${vendorOk}
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "open_receipt",
        entity: "receipt",
        entityId: receiptId,
        summary: sql`json_object('vendorId', r.vendor_id, 'vendor', (SELECT name FROM vendors WHERE id = r.vendor_id),
          'reference', r.reference, 'notes', r.notes)`,
      },
      sql`FROM receipts AS r WHERE r.id = ${receiptId}`,
    ),
    db.all<{ locationOk: number }>(sql`SELECT ${locationOk} AS locationOk`),
  ]);
  if (opened.length === 1) return { ok: true, receiptId };
  return checks[0]?.locationOk ? refuse("vendor_unavailable") : refuse("location_unavailable");
}
