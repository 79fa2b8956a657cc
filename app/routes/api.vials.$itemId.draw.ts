// POST /api/vials/{id}/draw {units, serviceId?, provider?, patientRef?, usedAt?} (Idempotency-Key):
// a usage entry and its USE movement; a sealed vial is started by it, at usedAt. Answers {vial, usage,
// started}: `started` is {startedAt, expiresAt} when this draw started the vial, else null.
import { vialAction } from "~/vials/api.server";
import { drawUnits } from "~/vials/draw.server";

export const action = vialAction(drawUnits);
export { postOnly as loader } from "~/http/api.server";
