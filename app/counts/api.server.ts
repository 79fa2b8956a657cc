// The cycle counts' JSON API glue: the body parsed once by the verb's schema, the Idempotency-Key
// header, the verb's Outcome answered in the one shape (`{error, code}` with a 4xx for a refusal).
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import { apiActor } from "~/access/door.server";
import type { Permission } from "~/access/permissions";
import { answerOutcome, idempotencyKeyOf, readJsonBody } from "~/http/api.server";
import { orOutage } from "~/http/outage.server";
import type { CountRefusal, Outcome } from "./outcome";

/** Bad input is 422; a count in the wrong state for the verb is a conflict (409, the glue's default). */
export const COUNT_STATUSES: Partial<Record<CountRefusal, number>> = {
  location_unavailable: 422,
  category_unknown: 422,
  products_unknown: 422,
  unknown_label: 422,
  out_of_scope: 422,
  units_needed: 422,
  too_many_units: 422,
  bulk_only: 422,
  variation_unavailable: 422,
  key_misused: 422,
};

/** POST /api/audit-sessions/{id}/<verb>: gate, parse the body with `schema`, call the verb on the session. */
export function sessionAction<S extends z.ZodType<object>>(
  permission: Permission,
  schema: S,
  verb: (
    db: ActionFunctionArgs["context"]["db"],
    actor: Awaited<ReturnType<typeof apiActor>>["actor"],
    input: z.output<S> & { sessionId: string; idempotencyKey: string | null },
  ) => Promise<Outcome<object>>,
) {
  return async (args: ActionFunctionArgs) => {
    const { actor } = await apiActor(args, permission);
    const body = await readJsonBody(args.request, schema);
    const idempotencyKey = idempotencyKeyOf(args.request);
    const outcome = await orOutage(
      verb(args.context.db, actor, { ...body, sessionId: args.params.id ?? "", idempotencyKey }),
    );
    return answerOutcome(outcome, { statuses: COUNT_STATUSES });
  };
}
