// Uploading a snapshot file (a download of this screen, or one from another database) so it can be
// restored. A Worker takes at most 100 MB in one request body and a snapshot can be gigabytes, so
// the file travels in pieces (./upload-rules): `startUpload` opens an R2 multipart upload under the
// new backup's key, `uploadPart` stores one piece (held in memory alone, at most 8 MiB), and
// `completeUpload` has storage put the pieces together and records the backup: origin 'upload',
// ready, no manifest yet (the engine's rehearsal reads the one inside the file and checks it; a
// restore checks it again first). Organization admins only: the file replaces every location's data.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { readBounded } from "~/http/body.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { CompleteUploadInput } from "./forms";
import { backupKey } from "./keys";
import { type Outcome, refuse } from "./outcome";
import type { RequestedBackup } from "./request-backup.server";
import { UPLOAD_MAX_BYTES, UPLOAD_PART_BYTES } from "./upload-rules";

/** A backup id as this app makes them (UUIDv7): anything else never names an upload. */
const BACKUP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StartedUpload {
  backupId: string;
  uploadId: string;
  partBytes: number;
  maxBytes: number;
}

export async function startUpload(files: R2Bucket, actor: ScopedActor): Promise<Outcome<StartedUpload>> {
  if (!isOrganizationAdmin(actor)) return refuse("organization_admins_only");
  const backupId = uuidv7();
  const upload = await files.createMultipartUpload(backupKey(backupId), {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: { origin: "upload", requestedBy: actor.id },
  });
  return { ok: true, backupId, uploadId: upload.uploadId, partBytes: UPLOAD_PART_BYTES, maxBytes: UPLOAD_MAX_BYTES };
}

export interface PartInput {
  backupId: string;
  uploadId: string;
  partNumber: number;
  /** The piece, as the request body that carries it (read here, bounded by UPLOAD_PART_BYTES). */
  body: Request;
}

export async function uploadPart(
  files: R2Bucket,
  actor: ScopedActor,
  input: PartInput,
): Promise<Outcome<{ partNumber: number; etag: string }>> {
  if (!isOrganizationAdmin(actor)) return refuse("organization_admins_only");
  if (!BACKUP_ID.test(input.backupId) || !input.uploadId) return refuse("upload_unknown");
  if (!(Number.isInteger(input.partNumber) && input.partNumber >= 1 && input.partNumber <= 10_000)) {
    return refuse("invalid", "The piece's number must be a whole number from 1 to 10,000.");
  }
  const bytes = await readBounded(input.body, UPLOAD_PART_BYTES);
  if (bytes === null) return refuse("upload_part_size");
  if (bytes.byteLength === 0) return refuse("upload_empty");
  try {
    const upload = files.resumeMultipartUpload(backupKey(input.backupId), input.uploadId);
    const part = await upload.uploadPart(input.partNumber, bytes);
    return { ok: true, partNumber: part.partNumber, etag: part.etag };
  } catch {
    return refuse("upload_unknown");
  }
}

export async function completeUpload(
  db: Database,
  files: R2Bucket,
  actor: ScopedActor,
  input: CompleteUploadInput & { backupId: string; idempotencyKey: string | null },
): Promise<Outcome<RequestedBackup>> {
  if (!isOrganizationAdmin(actor)) return refuse("organization_admins_only");
  if (!BACKUP_ID.test(input.backupId)) return refuse("upload_unknown");
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, `upload_backup:${input.backupId}`, {
    uploadId: input.uploadId,
  });
  // A repeat of a completed upload (a retry after a lost answer) answers as the first did: storage
  // would no longer know the upload.
  const earlier = replayOf<RequestedBackup>(await recallKey(db, key), key);
  if (earlier.replay) return { ok: true, ...earlier.answer };
  if (earlier.misused) return refuse("key_misused");

  const r2Key = backupKey(input.backupId);
  let size: number;
  try {
    const upload = files.resumeMultipartUpload(r2Key, input.uploadId);
    const object = await upload.complete([...input.parts].sort((a, b) => a.partNumber - b.partNumber));
    size = object.size;
  } catch (error) {
    return /does not exist|NoSuchUpload|10024/i.test(String(error))
      ? refuse("upload_unknown")
      : refuse("upload_incomplete");
  }
  if (size > UPLOAD_MAX_BYTES || (input.size !== undefined && size !== input.size)) {
    await files.delete(r2Key);
    return size > UPLOAD_MAX_BYTES ? refuse("upload_too_large") : refuse("upload_incomplete");
  }

  const now = Date.now();
  const id = input.backupId;
  const [inserted, , , stored] = await db.batch([
    db.all<{ id: string }>(sql`INSERT INTO backups (id, organization_id, origin, requested_by, requested_at, status,
        r2_key, started_at, finished_at, rows_done, size_bytes, rehearsal_status)
      SELECT ${id}, ${organizationOf(actor)}, 'upload', ${actor.id}, ${now}, 'ready', ${r2Key}, ${now}, ${now}, 0,
        ${size}, 'pending'
      WHERE ${keyUnused(key)} AND NOT EXISTS (SELECT 1 FROM backups WHERE id = ${id})
      RETURNING id`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "upload_backup",
        entity: "backup",
        entityId: id,
        summary: sql`json_object('fileName', ${input.fileName}, 'sizeBytes', b.size_bytes)`,
      },
      sql`FROM backups AS b WHERE b.id = ${id} AND b.requested_at = ${now} AND b.origin = 'upload'`,
    ),
    rememberKey(db, key, sql`json_object('id', ${id}, 'status', 'ready')`, sql`FROM backups WHERE id = ${id}`),
    recallKey(db, key),
  ]);
  if (inserted.length === 1) return { ok: true, id, status: "ready" };
  const replay = replayOf<RequestedBackup>(stored, key);
  if (replay.replay) return { ok: true, ...replay.answer };
  if (replay.misused) return refuse("key_misused");
  // Completed twice without a key: the backup is already recorded.
  return { ok: true, id, status: "ready" };
}
