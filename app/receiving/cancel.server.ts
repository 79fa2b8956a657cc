// Cancelling a receipt that will not be completed (wrong delivery, started twice): it stays, with
// its lines, as history; nothing was received. Only an open receipt can be cancelled.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { canHere, idsReached } from "~/access/scope.server";
import { changeWithActivity } from "~/activity/change.server";
import { type Database, schema } from "~/db/client.server";
import { closedReceipt, type Outcome, refuse } from "./outcome";

export async function cancelReceipt(
  db: Database,
  actor: ScopedActor,
  input: { receiptId: string },
): Promise<Outcome<{ lines: number }>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const found = sql`receipts.id = ${input.receiptId} AND receipts.id IN ${idsReached("receipts", actor, "WRITE_INVENTORY")}`;
  const guard = sql`${found} AND receipts.status = 'open'`;
  const lines = sql`(SELECT count(*) FROM receipt_lines WHERE receipt_id = receipts.id)`;
  const { updated, current } = await changeWithActivity(db, {
    from: schema.receipts,
    guard,
    activity: {
      userId: actor.id,
      locationId: sql`receipts.location_id`,
      action: "cancel_receipt",
      entity: "receipt",
      entityId: input.receiptId,
      summary: sql`json_object('lines', ${lines}, 'reference', receipts.reference)`,
    },
    update: db.all<{ lines: number }>(sql`UPDATE receipts SET status = 'cancelled', version = version + 1
      WHERE ${guard} RETURNING ${lines} AS lines`),
    readBack: db.all<{ status: string }>(sql`SELECT status FROM receipts WHERE ${found}`),
  });
  const done = updated[0];
  if (done) return { ok: true, lines: Number(done.lines) };
  const row = current[0];
  return row ? closedReceipt(row.status) : refuse("not_found");
}
