// Submitting a count for review (WRITE_INVENTORY at its location): only while it is being counted,
// and only with something counted. The review (./report.server) reads expected against counted.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { KeyOnlyBody } from "./forms";
import { refuse } from "./outcome";
import { stepSession } from "./review-step.server";

export async function submitCount(
  db: Database,
  actor: ScopedActor,
  input: { sessionId: string; idempotencyKey?: string | null },
) {
  const read = KeyOnlyBody.safeParse({ idempotencyKey: input.idempotencyKey });
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const lines = sql`(SELECT count(*) FROM audit_lines AS a WHERE a.session_id = s.id)`;
  const now = Date.now();
  return stepSession(db, actor, input.sessionId, {
    permission: "WRITE_INVENTORY",
    action: "submit_count",
    guard: sql`s.status = 'in_progress' AND ${lines} > 0`,
    set: sql`status = 'submitted', submitted_by = ${actor.id}, submitted_at = ${now}`,
    to: "submitted",
    summary: sql`json_object('location', l.code, 'lines', ${lines})`,
    why: (s) =>
      s.status === "rejected" ? refuse("not_in_progress") : s.status !== "in_progress" ? refuse("closed") : null,
    request: {},
    idempotencyKey: read.data.idempotencyKey,
  }).then(async (outcome) => {
    // In progress but not written: nothing counted yet.
    if (!outcome.ok && outcome.refusal === "not_submitted") return refuse("nothing_counted");
    return outcome;
  });
}
