// GET /api/backups?after=|before=&pageSize= (READ_BACKUPS): the organization's snapshots, newest
// first, by keyset: {items, next, previous, pageSize, total, totalExact}, each with its origin,
// who asked, status, size, times, progress {rowsDone, rowsTotal, percent} and rehearsal result.
// POST /api/backups (WRITE_BACKUPS; body {} as JSON; Idempotency-Key honoured): make one now.
// 202 {id, status: "queued"}; the jobs worker writes it (follow GET /api/backups/{id}); 409 `busy`
// while another snapshot is queued or being written.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { BACKUP_API_STATUSES } from "~/backups/api.server";
import { BackupListQuery, readBackups } from "~/backups/list.server";
import { requestBackup } from "~/backups/request-backup.server";
import { z } from "~/forms/zod";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { hasProblems, invalidCursor, invalidFilter, readFilters } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_BACKUPS");
  const { query, problems } = readFilters(BackupListQuery, Object.fromEntries(searchParams));
  if (hasProblems(problems)) throw invalidFilter(problems);
  const page = await orOutage(readBackups(args.context.db, actor, query));
  return page ? Response.json(page, { headers: API_HEADERS }) : invalidCursor();
}

export async function action(args: ActionFunctionArgs) {
  const { actor } = await apiActor(args, "WRITE_BACKUPS");
  await readJsonBody(args.request, z.object({}));
  const idempotencyKey = idempotencyKeyOf(args.request);
  const outcome = await orOutage(requestBackup(args.context.db, actor, { idempotencyKey }));
  return answerOutcome(outcome, { status: 202, statuses: BACKUP_API_STATUSES });
}
