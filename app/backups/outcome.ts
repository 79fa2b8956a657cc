// The backup verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";
import { UPLOAD_MAX_BYTES, UPLOAD_PART_BYTES } from "./upload-rules";

const MiB = 1024 * 1024;

export const { messages: BACKUP_REFUSALS, refuse } = refusalsOf({
  not_found: "That backup does not exist in your organization.",
  invalid: "Check the values entered.",
  busy: "A backup is already being made. Wait for it to finish (its progress is on the Backup & Restore screen), then try again if you still need another one.",
  organization_admins_only:
    "Only organization admins may restore, upload or download backups: a snapshot holds every location's records and every user's sign-in details.",
  not_ready: "This backup is not ready: only a complete snapshot (or an uploaded file) can be restored.",
  deleted: "This backup was deleted by the retention rule and can no longer be restored. Choose a newer one.",
  rehearsal_failed:
    "This snapshot failed its restore rehearsal, so restoring it could bring back damaged data. Choose another snapshot, or make a new backup and restore that.",
  name_mismatch:
    "The name typed does not match the organization's name. Type it exactly as shown (capital letters count) to confirm the restore.",
  restore_busy:
    "A restore is already under way. Wait for it to finish (every user is signed out when it does), then try again if you still need to.",
  snapshot_busy:
    "A backup is being made right now. Wait for it to finish (a minute or two), then restore: the restore would otherwise race it.",
  upload_empty: "The file is empty. Choose a snapshot file downloaded from this screen.",
  upload_too_large: `A snapshot file may be at most ${UPLOAD_MAX_BYTES / (1024 * MiB)} GiB.`,
  upload_part_size: `Send every piece of the file as ${UPLOAD_PART_BYTES / MiB} MiB except the last, which may be smaller.`,
  upload_unknown:
    "That upload is not known to storage any more (it was finished, abandoned or never started). Start the upload again.",
  upload_incomplete:
    "Storage could not put the file together from its pieces (a piece is missing or was sent twice with different contents). Start the upload again.",
  key_misused: IDEMPOTENCY_MESSAGES.misused,
});

export type BackupRefusal = keyof typeof BACKUP_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, BackupRefusal>;
export type BackupRefused = Refused<BackupRefusal>;
