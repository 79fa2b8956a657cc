// POST /api/vials/{id}/draw {units, serviceId?, provider?, patientRef?, usedAt?} (Idempotency-Key):
// a usage entry and its USE movement; a sealed vial is started by it. Answers {vial, usage}.
import { vialAction } from "~/vials/api.server";
import { drawUnits } from "~/vials/draw.server";
import { DrawForm } from "~/vials/forms";

export const action = vialAction(DrawForm, (db, actor, { itemId, body, idempotencyKey }) =>
  drawUnits(db, actor, { ...body, itemId, idempotencyKey }),
);
export { postOnly as loader } from "~/http/api.server";
