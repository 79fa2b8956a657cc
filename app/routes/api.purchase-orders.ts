// GET /api/purchase-orders?locationId=&status=&vendorId=&after=&before=&pageSize= (issue 23 section
// 7): a keyset page of the purchase orders of the location asked for (else the one in scope, or
// every location in organization mode), newest first, {items, pageSize, total, totalExact, next,
// previous}; READ_PURCHASING there. POST /api/purchase-orders {locationId, vendorId, note?, lines?:
// [{variationId, packages, unitCostCents?, vendorSku?, expectedOn?}]} (Idempotency-Key): a draft
// with its lines, numbered PO-{year}-{sequence}, made in one batch at that location
// (WRITE_PURCHASING there); 201 with the order.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { apiActor } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { hasProblems, invalidCursor, invalidFilter, readFilters } from "~/http/filters.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { orderWritten } from "~/purchasing/api.server";
import { PURCHASE_ORDER_STATUSES } from "~/purchasing/constants";
import { createPurchaseOrder } from "~/purchasing/create.server";
import { CreateOrderBody } from "~/purchasing/forms";
import { listOrders } from "~/purchasing/read.server";

const PAGE_SIZE = "pageSize must be a whole number from 1 to 100.";
const Query = z.object({
  status: z
    .enum(PURCHASE_ORDER_STATUSES, { error: `status must be one of ${PURCHASE_ORDER_STATUSES.join(", ")}.` })
    .optional(),
  vendorId: z.string().trim().min(1).max(100, "vendorId must be a vendor's id.").optional(),
  pageSize: z.coerce.number({ error: PAGE_SIZE }).int(PAGE_SIZE).min(1, PAGE_SIZE).max(100, PAGE_SIZE).default(25),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export async function loader(args: LoaderFunctionArgs) {
  const { actor, searchParams } = await apiActor(args, "READ_PURCHASING");
  const { query, problems } = readFilters(Query, {
    status: searchParams.get("status") || undefined,
    vendorId: searchParams.get("vendorId") || undefined,
    pageSize: searchParams.get("pageSize") || undefined,
  });
  if (hasProblems(problems)) throw invalidFilter(problems);
  const page = await orOutage(
    listOrders(args.context.db, {
      locationIds: locationsFor(actor, "READ_PURCHASING").ids,
      status: query.status ?? null,
      vendorId: query.vendorId ?? null,
      after: searchParams.get("after") ?? undefined,
      before: searchParams.get("before") ?? undefined,
      pageSize: query.pageSize,
    }),
  );
  if (!page) throw invalidCursor();
  const items = page.items.map((o) => ({
    id: o.id,
    number: o.number,
    status: o.status,
    location: { id: o.locationId, name: o.locationName, code: o.locationCode },
    vendor: { id: o.vendorId, name: o.vendorName },
    createdBy: o.createdBy,
    createdAt: iso(o.createdAt),
    submittedAt: iso(o.submittedAt),
    lines: o.lines,
    totalCents: o.totalCents,
    outstandingPackages: o.outstandingPackages,
  }));
  return Response.json({ ...page, items }, { headers: API_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller who may not even read purchasing learns nothing else.
  await apiActor(args, "READ_PURCHASING");
  const body = await readJsonBody(args.request, CreateOrderBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const { actor } = await apiActor(args, "WRITE_PURCHASING", body.locationId);
  const outcome = await orOutage(createPurchaseOrder(args.context.db, actor, { ...body, idempotencyKey }));
  return orderWritten(args.context.db, actor, outcome, 201);
}
