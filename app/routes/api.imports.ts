// GET /api/imports?locationId=&page=: the imports at the location asked for (else the one in scope,
// or every location in organization mode), newest first, 25 a page: {items, page, pageSize, total}.
// POST /api/imports (multipart: kind = sales | recipes, locationId, file, optional mapping JSON;
// Idempotency-Key): the file streamed to storage and checked; 201 {id, status}. A sales file whose
// columns are known (a preset, a saved mapping, or `mapping`) is queued at once; else 422 naming
// the fields missing. A recipes file is applied at once, all or nothing (201, completed). A malformed file is a 4xx that says what is wrong, and leaves nothing behind.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, postOnly } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { importsPageAnswer, postImport } from "~/imports/api.server";
import { ImportsQuery } from "~/imports/forms";

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_IMPORTS");
  const { page } = ImportsQuery.parse({ page: searchParams.get("page") ?? undefined });
  return orOutage(importsPageAnswer(args.context.db, actor, page));
}

export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return postOnly();
  const { actor } = await apiActor(args, "WRITE_IMPORTS");
  const idempotencyKey = idempotencyKeyOf(args.request);
  const { db, env } = args.context;
  return orOutage(postImport(db, env.FILES, actor, args.request, idempotencyKey));
}
