// The vial JSON API's one shape (POST /api/vials/{id}/start, /draw, /empty, /discard): WRITE_INVENTORY
// at the location in scope (or the `?locationId=` named, like the read APIs), the body parsed once by
// the verb's own schema, the Idempotency-Key header, and the verb's Outcome answered through the one
// write glue: `{vial}` (and `usage` for a draw) as GET /api/vials shows it, or `{error, code}`.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import { apiActor } from "~/access/door.server";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import type { VialRefusal } from "./outcome";
import type { VialAddress, VialVerb } from "./verb.server";

/**
 * A refused witness or a key sent for another request is the caller's input (422); a vial in the
 * wrong state for the verb is a conflict (409, the glue's default); not_found 404, forbidden 403.
 */
const STATUSES: Partial<Record<VialRefusal, number>> = {
  witness_required: 422,
  witness_invalid: 422,
  key_misused: 422,
};

/**
 * The action of one vial write route: gate first, so a caller without the permission learns nothing
 * else; then the body parsed once, by the verb's own schema, and the verb on what it parsed.
 */
export function vialAction<S extends z.ZodType<object>>(verb: VialVerb<S, VialAddress, object>) {
  return async (args: ActionFunctionArgs) => {
    const { actor } = await apiActor(args, "WRITE_INVENTORY");
    const body = await readJsonBody(args.request, verb.schema);
    const idempotencyKey = idempotencyKeyOf(args.request);
    const outcome = await orOutage(
      verb.parsed(args.context.db, actor, { ...body, itemId: args.params.itemId ?? "", idempotencyKey }),
    );
    return answerOutcome(outcome, { statuses: STATUSES });
  };
}
