// Taking a line off a request or a draft, at its sending location (WRITE_TRANSFERS there): a wrong
// scan, a vial that stays. A transfer on its way or done keeps its lines.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { mayOn, reached, readTransfer } from "./read.server";

export async function removeTransferLine(
  db: Database,
  actor: ScopedActor,
  input: { transferId: string; lineId: string },
): Promise<Outcome<{ label: string }>> {
  const transfer = await readTransfer(db, actor, input.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).fill) return refuse("forbidden");
  const line = transfer.lines.find((l) => l.id === input.lineId);
  if (!line) return refuse("line_not_found");
  if (transfer.status !== "draft" && transfer.status !== "requested") return refuse("not_open");
  const guard = sql`l.id = ${input.lineId} AND l.transfer_id = ${input.transferId} AND t.status IN ('requested', 'draft')
    AND ${reached(actor, "WRITE_TRANSFERS", sql`t.from_location_id`)}`;
  const [, removed] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: sql`t.from_location_id`,
        action: "remove_transfer_line",
        entity: "transfer",
        entityId: input.transferId,
        summary: sql`json_object(${ROUTE}, 'lineId', l.id, 'item', ${line.labelCode}, 'product', ${line.product},
          'quantity', l.quantity)`,
      },
      sql`FROM transfer_lines AS l JOIN transfers AS t ON t.id = l.transfer_id WHERE ${guard}`,
    ),
    db.all<{ id: string }>(sql`DELETE FROM transfer_lines WHERE id IN (SELECT l.id FROM transfer_lines AS l
      JOIN transfers AS t ON t.id = l.transfer_id WHERE ${guard}) RETURNING id`),
  ]);
  if (removed.length !== 1) return refuse("changed");
  const label = line.labelCode
    ? `${line.product}, vial ${line.labelCode}`
    : `${line.quantity} ${line.baseUnit} of ${line.product}`;
  return { ok: true, label };
}
