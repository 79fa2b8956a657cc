// Receiving a transfer on its way, at its destination (WRITE_INVENTORY there), all of it or some
// lines, in one batch (ADR 0031): each line closes with TRANSFER_IN of what was sent at the
// destination, then what did not arrive whole leaves there at once as DISCARD (`lost_in_transit`
// for a missing vial or a short quantity, `damaged` for a damaged one). A vial that arrived is
// sealed at the destination (a lot recalled meanwhile is quarantined there by the recall rules);
// a lost or damaged one is discarded there. A missing, damaged or short line is a discrepancy,
// open until resolved. When no line is left pending the transfer is received (`transfer_complete`).
// Each line is guarded as still pending in the same batch: two receipts of one line book it once.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { isOutsideGuard, type Movement, recordMovements } from "~/stock/ledger.server";
import { ReceiveBody, type ReceiveInput, type ReceiveLine } from "./forms";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse, type TransferRefused } from "./outcome";
import { happened, mayOn, reached, readTransfer, type Transfer, type TransferLine } from "./read.server";

type Received = { transferId: string; status: string; received: number; discrepancies: number };

interface Booking {
  line: TransferLine;
  mark: ReceiveLine;
  /** Base units kept at the destination. */
  arrived: number;
  /** Base units discarded there at once, and why. */
  lost: number;
  discardReason: "lost_in_transit" | "damaged" | null;
}

function bookingOf(line: TransferLine, mark: ReceiveLine): Booking | TransferRefused {
  const vial = line.itemId !== null;
  if (mark.quantity !== undefined && mark.quantity > line.quantity) {
    return refuse(
      "receive_too_much",
      `At most ${line.quantity} ${line.baseUnit} of ${line.product} were sent on this line.`,
    );
  }
  switch (mark.status) {
    case "received":
      if (mark.quantity !== undefined && mark.quantity < line.quantity) {
        return refuse(
          "invalid",
          "Less arrived than was sent: mark the line short, with the quantity that arrived and a reason.",
        );
      }
      return { line, mark, arrived: line.quantity, lost: 0, discardReason: null };
    case "missing":
      return { line, mark, arrived: 0, lost: line.quantity, discardReason: "lost_in_transit" };
    case "damaged":
      return { line, mark, arrived: 0, lost: line.quantity, discardReason: "damaged" };
    case "short": {
      if (vial) return refuse("short_vial");
      const arrived = mark.quantity ?? 0;
      if (arrived >= line.quantity)
        return refuse("invalid", "Short means less arrived than was sent: enter the quantity that arrived.");
      return { line, mark, arrived, lost: line.quantity - arrived, discardReason: "lost_in_transit" };
    }
  }
}

/** Why the marks cannot be booked on the transfer as read, or the bookings. */
function bookingsOf(transfer: Transfer, marks: readonly ReceiveLine[]): Booking[] | TransferRefused {
  if (transfer.status !== "in_transit") return refuse("not_in_transit");
  const seen = new Set<string>();
  const bookings: Booking[] = [];
  for (const mark of marks) {
    if (seen.has(mark.lineId)) return refuse("invalid", "Each line is named once.");
    seen.add(mark.lineId);
    const line = transfer.lines.find((l) => l.id === mark.lineId);
    if (!line) return refuse("line_not_found");
    if (line.status !== "pending") return refuse("line_closed");
    const booking = bookingOf(line, mark);
    if ("ok" in booking) return booking;
    bookings.push(booking);
  }
  return bookings;
}

export async function receiveTransfer(
  db: Database,
  actor: ScopedActor,
  sent: ReceiveInput,
): Promise<Outcome<Received>> {
  const read = ReceiveBody.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const marks = read.data.lines;
  const key = await idempotencyKeyFor(actor.id, sent.idempotencyKey, `transfer_receive:${sent.transferId}`, read.data);
  const earlier = replayOf<Outcome<Received>>(await recallKey(db, key), key);
  if (earlier.replay) return earlier.answer;
  if (earlier.misused) return refuse("key_misused");
  const transfer = await readTransfer(db, actor, sent.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).receive) return refuse("forbidden");
  const bookings = bookingsOf(transfer, marks);
  if (!Array.isArray(bookings)) return bookings;

  const activityId = uuidv7();
  const done = happened(activityId);
  const now = new Date();
  const at = now.getTime();
  const ids = bookings.map((b) => b.line.id);
  const guard = sql`t.id = ${transfer.id} AND t.status = 'in_transit' AND ${keyUnused(key)}
    AND ${reached(actor, "WRITE_INVENTORY", sql`t.to_location_id`)}
    AND (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.id IN ${ids} AND l.status = 'pending') = ${ids.length}`;
  const count = (status: string) => bookings.filter((b) => b.mark.status === status).length;
  const discrepancies = bookings.length - count("received");
  const movements: Movement[] = [];
  for (const b of bookings) {
    const common = {
      locationId: transfer.toLocationId,
      variationId: b.line.variationId,
      itemId: b.line.itemId,
      lot: b.line.lot,
      reference: { type: "transfer" as const, id: transfer.id },
      userId: actor.id,
      occurredAt: now,
    };
    movements.push({ ...common, type: "TRANSFER_IN", quantity: sql`(SELECT ${b.line.quantity} WHERE ${done})` });
    if (b.lost > 0) {
      movements.push({
        ...common,
        type: "DISCARD",
        quantity: sql`(SELECT ${-b.lost} WHERE ${done})`,
        reason: b.discardReason,
        note: b.mark.reason,
      });
    }
  }
  const noPending = sql`NOT EXISTS (SELECT 1 FROM transfer_lines AS p WHERE p.transfer_id = t.id AND p.status = 'pending')`;
  try {
    const results = await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: transfer.toLocationId,
          action: "receive_transfer",
          entity: "transfer",
          entityId: transfer.id,
          summary: sql`json_object(${ROUTE}, 'vials', ${bookings.filter((b) => b.line.itemId).length},
            'lines', ${bookings.filter((b) => !b.line.itemId).length}, 'received', ${count("received")},
            'missing', ${count("missing")}, 'damaged', ${count("damaged")}, 'short', ${count("short")})`,
        },
        sql`FROM transfers AS t WHERE ${guard}`,
      ),
      ...bookings.map((b) =>
        db.run(sql`UPDATE transfer_lines SET status = ${b.mark.status}, quantity_received = ${b.arrived},
            reason = ${b.mark.reason}, received_by = ${actor.id}, received_at = ${at}
          WHERE id = ${b.line.id} AND status = 'pending' AND ${done}`),
      ),
      ...recordMovements(db, movements as [Movement, ...Movement[]]),
      ...bookings
        .filter((b) => b.line.itemId !== null)
        .map((b) =>
          b.lost > 0
            ? db.run(sql`UPDATE items SET location_id = ${transfer.toLocationId}, state = 'discarded', units_remaining = 0,
                  discard_reason = ${b.discardReason}, discard_note = ${b.mark.reason}, ended_at = ${at}, updated_at = ${at}
                WHERE id = ${b.line.itemId} AND state = 'in_transit' AND ${done}`)
            : db.run(sql`UPDATE items SET location_id = ${transfer.toLocationId}, state = 'sealed',
                  units_remaining = ${b.arrived}, updated_at = ${at}
                WHERE id = ${b.line.itemId} AND state = 'in_transit' AND ${done}`),
        ),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: transfer.toLocationId,
          action: "transfer_complete",
          entity: "transfer",
          entityId: transfer.id,
          summary: sql`json_object(${ROUTE}, 'openDiscrepancies', (SELECT count(*) FROM transfer_lines AS d
            WHERE d.transfer_id = t.id AND d.status IN ('missing', 'damaged', 'short') AND d.resolved_at IS NULL))`,
        },
        sql`FROM transfers AS t WHERE t.id = ${transfer.id} AND t.status = 'in_transit' AND ${done} AND ${noPending}`,
      ),
      db.run(sql`UPDATE transfers AS t SET status = 'received', received_at = ${at}, updated_at = ${at}
        WHERE t.id = ${transfer.id} AND t.status = 'in_transit' AND ${done} AND ${noPending}`),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'transferId', t.id, 'status', t.status, 'received', ${count("received")},
          'discrepancies', ${discrepancies})`,
        sql`FROM transfers AS t WHERE t.id = ${transfer.id} AND ${done}`,
      ),
      db.all<{ status: string }>(sql`SELECT status FROM transfers WHERE id = ${transfer.id}`),
    ]);
    const status = (results[results.length - 1] as { status: string }[])[0]?.status ?? "in_transit";
    return { ok: true, transferId: transfer.id, status, received: count("received"), discrepancies };
  } catch (error) {
    if (isOutsideGuard(error)) {
      // Nothing was booked: a repeat of the key, or another receipt of these lines got in first.
      const replay = replayOf<Outcome<Received>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      const now = await readTransfer(db, actor, sent.transferId);
      if (!now) return refuse("not_found");
      const again = bookingsOf(now, marks);
      return Array.isArray(again) ? refuse("changed") : again;
    }
    throw error;
  }
}
