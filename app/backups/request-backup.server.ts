// "Back up now": a queued snapshot of the whole organization for the jobs worker to write (its
// engine, ./work.server, picks queued rows up on the work cron). WRITE_BACKUPS where the user
// stands. One snapshot at a time: the insert is guarded in SQL by "no other snapshot is queued or
// being written", so two presses at once (two admins, a double tap) make one. Its activity row is
// `request_backup` (who asked, when); the engine logs `create_backup` when the snapshot is written.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { can } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { BackupStatus } from "../../db/schema/backups/constants";
import type { BackupNowInput } from "./forms";
import { backupKey } from "./keys";
import { type Outcome, refuse } from "./outcome";

export interface RequestedBackup {
  id: string;
  status: BackupStatus;
}

/** SQL: a snapshot of the organization is waiting for the jobs worker or being written. */
export function snapshotInProgress(organization: ReturnType<typeof organizationOf>) {
  return sql`EXISTS (SELECT 1 FROM backups AS busy WHERE busy.organization_id = ${organization}
    AND busy.status IN ('queued', 'writing'))`;
}

export async function requestBackup(
  db: Database,
  actor: ScopedActor,
  input: BackupNowInput,
): Promise<Outcome<RequestedBackup>> {
  if (!can(actor, "WRITE_BACKUPS", actor.locationId)) return refuse("forbidden");
  const organization = organizationOf(actor);
  const id = uuidv7();
  const now = Date.now();
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, "request_backup", {});
  const busy = snapshotInProgress(organization);
  const [inserted, , , stored] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO backups (id, organization_id, origin, requested_by, requested_at, status,
        r2_key, rows_done)
      SELECT ${id}, ${organization}, 'user', ${actor.id}, ${now}, 'queued', ${backupKey(id)}, 0
      WHERE NOT ${busy} AND ${keyUnused(key)}
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "request_backup",
        entity: "backup",
        entityId: id,
        summary: sql`json_object('origin', b.origin, 'r2Key', b.r2_key)`,
      },
      sql`FROM backups AS b WHERE b.id = ${id}`,
    ),
    rememberKey(db, key, sql`json_object('id', ${id}, 'status', 'queued')`, sql`FROM backups WHERE id = ${id}`),
    recallKey(db, key),
  ]);
  if (inserted.length === 1) return { ok: true, id, status: "queued" };
  const replay = replayOf<RequestedBackup>(stored, key);
  if (replay.replay) return { ok: true, ...replay.answer };
  if (replay.misused) return refuse("key_misused");
  // Not written and not a repeat: the guard found another snapshot queued or being written.
  return refuse("busy");
}
