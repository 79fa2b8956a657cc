// The backup forms' rules, one zod schema each, shared by the screen's forms and the JSON API
// (browser-safe: built with ~/forms/zod).
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line } from "~/forms/text";
import { z } from "~/forms/zod";
import { UPLOAD_MAX_BYTES } from "./upload-rules";

/** A form's idempotency key (hidden field); the API sends it as a header instead. */
const formKey = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || IDEMPOTENCY_KEY_PATTERN.test(v), IDEMPOTENCY_MESSAGES.invalid)
  .transform((v) => v || null);

const backupId = line({ error: "Choose a backup." }).trim().min(1, "Choose a backup.").max(100, "Choose a backup.");

export const RESTORE_MESSAGES = {
  organizationName: "Type the organization's name to confirm the restore.",
} as const;

/** "Back up now": nothing to fill in but the form's key. */
export const BackupNowForm = z.object({ idempotencyKey: formKey });
export type BackupNowInput = z.output<typeof BackupNowForm>;

/**
 * A restore's confirmation: the snapshot and the organization's name typed by the admin. The name
 * is compared trimmed and case-sensitive (the verb), so a stray space is forgiven but the name must
 * be typed as it is written: the point is that the admin reads it.
 */
const organizationName = line({ error: RESTORE_MESSAGES.organizationName })
  .trim()
  .min(1, RESTORE_MESSAGES.organizationName)
  .max(200, RESTORE_MESSAGES.organizationName);

export const RestoreForm = z.object({ backupId, organizationName, idempotencyKey: formKey });
export type RestoreInput = z.output<typeof RestoreForm>;

/** POST /api/backups/{id}/restore: the name in the body, the snapshot in the path, the key in the header. */
export const RestoreBody = z.object({ organizationName });

/** POST /api/backups/uploads/{id}/complete: the upload's id, its parts as storage answered them, and the file's name. */
export const CompleteUploadBody = z.object({
  uploadId: z.string().trim().min(1, "Send the uploadId the start of the upload answered.").max(2000),
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(10_000),
        etag: z.string().trim().min(1).max(200),
      }),
      { error: "Send parts as a list of {partNumber, etag}, as each piece's upload answered." },
    )
    .min(1, "Send at least one part: upload the file's pieces first.")
    .max(10_000),
  fileName: line()
    .trim()
    .max(200, "The file's name may be at most 200 characters.")
    .default("")
    .transform((v) => v || null),
  /** The file's size in bytes as the browser knew it, checked against what storage holds. */
  size: z.number().int().min(1).max(UPLOAD_MAX_BYTES).optional(),
});
export type CompleteUploadInput = z.output<typeof CompleteUploadBody>;
