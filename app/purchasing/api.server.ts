// The purchasing JSON API (issue 23 section 7): an order as GET /api/purchase-orders/{id} answers
// it, and the write glue of POST /api/purchase-orders and /api/purchase-orders/{id}/lines,
// /submit, /revise, /cancel, /close: the verb's Outcome answered as the order as it now stands, or
// as {error, code}.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { answerOutcome } from "~/http/api.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { type Outcome, PURCHASING_REFUSALS, type PurchasingRefusal } from "./outcome";
import { lineTotal, orderTotal, outstanding, type PurchaseOrder, readOrder } from "./read.server";

/** Input the caller can fix is 422; the state of things refusing it stays 409 (the glue's default). */
export const PURCHASING_STATUSES_HTTP: Partial<Record<PurchasingRefusal, number>> = {
  location_unavailable: 422,
  vendor_unavailable: 422,
  variation_unavailable: 422,
  duplicate_line: 422,
  already_on_order: 422,
  too_many_lines: 422,
  line_not_found: 422,
  below_received: 422,
  nothing_changed: 422,
  reason_needed: 422,
  close_reason_needed: 422,
};

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An order as the API shows it (money in integer cents). */
export function orderJson(o: PurchaseOrder) {
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    revision: o.revision,
    version: o.version,
    location: { id: o.locationId, name: o.locationName, code: o.locationCode },
    vendor: { id: o.vendorId, name: o.vendorName },
    note: o.note,
    createdBy: o.createdBy,
    createdAt: iso(o.createdAt),
    submittedBy: o.submittedBy,
    submittedAt: iso(o.submittedAt),
    closedBy: o.closedBy,
    closedAt: iso(o.closedAt),
    closeReason: o.closeReason,
    cancelledBy: o.cancelledBy,
    cancelledAt: iso(o.cancelledAt),
    cancelReason: o.cancelReason,
    totalCents: orderTotal(o.lines),
    lines: o.lines.map((l) => ({
      id: l.id,
      variationId: l.variationId,
      product: l.product,
      variation: l.variation,
      vendorSku: l.vendorSku,
      packagesOrdered: l.packagesOrdered,
      packagesReceived: l.packagesReceived,
      packagesOutstanding: outstanding(l),
      unitsPerPackage: l.unitsPerPackage,
      unitCostCents: l.unitCostCents,
      lineTotalCents: lineTotal(l),
      expectedOn: l.expectedOn,
    })),
    revisions: o.revisions.map((r) => ({
      revision: r.revision,
      reason: r.reason,
      changes: JSON.parse(r.changes) as unknown,
      revisedBy: r.revisedBy,
      createdAt: iso(r.createdAt),
    })),
  };
}

/** The order `orderId` as the API shows it, or the 404 in the one error shape. */
export async function orderAnswer(db: Database, actor: ScopedActor, orderId: string, status = 200) {
  const order = await orOutage(readOrder(db, actor, orderId));
  if (!order) return jsonError(404, PURCHASING_REFUSALS.not_found, API_HEADERS, "not_found");
  return Response.json({ purchaseOrder: orderJson(order) }, { status, headers: API_HEADERS });
}

/** A write's Outcome as the API answers it: the order as it now stands, or {error, code}. */
export async function orderWritten(
  db: Database,
  actor: ScopedActor,
  outcome: Outcome<{ orderId: string }>,
  status = 200,
): Promise<Response> {
  if (!outcome.ok) return answerOutcome(outcome, { statuses: PURCHASING_STATUSES_HTTP });
  return orderAnswer(db, actor, outcome.orderId, status);
}
