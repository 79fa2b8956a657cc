// POST /api/backups/{id}/restore {organizationName} (organization admins; Idempotency-Key
// honoured): restore this snapshot, confirmed by the organization's name (trimmed, case-sensitive).
// 202 {restoreId, backupId, status: "queued"}: the jobs worker checks the file, stages it and
// switches it in one batch, then signs everyone out. 422 `name_mismatch`; 409 `rehearsal_failed`,
// `not_ready`, `deleted`, `restore_busy`, `snapshot_busy`; 404 unknown; 403 anyone but an
// organization admin. Everything written since the snapshot is lost.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { BACKUP_API_STATUSES } from "~/backups/api.server";
import { RestoreBody } from "~/backups/forms";
import { requestRestore } from "~/backups/request-restore.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";

export async function action(args: ActionFunctionArgs) {
  const { actor } = await apiActor(args, "WRITE_BACKUPS");
  const { organizationName } = await readJsonBody(args.request, RestoreBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const backupId = args.params.backupId ?? "";
  const outcome = await orOutage(
    requestRestore(args.context.db, actor, { backupId, organizationName, idempotencyKey }),
  );
  return answerOutcome(outcome, { status: 202, statuses: BACKUP_API_STATUSES });
}

export { postOnly as loader } from "~/http/api.server";
