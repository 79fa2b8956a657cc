// A new transfer, made at the sending location (WRITE_TRANSFERS there) to another active location
// of the same organization: a draft, empty (the page then adds lines by scan) or with its lines in
// the same batch (the API, a balancing suggestion). Each line is read first to say why it cannot go,
// and written under the same rules: a change in between refuses the whole transfer, nothing written.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { CreateTransferInput } from "./forms";
import { insertLine, isLineRefused, type ResolvedLine, ROUTE, resolveLine } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { happened, reached } from "./read.server";

/** SQL: `id` is an active location of the actor's organization. */
export function activeLocation(actor: ScopedActor, id: string) {
  return sql`EXISTS (SELECT 1 FROM locations AS l WHERE l.id = ${id} AND l.active = 1
    AND l.organization_id = ${organizationOf(actor)})`;
}

type Created = { transferId: string; lines: number };

export async function createTransfer(
  db: Database,
  actor: ScopedActor,
  sent: CreateTransferInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<Created>> {
  const read = CreateTransferInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input = read.data;
  if (!reachesAt(actor, "WRITE_TRANSFERS", input.fromLocationId)) return refuse("forbidden");
  if (input.fromLocationId === input.toLocationId) return refuse("same_location");
  const { idempotencyKey, ...request } = input;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, "transfer_create", request);

  // A repeat of a key answers what the first one did, before the lines are looked at again.
  const earlier = replayOf<Outcome<Created>>(await recallKey(db, key), key);
  if (earlier.replay) return earlier.answer;
  if (earlier.misused) return refuse("key_misused");
  const [places] = await db.all<{ from: number; to: number }>(
    sql`SELECT ${activeLocation(actor, input.fromLocationId)} AS "from", ${activeLocation(actor, input.toLocationId)} AS "to"`,
  );
  if (!places?.from || !places.to) return refuse("location_unavailable");

  const lines: ResolvedLine[] = [];
  for (const line of input.lines) {
    const resolved = await resolveLine(db, actor, input.fromLocationId, null, line, lines);
    if (!resolved.ok) return resolved;
    lines.push(resolved.line);
  }

  const transferId = uuidv7();
  const activityId = uuidv7();
  const at = Date.now();
  const guard = sql`${reached(actor, "WRITE_TRANSFERS", sql`t.from_location_id`)} AND t.status = 'draft'`;
  try {
    const [created, , ...rest] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO transfers (id, from_location_id, to_location_id, status, note, created_by,
          created_at, updated_at)
        SELECT ${transferId}, ${input.fromLocationId}, ${input.toLocationId}, 'draft', ${input.note}, ${actor.id}, ${at}, ${at}
        WHERE ${activeLocation(actor, input.fromLocationId)} AND ${activeLocation(actor, input.toLocationId)}
          AND ${keyUnused(key)}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: input.fromLocationId,
          action: "create_transfer",
          entity: "transfer",
          entityId: transferId,
          summary: sql`json_object(${ROUTE}, 'vials', ${lines.filter((l) => l.itemId).length},
            'lines', ${lines.filter((l) => !l.itemId).length}, 'note', t.note)`,
        },
        sql`FROM transfers AS t WHERE t.id = ${transferId}`,
      ),
      ...lines.map((line) => insertLine(db, transferId, line, sql`${guard} AND ${happened(activityId)}`, at)),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'transferId', t.id, 'lines', ${lines.length})`,
        sql`FROM transfers AS t WHERE t.id = ${transferId}`,
      ),
      recallKey(db, key),
    ]);
    if (created.length === 1) return { ok: true, transferId, lines: lines.length };
    const replay = replayOf<Outcome<Created>>(rest[rest.length - 1] as never, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    return refuse("location_unavailable");
  } catch (error) {
    // A repeat of the key (its transfer not written, so its lines fail too), or a line changed meanwhile.
    if (isLineRefused(error) || isKeyTaken(error)) {
      const replay = replayOf<Outcome<Created>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      if (!options.retried) return createTransfer(db, actor, sent, { retried: true });
      return refuse("changed");
    }
    throw error;
  }
}
