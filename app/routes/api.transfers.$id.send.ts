// POST /api/transfers/{id}/send (Idempotency-Key): a draft leaves its sender (WRITE_TRANSFERS
// there): vials in transit, TRANSFER_OUT of everything on it. Answers the transfer.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { idempotencyKeyOf, readJsonObject } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { transferWritten } from "~/transfers/api.server";
import { sendTransfer } from "~/transfers/send.server";

export async function action(args: ActionFunctionArgs) {
  // Gate first: a caller without the permission where they stand learns nothing else.
  const { actor } = await apiActor(args, "WRITE_TRANSFERS");
  await readJsonObject(args.request);
  const idempotencyKey = idempotencyKeyOf(args.request);
  const transferId = args.params.id ?? "";
  const outcome = await orOutage(sendTransfer(args.context.db, actor, { transferId, idempotencyKey }));
  return transferWritten(args.context.db, actor, outcome);
}

export { postOnly as loader } from "~/http/api.server";
