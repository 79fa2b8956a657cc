// POST /api/recalls {variationId, lot, note} (WRITE_PRODUCTS; Idempotency-Key honoured): marks the
// lot of the variation recalled at every location at once; 201 {recall}. GET /api/recalls: the
// organization's recalls in force and the latest lifted ones (READ_INVENTORY).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS, requireApiReader } from "~/access/api-reader.server";
import { requireScopedActor } from "~/access/scope.server";
import { orOutage } from "~/db/outage.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { RecallForm } from "~/recalls/forms";
import { recallsScreen } from "~/recalls/list.server";
import { markRecall } from "~/recalls/mark.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await requireApiReader(args, "READ_INVENTORY");
  const { inForce, lifted } = await orOutage(recallsScreen(args.context.db, actor));
  return Response.json({ inForce, lifted }, { headers: API_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const actor = await requireScopedActor(args, "WRITE_PRODUCTS");
  const idempotencyKey = idempotencyKeyOf(args.request);
  const input = await readJsonBody(args.request, RecallForm);
  const outcome = await orOutage(markRecall(args.context.db, actor, { ...input, idempotencyKey }));
  return answerOutcome(outcome, { status: 201, statuses: { variation_not_found: 422 } });
}
