// Asking for a restore: an organization admin picks a ready snapshot (or an uploaded file) and
// confirms by typing the organization's name; this writes a queued restore for the jobs worker,
// whose engine checks the file (manifest, checksums, schema version), stages it and switches it in
// one batch, then signs everyone out and records `restore_backup`. Refused, in words: another
// restore under way, a snapshot being written, a snapshot that is not ready or was deleted, one
// whose restore rehearsal failed (restoring it could bring back damaged data), the name mistyped.
// The name is compared trimmed and case-sensitive: a stray space is forgiven, the name must be read.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { RestoreStatus } from "../../db/schema/backups/constants";
import type { RestoreInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { snapshotInProgress } from "./request-backup.server";

export interface RequestedRestore {
  restoreId: string;
  backupId: string;
  status: RestoreStatus;
}

interface Found {
  status: string;
  rehearsalStatus: string | null;
  nameOk: number;
  restoreBusy: number;
  snapshotBusy: number;
}

export async function requestRestore(
  db: Database,
  actor: ScopedActor,
  input: RestoreInput,
): Promise<Outcome<RequestedRestore>> {
  if (!isOrganizationAdmin(actor)) return refuse("organization_admins_only");
  const organization = organizationOf(actor);
  const restoreId = uuidv7();
  const now = Date.now();
  const { backupId, organizationName } = input;
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, `request_restore:${backupId}`, {
    organizationName,
  });
  const restoreBusy = sql`EXISTS (SELECT 1 FROM backup_restores AS r WHERE r.organization_id = ${organization}
    AND r.status IN ('queued', 'checking', 'staging', 'switching'))`;
  const snapshotBusy = snapshotInProgress(organization);
  const nameOk = sql`trim(o.name) = ${organizationName.trim()}`;
  const target = sql`FROM backups AS b JOIN organizations AS o ON o.id = b.organization_id
    WHERE b.id = ${backupId} AND b.organization_id = ${organization}`;
  const [inserted, , , stored, found] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO backup_restores (id, organization_id, backup_id, requested_by, requested_at,
        status, rows_done)
      SELECT ${restoreId}, b.organization_id, b.id, ${actor.id}, ${now}, 'queued', 0 ${target}
        AND b.status = 'ready' AND coalesce(b.rehearsal_status, '') <> 'failed' AND ${nameOk}
        AND NOT ${restoreBusy} AND NOT ${snapshotBusy} AND ${keyUnused(key)}
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "request_restore",
        entity: "backup",
        entityId: backupId,
        summary: sql`json_object('restoreId', r.id, 'origin', b.origin, 'requestedAt', b.requested_at)`,
      },
      sql`FROM backup_restores AS r JOIN backups AS b ON b.id = r.backup_id WHERE r.id = ${restoreId}`,
    ),
    rememberKey(
      db,
      key,
      sql`json_object('restoreId', ${restoreId}, 'backupId', ${backupId}, 'status', 'queued')`,
      sql`FROM backup_restores WHERE id = ${restoreId}`,
    ),
    recallKey(db, key),
    db.all<Found>(sql`SELECT b.status AS status, b.rehearsal_status AS rehearsalStatus, ${nameOk} AS nameOk,
        ${restoreBusy} AS restoreBusy, ${snapshotBusy} AS snapshotBusy ${target}`),
  ]);
  if (inserted.length === 1) return { ok: true, restoreId, backupId, status: "queued" };
  const replay = replayOf<RequestedRestore>(stored, key);
  if (replay.replay) return { ok: true, ...replay.answer };
  if (replay.misused) return refuse("key_misused");
  const backup = found[0];
  if (!backup) return refuse("not_found");
  if (backup.status === "deleted") return refuse("deleted");
  if (backup.status !== "ready") return refuse("not_ready");
  if (backup.rehearsalStatus === "failed") return refuse("rehearsal_failed");
  if (backup.restoreBusy) return refuse("restore_busy");
  if (backup.snapshotBusy) return refuse("snapshot_busy");
  return refuse("name_mismatch");
}
