// Transfers written by SQL as the transfer verbs would (ADR 0031), for the tests of what reads them
// (the dashboard's figures, the balancing suggestions) on a branch without those verbs: one batch
// each, the ledger kept balanced. Sending books TRANSFER_OUT at the sender (a vial: its units, and it
// becomes in_transit with 0 left; bulk: the quantity) and leaves the lines pending; marking a line
// missing or short books TRANSFER_IN then DISCARD (lost_in_transit) at the destination.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/client.server";

type Status = "draft" | "in_transit";

export interface WrittenTransfer {
  transferId: string;
  /** Line ids in the order given: vials first, then bulk. */
  lineIds: string[];
}

/** A transfer from `from` to `to` of these vials and bulk quantities, sent (in_transit) or a draft. */
export async function writeTransfer(
  db: Database,
  input: {
    from: string;
    to: string;
    by: string;
    status: Status;
    itemIds?: string[];
    bulk?: { variationId: string; quantity: number; lot?: string | null }[];
    at?: Date;
  },
): Promise<WrittenTransfer> {
  const at = (input.at ?? new Date()).getTime();
  const transferId = randomUUID();
  const sent = input.status === "in_transit";
  const statements = [
    db.run(sql`INSERT INTO transfers (id, from_location_id, to_location_id, status, created_by, created_at, sent_by, sent_at, updated_at)
      VALUES (${transferId}, ${input.from}, ${input.to}, ${input.status}, ${input.by}, ${at},
        ${sent ? input.by : null}, ${sent ? at : null}, ${at})`),
  ];
  const lineIds: string[] = [];
  for (const itemId of input.itemIds ?? []) {
    const lineId = randomUUID();
    lineIds.push(lineId);
    statements.push(
      db.run(sql`INSERT INTO transfer_lines (id, transfer_id, variation_id, item_id, lot, quantity, created_at)
        SELECT ${lineId}, ${transferId}, i.variation_id, i.id, i.lot, i.units_remaining, ${at}
        FROM items AS i WHERE i.id = ${itemId} AND i.state = 'sealed' AND i.location_id = ${input.from}`),
    );
    if (sent) {
      statements.push(
        db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, item_id, lot, quantity, type,
            reference_type, reference_id, user_id)
          SELECT ${randomUUID()}, ${at}, i.location_id, i.variation_id, i.id, i.lot, -i.units_remaining, 'TRANSFER_OUT',
            'transfer', ${transferId}, ${input.by} FROM items AS i WHERE i.id = ${itemId}`),
        db.run(sql`UPDATE stock_levels SET on_hand = on_hand - (SELECT units_remaining FROM items WHERE id = ${itemId}),
            updated_at = ${at}
          WHERE location_id = ${input.from} AND variation_id = (SELECT variation_id FROM items WHERE id = ${itemId})`),
        db.run(
          sql`UPDATE items SET state = 'in_transit', units_remaining = 0, updated_at = ${at} WHERE id = ${itemId}`,
        ),
      );
    }
  }
  for (const line of input.bulk ?? []) {
    const lineId = randomUUID();
    lineIds.push(lineId);
    statements.push(
      db.run(sql`INSERT INTO transfer_lines (id, transfer_id, variation_id, lot, quantity, created_at)
        VALUES (${lineId}, ${transferId}, ${line.variationId}, ${line.lot ?? null}, ${line.quantity}, ${at})`),
    );
    if (sent) {
      statements.push(
        db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, lot, quantity, type,
            reference_type, reference_id, user_id)
          VALUES (${randomUUID()}, ${at}, ${input.from}, ${line.variationId}, ${line.lot ?? null}, ${-line.quantity},
            'TRANSFER_OUT', 'transfer', ${transferId}, ${input.by})`),
        db.run(sql`UPDATE stock_levels SET on_hand = on_hand - ${line.quantity}, updated_at = ${at}
          WHERE location_id = ${input.from} AND variation_id = ${line.variationId}`),
      );
    }
  }
  await db.batch(statements as never);
  return { transferId, lineIds };
}

/**
 * A bulk line of a transfer in transit marked short (`received` of it arrived) or a vial line marked
 * missing: TRANSFER_IN of what was sent at the destination, then DISCARD of what did not arrive.
 */
export async function markLineLost(
  db: Database,
  input: { lineId: string; by: string; received: number; reason: string; at?: Date },
) {
  const at = (input.at ?? new Date()).getTime();
  const [line] = await db.all<{
    transferId: string;
    to: string;
    variationId: string;
    itemId: string | null;
    lot: string | null;
    quantity: number;
  }>(sql`SELECT tl.transfer_id AS transferId, t.to_location_id AS "to", tl.variation_id AS variationId,
      tl.item_id AS itemId, tl.lot, tl.quantity FROM transfer_lines AS tl JOIN transfers AS t ON t.id = tl.transfer_id
    WHERE tl.id = ${input.lineId}`);
  if (!line) throw new Error("no such line");
  const lost = line.quantity - input.received;
  const status = line.itemId ? "missing" : "short";
  const move = (quantity: number, type: string, reason: string | null) =>
    db.run(sql`INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, item_id, lot, quantity, type,
        reason, reference_type, reference_id, user_id)
      VALUES (${randomUUID()}, ${at}, ${line.to}, ${line.variationId}, ${line.itemId}, ${line.lot}, ${quantity}, ${type},
        ${reason}, 'transfer', ${line.transferId}, ${input.by})`);
  await db.batch([
    db.run(sql`UPDATE transfer_lines SET status = ${status}, quantity_received = ${input.received},
        reason = ${input.reason}, received_by = ${input.by}, received_at = ${at}
      WHERE id = ${input.lineId} AND status = 'pending'`),
    move(line.quantity, "TRANSFER_IN", null),
    move(-lost, "DISCARD", "lost_in_transit"),
    db.run(sql`INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
      VALUES (${line.to}, ${line.variationId}, ${input.received}, ${at})
      ON CONFLICT (location_id, variation_id) DO UPDATE SET on_hand = on_hand + ${input.received}, updated_at = ${at}`),
    db.run(sql`UPDATE items SET location_id = ${line.to}, state = 'discarded', discard_reason = 'lost_in_transit',
        ended_at = ${at}, updated_at = ${at}
      WHERE id = ${line.itemId}`),
  ] as never);
}
