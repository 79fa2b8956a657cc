// POST /api/transfers/{id}/cancel {reason?} (Idempotency-Key): a request or a draft is given up
// (WRITE_TRANSFERS at either location). Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { transferWritten } from "~/transfers/api.server";
import { cancelTransfer } from "~/transfers/cancel.server";
import { CancelBody } from "~/transfers/forms";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_TRANSFERS");
  const body = await readJsonBody(args.request, CancelBody);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const transferId = args.params.id ?? "";
  const outcome = await orOutage(cancelTransfer(args.context.db, actor, { ...body, transferId, idempotencyKey }));
  return transferWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
