// GET /api/backups/{id} (READ_BACKUPS): one snapshot as the list shows it, plus its manifest:
// status, progress {rowsDone, rowsTotal, percent}, manifest (schema version, tables, row counts,
// checksums; null until written), rehearsal {status, at, message, result}. The backup screen polls
// it while a snapshot is being written. 404 for an id not in the organization.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { readBackup } from "~/backups/list.server";
import { BACKUP_REFUSALS } from "~/backups/outcome";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_BACKUPS");
  const backup = await orOutage(readBackup(args.context.db, actor, args.params.backupId ?? ""));
  if (!backup) return jsonError(404, BACKUP_REFUSALS.not_found, API_HEADERS, "not_found");
  return Response.json(backup, { headers: API_HEADERS });
}

export { getOnly as action } from "~/http/api.server";
