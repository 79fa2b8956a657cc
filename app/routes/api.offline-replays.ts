// POST /api/offline-replays?locationId=<the location in scope when it was recorded> (Idempotency-Key:
// the queue entry's key) {kind, itemId?, sessionId?, body, recordedAt, summary}: one command recorded
// offline at the cart, replayed (app/offline/contract.ts). 200 {status: "done", result} when applied,
// 200 {status: "flagged", flag: {id, code, reason}} when refused and kept for a manager; 400
// `invalid_body` a malformed envelope, 401 signed out, 403 no WRITE_INVENTORY there, 503 database down.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { answerOutcome, idempotencyKeyOf, readJsonObject } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import { replayCommand } from "~/offline/replay.server";

export async function action(args: ActionFunctionArgs) {
  const { actor } = await apiActor(args, "WRITE_INVENTORY");
  const sent = await readJsonObject(args.request);
  const key = idempotencyKeyOf(args.request);
  const outcome = await orOutage(replayCommand(args.context.db, actor, sent, key));
  if (!outcome.ok) return answerOutcome(outcome, { statuses: { invalid_body: 400, key_misused: 422 } });
  return answerOutcome({ ok: true, ...outcome.answer });
}

export { postOnly as loader } from "~/http/api.server";
