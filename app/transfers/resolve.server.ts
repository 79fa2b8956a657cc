// Resolving a discrepancy (a line marked missing, damaged or short): someone with WRITE_TRANSFERS at
// either location writes what was done about it; the line keeps the note, who and when. The stock
// was booked on arrival (ADR 0031): resolving moves none.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { ResolveForm } from "./forms";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { eitherSide, mayOn, readTransfer } from "./read.server";

export async function resolveDiscrepancy(
  db: Database,
  actor: ScopedActor,
  sent: { transferId: string; lineId: string; note: string },
): Promise<Outcome<{ label: string }>> {
  const read = ResolveForm.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const transfer = await readTransfer(db, actor, sent.transferId);
  if (!transfer) return refuse("not_found");
  if (!mayOn(actor, transfer).resolve) return refuse("forbidden");
  const line = transfer.lines.find((l) => l.id === read.data.lineId);
  if (!line) return refuse("line_not_found");
  const guard = sql`l.id = ${line.id} AND l.transfer_id = t.id AND t.id = ${transfer.id}
    AND l.status IN ('missing', 'damaged', 'short') AND l.resolved_at IS NULL AND ${eitherSide(actor, "WRITE_TRANSFERS")}`;
  const at = Date.now();
  const [, resolved] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: actor.locationId && actor.locationId !== "all" ? actor.locationId : transfer.toLocationId,
        action: "resolve_discrepancy",
        entity: "transfer",
        entityId: transfer.id,
        summary: sql`json_object(${ROUTE}, 'lineId', l.id, 'item', ${line.labelCode}, 'product', ${line.product},
          'status', l.status, 'note', ${read.data.note})`,
      },
      sql`FROM transfer_lines AS l, transfers AS t WHERE ${guard}`,
    ),
    db.all<{ id: string }>(sql`UPDATE transfer_lines SET resolved_by = ${actor.id}, resolved_at = ${at},
        resolution_note = ${read.data.note}
      WHERE id IN (SELECT l.id FROM transfer_lines AS l, transfers AS t WHERE ${guard}) RETURNING id`),
  ]);
  if (resolved.length === 1) return { ok: true, label: line.labelCode ? `vial ${line.labelCode}` : line.product };
  return refuse("not_a_discrepancy");
}
