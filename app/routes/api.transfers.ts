// GET /api/transfers?locationId=&status=&after=&before=&pageSize= (spec section 7): a keyset page of
// the transfers sent from or coming to the location asked for (else the one in scope, or every
// location in organization mode), newest first, {items, pageSize, total, totalExact, next, previous}.
// POST /api/transfers {fromLocationId, toLocationId, lines: [{itemId} | {labelCode} | {variationId,
// quantity}], note?} (Idempotency-Key): a draft with its lines, made in one batch at the sending
// location (WRITE_TRANSFERS there); 201 with the transfer.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { apiActor } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { hasProblems, invalidCursor, invalidFilter, readFilters } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { TRANSFER_STATUSES_HTTP, transferAnswer } from "~/transfers/api.server";
import { createTransfer } from "~/transfers/create.server";
import { TransferBody, TransferStatusFilter } from "~/transfers/forms";
import { listTransfers } from "~/transfers/read.server";

const PAGE_SIZE = "pageSize must be a whole number from 1 to 100.";
const Query = z.object({
  status: z
    .enum(TransferStatusFilter.options, {
      error: `status must be one of ${TransferStatusFilter.options.join(", ")}.`,
    })
    .optional(),
  pageSize: z.coerce.number({ error: PAGE_SIZE }).int(PAGE_SIZE).min(1, PAGE_SIZE).max(100, PAGE_SIZE).default(25),
});

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_TRANSFERS");
  const { query, problems } = readFilters(Query, {
    status: searchParams.get("status") || undefined,
    pageSize: searchParams.get("pageSize") || undefined,
  });
  if (hasProblems(problems)) throw invalidFilter(problems);
  const page = await orOutage(
    listTransfers(args.context.db, {
      locationIds: locationsFor(actor, "READ_TRANSFERS").ids,
      status: query.status ?? null,
      after: searchParams.get("after") ?? undefined,
      before: searchParams.get("before") ?? undefined,
      pageSize: query.pageSize,
    }),
  );
  if (!page) throw invalidCursor();
  const items = page.items.map((t) => ({
    id: t.id,
    status: t.status,
    from: { id: t.fromLocationId, name: t.fromName, code: t.fromCode },
    to: { id: t.toLocationId, name: t.toName, code: t.toCode },
    note: t.note,
    createdAt: new Date(Number(t.createdAt)).toISOString(),
    sentAt: t.sentAt === null ? null : new Date(Number(t.sentAt)).toISOString(),
    receivedAt: t.receivedAt === null ? null : new Date(Number(t.receivedAt)).toISOString(),
    vials: t.vials,
    bulkLines: t.bulkLines,
    pendingLines: t.pending,
    openDiscrepancies: t.openDiscrepancies,
  }));
  return Response.json({ ...page, items }, { headers: API_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller who may not even read transfers learns nothing else.
  await apiActor(args, "READ_TRANSFERS");
  const body = await readJsonBody(args.request, TransferBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const { actor } = await apiActor(args, "WRITE_TRANSFERS", body.fromLocationId);
  const outcome = await orOutage(createTransfer(args.context.db, actor, { ...body, idempotencyKey }));
  if (!outcome.ok) return answerOutcome(outcome, { statuses: TRANSFER_STATUSES_HTTP });
  return transferAnswer(args.context.db, actor, outcome.transferId, 201);
}
