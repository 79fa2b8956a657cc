// Adding a line to a request or a draft, at its sending location (WRITE_TRANSFERS there): a vial by
// its label code (sealed, on the sender's shelf, on no other open transfer, its lot not recalled) or
// a bulk quantity (not more than is on hand, counting the transfer's own lines of it). A request
// filled this way becomes a draft. The refusal says why in words ("This vial is open: …").
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { TRANSFER_LINES_MAX } from "./constants";
import { AddLineInput } from "./forms";
import { insertLine, isLineRefused, ROUTE, resolveLine } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { happened, mayOn, reached, readTransfer } from "./read.server";

export async function addTransferLine(
  db: Database,
  actor: ScopedActor,
  sent: AddLineInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<{ lineId: string; label: string }>> {
  const read = AddLineInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { transferId, line } = read.data;
  const transfer = await readTransfer(db, actor, transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).fill) return refuse("forbidden");
  if (transfer.status !== "draft" && transfer.status !== "requested") return refuse("not_open");
  if (transfer.lines.length >= TRANSFER_LINES_MAX) return refuse("too_many_lines");
  const resolved = await resolveLine(db, actor, transfer.fromLocationId, transferId, line);
  if (!resolved.ok) return resolved;
  const added = resolved.line;
  const activityId = uuidv7();
  const guard = sql`t.id = ${transferId} AND t.status IN ('requested', 'draft')
    AND ${reached(actor, "WRITE_TRANSFERS", sql`t.from_location_id`)}
    AND (SELECT count(*) FROM transfer_lines AS x WHERE x.transfer_id = t.id) < ${TRANSFER_LINES_MAX}`;
  const at = Date.now();
  try {
    await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: sql`t.from_location_id`,
          action: "add_transfer_line",
          entity: "transfer",
          entityId: transferId,
          summary: sql`json_object(${ROUTE}, 'lineId', ${added.id}, 'item', ${added.labelCode},
            'product', ${added.product}, 'quantity', ${added.quantity})`,
        },
        sql`FROM transfers AS t WHERE ${guard}`,
      ),
      insertLine(db, transferId, added, happened(activityId), at),
      db.run(sql`UPDATE transfers SET status = 'draft', updated_at = ${at}
        WHERE id = ${transferId} AND status = 'requested' AND ${happened(activityId)}`),
    ]);
    return { ok: true, lineId: added.id, label: added.label };
  } catch (error) {
    // The vial or the transfer changed between the read and the write: say why as it now stands.
    if (isLineRefused(error) && !options.retried) return addTransferLine(db, actor, sent, { retried: true });
    if (isLineRefused(error)) return refuse("changed");
    throw error;
  }
}
