// POST /api/backups/uploads/{backupId}/complete {uploadId, parts: [{partNumber, etag}], fileName?,
// size?} (organization admins; Idempotency-Key honoured): storage puts the pieces together and the
// file is listed as an uploaded backup, ready to restore once checked. 201 {id, status: "ready"}.
// The jobs worker's rehearsal reads and checks the manifest inside it; a restore checks it again.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { BACKUP_API_STATUSES } from "~/backups/api.server";
import { CompleteUploadBody } from "~/backups/forms";
import { completeUpload } from "~/backups/upload.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";

export async function action(args: ActionFunctionArgs) {
  const { actor } = await apiActor(args, "WRITE_BACKUPS");
  const body = await readJsonBody(args.request, CompleteUploadBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const outcome = await orOutage(
    completeUpload(args.context.db, args.context.env.FILES, actor, {
      ...body,
      backupId: args.params.backupId ?? "",
      idempotencyKey,
    }),
  );
  return answerOutcome(outcome, { status: 201, statuses: BACKUP_API_STATUSES });
}

export { postOnly as loader } from "~/http/api.server";
