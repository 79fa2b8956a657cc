// A request for stock, made at the receiving location (WRITE_TRANSFERS there) to another active
// location of the organization: status `requested`, with who asked and what for (the note). The
// sender fills it by adding lines (./add-line.server), which makes it a draft.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { activeLocation } from "./create.server";
import { RequestTransferInput } from "./forms";
import { ROUTE } from "./lines.server";
import { type Outcome, refuse } from "./outcome";

export async function requestTransfer(
  db: Database,
  actor: ScopedActor,
  sent: RequestTransferInput,
): Promise<Outcome<{ transferId: string }>> {
  const read = RequestTransferInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input = read.data;
  if (!reachesAt(actor, "WRITE_TRANSFERS", input.toLocationId)) return refuse("forbidden");
  if (input.fromLocationId === input.toLocationId) return refuse("same_location");
  const transferId = uuidv7();
  const at = Date.now();
  const [created] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO transfers (id, from_location_id, to_location_id, status, note, created_by,
        created_at, requested_by, requested_at, updated_at)
      SELECT ${transferId}, ${input.fromLocationId}, ${input.toLocationId}, 'requested', ${input.note}, ${actor.id}, ${at},
        ${actor.id}, ${at}, ${at}
      WHERE ${activeLocation(actor, input.fromLocationId)} AND ${activeLocation(actor, input.toLocationId)}
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.toLocationId,
        action: "request_transfer",
        entity: "transfer",
        entityId: transferId,
        summary: sql`json_object(${ROUTE}, 'note', t.note)`,
      },
      sql`FROM transfers AS t WHERE t.id = ${transferId}`,
    ),
  ]);
  if (created.length !== 1) return refuse("location_unavailable");
  return { ok: true, transferId };
}
