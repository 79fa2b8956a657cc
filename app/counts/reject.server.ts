// Sending a submitted count back for a recount (WRITE_AUDITS at its location) with a required
// note: the counters see it on /audit; counting again reopens the count (./count.server). A count
// sent back is open again, and a location counts one count at a time (audit_sessions_one_open_idx):
// while another count is open there, it is not sent back (the guard, and a refusal that says so).
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
  const [other] = await db.all<{ id: string }>(sql`SELECT o.id FROM audit_sessions AS s
    JOIN audit_sessions AS o ON o.location_id = s.location_id AND o.id <> s.id AND o.status IN ('in_progress', 'rejected')
    WHERE s.id = ${input.sessionId} AND s.status = 'submitted'`);
  if (other) return refuse("another_count_open");
  return stepSession(db, actor, input.sessionId, {
    permission: "WRITE_AUDITS",
    action: "reject_count",
    guard: sql`s.status = 'submitted' AND NOT EXISTS (SELECT 1 FROM audit_sessions AS o
      WHERE o.location_id = s.location_id AND o.id <> s.id AND o.status IN ('in_progress', 'rejected'))`,
    set: sql`status = 'rejected', reviewed_by = ${actor.id}, reviewed_at = ${now}, review_note = ${note}`,
    to: "rejected",
    summary: sql`json_object('location', l.code, 'note', ${note})`,
    why: (s) => (s.status === "submitted" ? null : refuse("not_submitted")),
    request: { note },
    idempotencyKey,
  });
}
