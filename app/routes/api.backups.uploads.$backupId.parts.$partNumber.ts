// PUT /api/backups/uploads/{backupId}/parts/{n}?uploadId=… (organization admins): one piece of an
// uploaded snapshot file as the raw body (any Content-Type; at most 8 MiB, every piece but the
// last exactly that). 200 {partNumber, etag}: keep each for the upload's completion. A piece sent
// again replaces the first. 413 `upload_part_size` for a larger piece; 404 `upload_unknown`.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { BACKUP_API_STATUSES } from "~/backups/api.server";
import { uploadPart } from "~/backups/upload.server";
import { answerOutcome } from "~/http/api.server";
import { API_HEADERS, jsonError } from "~/http/json.server";

export async function action(args: ActionFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "WRITE_BACKUPS");
  if (args.request.method !== "PUT") {
    return jsonError(405, "Send each piece of the file with PUT.", { ...API_HEADERS, Allow: "PUT" });
  }
  const outcome = await uploadPart(args.context.env.FILES, actor, {
    backupId: args.params.backupId ?? "",
    uploadId: searchParams.get("uploadId") ?? "",
    partNumber: Number(args.params.partNumber),
    body: args.request,
  });
  return answerOutcome(outcome, { statuses: BACKUP_API_STATUSES });
}

export function loader() {
  return jsonError(405, "Send each piece of the file with PUT.", { ...API_HEADERS, Allow: "PUT" });
}
