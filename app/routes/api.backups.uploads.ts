// POST /api/backups/uploads (organization admins; body {} as JSON): start uploading a snapshot
// file. 201 {backupId, uploadId, partBytes, maxBytes}: then PUT each piece of `partBytes` (the last
// may be smaller) to /api/backups/uploads/{backupId}/parts/{n}?uploadId=…, and POST
// /api/backups/uploads/{backupId}/complete with the pieces' etags (README "Backups and restore").
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { BACKUP_API_STATUSES } from "~/backups/api.server";
import { startUpload } from "~/backups/upload.server";
import { z } from "~/forms/zod";
import { answerOutcome, readJsonBody } from "~/http/api.server";

export async function action(args: ActionFunctionArgs) {
  const { actor } = await apiActor(args, "WRITE_BACKUPS");
  await readJsonBody(args.request, z.object({}));
  const outcome = await startUpload(args.context.env.FILES, actor);
  return answerOutcome(outcome, { status: 201, statuses: BACKUP_API_STATUSES });
}

export { postOnly as loader } from "~/http/api.server";
