// Sending a draft, at its sending location (WRITE_TRANSFERS there), in one batch (ADR 0031): each
// vial becomes in_transit with 0 units left and its units leave the sender as TRANSFER_OUT; each
// bulk quantity leaves as TRANSFER_OUT (stock_levels' CHECK refuses more than is on hand). A lot
// under recall is not sent (the refusal names it). Guarded on the draft exactly as read: its lines,
// each vial still sealed on the sender's shelf; a change in between sends nothing.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { isNotEnoughStock, isOutsideGuard, recordMovements } from "~/stock/ledger.server";
import { lotRecalled } from "~/stock/quarantine.server";
import { pastDeadline } from "~/stock/usable.server";
import { expiredWords, ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { happened, mayOn, reached, readTransfer, type Transfer } from "./read.server";

type Sent = { transferId: string; vials: number; bulkLines: number };

/** Why the draft as read cannot be sent, in words; null when it can. */
function sendProblem(transfer: Transfer) {
  if (transfer.status !== "draft") return refuse("not_draft");
  if (transfer.lines.length === 0) return refuse("empty");
  for (const l of transfer.lines) {
    if (l.itemId === null) continue;
    const vial = `Vial ${l.labelCode} (${l.product})`;
    if (l.recalled) {
      return refuse(
        "lot_recalled",
        `Lot ${l.lot} of ${l.product} is recalled: a recalled lot cannot be sent. Remove vial ${l.labelCode} first.`,
      );
    }
    if (l.itemState === "sealed" && l.expired) return refuse("vial_expired", `${expiredWords(l)} Remove it first.`);
    if (l.itemState === "in_use")
      return refuse("vial_started", `${vial} was opened: a started vial stays where it was opened. Remove it first.`);
    if (l.itemState !== "sealed" || l.itemLocationId !== transfer.fromLocationId) {
      return refuse("vial_elsewhere", `${vial} is no longer sealed on ${transfer.fromName}'s shelf. Remove it first.`);
    }
  }
  return null;
}

export async function sendTransfer(
  db: Database,
  actor: ScopedActor,
  input: { transferId: string; idempotencyKey?: string | null },
): Promise<Outcome<Sent>> {
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, `transfer_send:${input.transferId}`, {});
  const earlier = replayOf<Outcome<Sent>>(await recallKey(db, key), key);
  if (earlier.replay) return earlier.answer;
  if (earlier.misused) return refuse("key_misused");
  const transfer = await readTransfer(db, actor, input.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).send) return refuse("forbidden");
  const problem = sendProblem(transfer);
  if (problem) return problem;

  const { lines } = transfer;
  const vials = lines.filter((l) => l.itemId !== null);
  const activityId = uuidv7();
  const done = happened(activityId);
  const now = new Date();
  const at = now.getTime();
  const lineIds = lines.map((l) => l.id);
  const guard = sql`t.id = ${transfer.id} AND t.status = 'draft' AND ${reached(actor, "WRITE_TRANSFERS", sql`t.from_location_id`)}
    AND ${keyUnused(key)}
    AND (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id) = ${lines.length}
    AND (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.id IN ${lineIds}) = ${lines.length}
    AND NOT EXISTS (SELECT 1 FROM transfer_lines AS l JOIN items AS i ON i.id = l.item_id WHERE l.transfer_id = t.id
      AND (i.state <> 'sealed' OR i.location_id <> t.from_location_id OR i.units_remaining <= 0 OR ${lotRecalled("i")}
        OR ${pastDeadline("i", now)}))`;
  try {
    await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: transfer.fromLocationId,
          action: "send_transfer",
          entity: "transfer",
          entityId: transfer.id,
          summary: sql`json_object(${ROUTE}, 'vials', ${vials.length}, 'lines', ${lines.length - vials.length})`,
        },
        sql`FROM transfers AS t WHERE ${guard}`,
      ),
      // A vial line carries the vial's units as they are now (a sealed vial: the package).
      db.run(sql`UPDATE transfer_lines SET quantity = (SELECT i.units_remaining FROM items AS i WHERE i.id = item_id)
        WHERE transfer_id = ${transfer.id} AND item_id IS NOT NULL AND ${done}`),
      ...recordMovements(
        db,
        lines.map((l) => ({
          locationId: transfer.fromLocationId,
          variationId: l.variationId,
          quantity: sql`(SELECT -x.quantity FROM transfer_lines AS x WHERE x.id = ${l.id} AND ${done})`,
          type: "TRANSFER_OUT" as const,
          itemId: l.itemId,
          lot: l.lot,
          reference: { type: "transfer" as const, id: transfer.id },
          userId: actor.id,
          occurredAt: now,
        })) as [never, ...never[]],
      ),
      db.run(sql`UPDATE items SET state = 'in_transit', units_remaining = 0, updated_at = ${at}
        WHERE id IN (SELECT item_id FROM transfer_lines WHERE transfer_id = ${transfer.id} AND item_id IS NOT NULL)
          AND state = 'sealed' AND ${done}`),
      db.run(sql`UPDATE transfers SET status = 'in_transit', sent_by = ${actor.id}, sent_at = ${at}, updated_at = ${at}
        WHERE id = ${transfer.id} AND ${done}`),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'transferId', ${transfer.id}, 'vials', ${vials.length},
          'bulkLines', ${lines.length - vials.length})`,
        sql`FROM activity_log WHERE id = ${activityId}`,
      ),
    ]);
    return { ok: true, transferId: transfer.id, vials: vials.length, bulkLines: lines.length - vials.length };
  } catch (error) {
    if (isNotEnoughStock(error)) {
      return refuse(
        "not_enough",
        "There is no longer that much on hand at the sending location: lower the bulk quantities and send again.",
      );
    }
    if (isOutsideGuard(error)) {
      // Nothing was sent: a repeat of the key, or the transfer changed since it was read.
      const replay = replayOf<Outcome<Sent>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      const now = await readTransfer(db, actor, input.transferId);
      return (now && sendProblem(now)) || refuse("changed");
    }
    throw error;
  }
}
