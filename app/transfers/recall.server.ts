// Recalling a transfer on its way back to its sender (WRITE_TRANSFERS there), while nothing of it
// has been received (ADR 0031): each line is returned, TRANSFER_IN of what it carries books it back
// at the sender, its vials are sealed there again; the transfer is cancelled, with recalled_at.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { isOutsideGuard, type Movement, recordMovements } from "~/stock/ledger.server";
import { CancelBody } from "./forms";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { happened, mayOn, reached, readTransfer } from "./read.server";

export async function recallTransfer(
  db: Database,
  actor: ScopedActor,
  sent: { transferId: string; reason?: string | null },
): Promise<Outcome<{ transferId: string; lines: number }>> {
  const read = CancelBody.safeParse({ reason: sent.reason });
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const transfer = await readTransfer(db, actor, sent.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).recall) return refuse("forbidden");
  const { lines } = transfer;
  if (transfer.status !== "in_transit" || lines.length === 0 || lines.some((l) => l.status !== "pending")) {
    return refuse("not_recallable");
  }
  const activityId = uuidv7();
  const done = happened(activityId);
  const now = new Date();
  const at = now.getTime();
  const guard = sql`t.id = ${transfer.id} AND t.status = 'in_transit' AND ${reached(actor, "WRITE_TRANSFERS", sql`t.from_location_id`)}
    AND NOT EXISTS (SELECT 1 FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.status <> 'pending')
    AND (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id) = ${lines.length}`;
  try {
    await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: transfer.fromLocationId,
          action: "recall_transfer",
          entity: "transfer",
          entityId: transfer.id,
          summary: sql`json_object(${ROUTE}, 'vials', ${lines.filter((l) => l.itemId).length},
            'lines', ${lines.filter((l) => !l.itemId).length}, 'reason', ${read.data.reason})`,
        },
        sql`FROM transfers AS t WHERE ${guard}`,
      ),
      ...recordMovements(
        db,
        lines.map(
          (l): Movement => ({
            locationId: transfer.fromLocationId,
            variationId: l.variationId,
            quantity: sql`(SELECT ${l.quantity} WHERE ${done})`,
            type: "TRANSFER_IN",
            itemId: l.itemId,
            lot: l.lot,
            reference: { type: "transfer", id: transfer.id },
            userId: actor.id,
            occurredAt: now,
          }),
        ) as [Movement, ...Movement[]],
      ),
      ...lines
        .filter((l) => l.itemId !== null)
        .map((l) =>
          db.run(sql`UPDATE items SET location_id = ${transfer.fromLocationId}, state = 'sealed',
              units_remaining = ${l.quantity}, updated_at = ${at}
            WHERE id = ${l.itemId} AND state = 'in_transit' AND ${done}`),
        ),
      db.run(sql`UPDATE transfer_lines SET status = 'returned' WHERE transfer_id = ${transfer.id} AND status = 'pending'
        AND ${done}`),
      db.run(sql`UPDATE transfers SET status = 'cancelled', cancelled_by = ${actor.id}, cancelled_at = ${at},
          recalled_at = ${at}, cancel_reason = ${read.data.reason}, updated_at = ${at}
        WHERE id = ${transfer.id} AND ${done}`),
    ]);
    return { ok: true, transferId: transfer.id, lines: lines.length };
  } catch (error) {
    if (isOutsideGuard(error)) return refuse("not_recallable");
    throw error;
  }
}
