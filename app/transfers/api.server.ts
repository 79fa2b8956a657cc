// The transfers JSON API (spec section 7): a transfer as GET /api/transfers/{id} answers it, and
// the write glue of POST /api/transfers and /api/transfers/{id}/send, /receive, /cancel: the
// permission where the caller stands (or at `?locationId=`; the sending location for a new one),
// the body parsed once by the verb's own schema, the Idempotency-Key header, and the verb's Outcome
// answered as the transfer, or as {error, code}.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { answerOutcome } from "~/http/api.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import type { Outcome, TransferRefusal } from "./outcome";
import { TRANSFER_REFUSALS } from "./outcome";
import { readTransfer, type Transfer } from "./read.server";

/** Input the caller can fix is 422; the state of things refusing it stays 409 (the glue's default). */
export const TRANSFER_STATUSES_HTTP: Partial<Record<TransferRefusal, number>> = {
  key_misused: 422,
  location_unavailable: 422,
  same_location: 422,
  vial_not_found: 422,
  variation_unavailable: 422,
  receive_too_much: 422,
  short_vial: 422,
  line_not_found: 422,
};

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A transfer as the API shows it. */
export function transferJson(t: Transfer) {
  return {
    id: t.id,
    status: t.status,
    from: { id: t.fromLocationId, name: t.fromName, code: t.fromCode },
    to: { id: t.toLocationId, name: t.toName, code: t.toCode },
    note: t.note,
    createdBy: t.createdBy,
    createdAt: iso(t.createdAt),
    requestedBy: t.requestedBy,
    requestedAt: iso(t.requestedAt),
    sentBy: t.sentBy,
    sentAt: iso(t.sentAt),
    receivedAt: iso(t.receivedAt),
    cancelledBy: t.cancelledBy,
    cancelledAt: iso(t.cancelledAt),
    cancelReason: t.cancelReason,
    recalledAt: iso(t.recalledAt),
    lines: t.lines.map((l) => ({
      id: l.id,
      kind: l.itemId ? "vial" : "bulk",
      itemId: l.itemId,
      labelCode: l.labelCode,
      variationId: l.variationId,
      product: l.product,
      variation: l.variation,
      lot: l.lot,
      expirationDate: l.expirationDate,
      quantity: l.quantity,
      status: l.status,
      quantityReceived: l.quantityReceived,
      reason: l.reason,
      receivedBy: l.receivedBy,
      receivedAt: iso(l.receivedAt),
      resolvedBy: l.resolvedBy,
      resolvedAt: iso(l.resolvedAt),
      resolutionNote: l.resolutionNote,
    })),
  };
}

/** The transfer `transferId` as the API shows it, or the 404 in the one error shape. */
export async function transferAnswer(db: Database, actor: ScopedActor, transferId: string, status = 200) {
  const transfer = await orOutage(readTransfer(db, actor, transferId));
  if (!transfer) return jsonError(404, TRANSFER_REFUSALS.not_found, API_HEADERS, "not_found");
  return Response.json({ transfer: transferJson(transfer) }, { status, headers: API_HEADERS });
}

/** A write's Outcome as the API answers it: the transfer as it now stands, or {error, code}. */
export async function transferWritten(
  db: Database,
  actor: ScopedActor,
  outcome: Outcome<{ transferId: string }>,
): Promise<Response> {
  if (!outcome.ok) return answerOutcome(outcome, { statuses: TRANSFER_STATUSES_HTTP });
  return transferAnswer(db, actor, outcome.transferId);
}
