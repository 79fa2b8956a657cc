// How the backup verbs' refusals answer on the JSON API (the glue is app/http/api.server.ts): the
// caller's input is 422 (a mistyped name, a key sent with another request), a piece too large 413,
// only organization admins 403, a missing backup 404; the state of things (busy, not ready) 409.
import type { BackupRefusal } from "./outcome";

export const BACKUP_API_STATUSES: Partial<Record<BackupRefusal, number>> = {
  organization_admins_only: 403,
  name_mismatch: 422,
  key_misused: 422,
  upload_empty: 422,
  upload_part_size: 413,
  upload_too_large: 413,
  upload_unknown: 404,
  upload_incomplete: 422,
};
