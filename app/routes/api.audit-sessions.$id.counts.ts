// POST /api/audit-sessions/{id}/counts {labelCode, unitsRemaining?} | {variationId, lot?, quantity}
// (WRITE_INVENTORY where the count is, Idempotency-Key): a vial scanned or a bulk quantity counted,
// at the ledger's position now. Answers {lineId, already, found, quantity, label}.
import { sessionAction } from "~/counts/api.server";
import { countStock } from "~/counts/count.server";
import { CountBody } from "~/counts/forms";

export const action = sessionAction("WRITE_INVENTORY", CountBody, countStock);
export { postOnly as loader } from "~/http/api.server";
