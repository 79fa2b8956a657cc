// GET /backup-restore/{id}/download (organization admins): the snapshot file, streamed from R2 as
// it is read (a snapshot can be gigabytes; nothing holds it whole), saved as an attachment. A
// snapshot that is not ready (still being written, failed, deleted by retention) is a 409 in words.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { organizationAdmin } from "~/access/door.server";
import { backupFile } from "~/backups/list.server";
import { BACKUP_REFUSALS } from "~/backups/outcome";
import { attachmentHeaders } from "~/http/download.server";
import { orOutage } from "~/http/outage.server";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await organizationAdmin(args);
  const backup = await orOutage(backupFile(args.context.db, actor, args.params.backupId ?? ""));
  if (!backup) throw data(BACKUP_REFUSALS.not_found, { status: 404 });
  if (backup.status === "deleted") throw data(BACKUP_REFUSALS.deleted, { status: 409 });
  if (backup.status !== "ready") throw data(BACKUP_REFUSALS.not_ready, { status: 409 });
  const object = await args.context.env.FILES.get(backup.r2Key);
  if (!object) throw data("This snapshot's file is missing from storage.", { status: 404 });
  // The file's own extension (the snapshot format's), named by the day it was made.
  const fileName = backup.r2Key.split("/").pop() ?? "";
  const extension = fileName.includes(".") ? fileName.slice(fileName.indexOf(".") + 1) : "snapshot";
  const day = backup.requestedAt.slice(0, 16).replace(/[T:]/g, "-");
  return new Response(object.body, {
    headers: {
      ...attachmentHeaders(`clinic-backup-${day}`, extension, "application/octet-stream"),
      "Content-Length": String(object.size),
    },
  });
}
