// Sending a submitted count back for a recount (WRITE_AUDITS at its location) with a required
// note: the counters see it on /audit; counting again reopens the count (./count.server).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { RejectBody, type RejectInput } from "./forms";
import { refuse } from "./outcome";
import { stepSession } from "./review-step.server";

export async function rejectCount(db: Database, actor: ScopedActor, input: RejectInput & { sessionId: string }) {
  const read = RejectBody.safeParse(input);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { note, idempotencyKey } = read.data;
  const now = Date.now();
  return stepSession(db, actor, input.sessionId, {
    permission: "WRITE_AUDITS",
    action: "reject_count",
    guard: sql`s.status = 'submitted'`,
    set: sql`status = 'rejected', reviewed_by = ${actor.id}, reviewed_at = ${now}, review_note = ${note}`,
    to: "rejected",
    summary: sql`json_object('location', l.code, 'note', ${note})`,
    why: (s) => (s.status === "submitted" ? null : refuse("not_submitted")),
    request: { note },
    idempotencyKey,
  });
}
