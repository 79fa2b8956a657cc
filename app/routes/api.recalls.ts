// POST /api/recalls {variationId, lot, note, confirmNoMatch?} (WRITE_PRODUCTS; Idempotency-Key
// honoured): marks the lot of the variation recalled at every location at once; 201 {recall,
// quarantined: {vials, locations: [{id, name, code, vials}]}}. A lot that holds no unused vial is
// 409 confirm_no_match with `nearLots` (the lots differing only in case or spacing) until sent
// again with "confirmNoMatch": true. GET /api/recalls: the organization's recalls in force and
// the latest lifted ones (READ_INVENTORY).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { actorHere, apiActor } from "~/access/door.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { RecallForm } from "~/recalls/forms";
import { recallsScreen } from "~/recalls/list.server";
import { markRecall } from "~/recalls/mark.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_INVENTORY");
  const { inForce, lifted } = await orOutage(recallsScreen(args.context.db, actor));
  return Response.json({ inForce, lifted }, { headers: API_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const idempotencyKey = idempotencyKeyOf(args.request);
  const input = await readJsonBody(args.request, RecallForm);
  const outcome = await orOutage(markRecall(args.context.db, actor, { ...input, idempotencyKey }));
  if (!outcome.ok && "nearLots" in outcome) {
    const error = `${outcome.message} To recall it anyway, send the same body with "confirmNoMatch": true.`;
    const body = { error, code: outcome.refusal, nearLots: outcome.nearLots };
    return Response.json(body, { status: 409, headers: API_HEADERS });
  }
  return answerOutcome(outcome, { status: 201, statuses: { variation_not_found: 422 } });
}
