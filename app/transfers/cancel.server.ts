// Cancelling a request or a draft that will not go (WRITE_TRANSFERS at either location: the sender
// drops it, or the requester no longer needs it), with an optional reason. Nothing moved, so no
// stock moves; its lines stay as history. A transfer on its way is recalled instead.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { CancelBody } from "./forms";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { eitherSide, mayOn, readTransfer } from "./read.server";

type Cancelled = { transferId: string; status: "cancelled" };

export async function cancelTransfer(
  db: Database,
  actor: ScopedActor,
  sent: { transferId: string; reason?: string | null; idempotencyKey?: string | null },
): Promise<Outcome<Cancelled>> {
  const read = CancelBody.safeParse({ reason: sent.reason });
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { reason } = read.data;
  const key = await idempotencyKeyFor(actor.id, sent.idempotencyKey, `transfer_cancel:${sent.transferId}`, read.data);
  const earlier = replayOf<Outcome<Cancelled>>(await recallKey(db, key), key);
  if (earlier.replay) return earlier.answer;
  if (earlier.misused) return refuse("key_misused");
  const transfer = await readTransfer(db, actor, sent.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).cancel) return refuse("forbidden");
  if (transfer.status !== "draft" && transfer.status !== "requested") return refuse("not_cancellable");
  const at = Date.now();
  const guard = sql`t.id = ${transfer.id} AND t.status IN ('requested', 'draft') AND ${eitherSide(actor, "WRITE_TRANSFERS")}
    AND ${keyUnused(key)}`;
  const { updated } = await changeWithActivity(db, {
    from: sql`transfers AS t`,
    guard,
    activity: {
      userId: actor.id,
      locationId: actor.locationId && actor.locationId !== "all" ? actor.locationId : transfer.fromLocationId,
      action: "cancel_transfer",
      entity: "transfer",
      entityId: transfer.id,
      summary: sql`json_object(${ROUTE}, 'was', t.status, 'reason', ${reason},
        'lines', (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id))`,
    },
    update: db.all<{ id: string }>(sql`UPDATE transfers AS t SET status = 'cancelled', cancelled_by = ${actor.id},
        cancelled_at = ${at}, cancel_reason = ${reason}, updated_at = ${at}
      WHERE ${guard} RETURNING id`),
    readBack: rememberKey(
      db,
      key,
      sql`json_object('ok', json('true'), 'transferId', t.id, 'status', 'cancelled')`,
      sql`FROM transfers AS t WHERE t.id = ${transfer.id} AND t.cancelled_at = ${at} AND t.cancelled_by = ${actor.id}`,
    ),
  });
  if (updated.length === 1) return { ok: true, transferId: transfer.id, status: "cancelled" };
  const replay = replayOf<Outcome<Cancelled>>(await recallKey(db, key), key);
  if (replay.replay) return replay.answer;
  return refuse("not_cancellable");
}
