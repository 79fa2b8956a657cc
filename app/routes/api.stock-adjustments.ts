// POST /api/stock-adjustments {locationId, variationId, quantity, reason, note?} (Idempotency-Key
// honoured): corrects a bulk product's on-hand stock at that location by a signed quantity in the
// product's unit, with a reason code ("other" needs a note); 201 {movementId, quantity, onHand, …}
// in base units as GET /api/stock-levels counts them. WRITE_INVENTORY at `locationId` (else 403);
// an unknown variation or location 404; too little on hand, or a serialized product, 409.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor, signedIn } from "~/access/door.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { adjustStock } from "~/stock/adjust.server";
import { AdjustBody } from "~/stock/adjust-form";

export async function action(args: ActionFunctionArgs) {
  // Signed in first (401), then the body (4xx), then the permission at the location it names (403).
  await signedIn(args);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const input = await readJsonBody(args.request, AdjustBody);
  const { actor } = await apiActor(args, "WRITE_INVENTORY", input.locationId);
  const outcome = await orOutage(adjustStock(args.context.db, actor, { ...input, idempotencyKey }));
  return answerOutcome(outcome, { status: 201 });
}

/** Anything but a POST is answered 405 by the body reader, in the API's error shape. */
export async function loader(args: LoaderFunctionArgs) {
  await readJsonBody(args.request, AdjustBody);
  return null;
}
