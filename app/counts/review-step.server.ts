// What submit and send back share: one guarded UPDATE of the session's status, its activity row
// written first under the same guard (the change happened exactly when the row is there), the key
// remembered, and when nothing was written, the session read again to say why.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import { type ActivityAction, logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { AuditStatus } from "./constants";
import { type CountRefused, type Outcome, refuse } from "./outcome";
import { readSession, type SessionRow, sessionReached } from "./session.server";

export interface Step {
  permission: Permission;
  action: ActivityAction;
  /** SQL on the session `s`: true while the step applies. */
  guard: SQL;
  /** The SET list of the session update. */
  set: SQL;
  to: AuditStatus;
  summary: SQL;
  /** Why the step does not apply to the session as it stands (null: it would). */
  why: (session: SessionRow) => CountRefused | null;
  request: object;
  idempotencyKey: string | null;
}

export async function stepSession(
  db: Database,
  actor: ScopedActor,
  sessionId: string,
  step: Step,
): Promise<Outcome<{ sessionId: string; status: AuditStatus }>> {
  const session = await readSession(db, actor, step.permission, sessionId);
  if (!session) return refuse("not_found");
  const key = await idempotencyKeyFor(actor.id, step.idempotencyKey, `${step.action}:${sessionId}`, step.request);
  const refused = step.why(session);
  if (refused && !key) return refused;
  const activityId = uuidv7();
  const changed = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
  const [, , , recalled, written] = await db.batch([
    logActivityWhere(
      db,
      {
        id: activityId,
        userId: actor.id,
        locationId: session.locationId,
        action: step.action,
        entity: "audit_session",
        entityId: sessionId,
        summary: step.summary,
      },
      sql`FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
        WHERE s.id = ${sessionId} AND ${sessionReached(actor, step.permission)} AND ${step.guard} AND ${keyUnused(key)}`,
    ),
    db.run(
      sql`UPDATE audit_sessions SET ${step.set}, updated_at = ${Date.now()} WHERE id = ${sessionId} AND ${changed}`,
    ),
    rememberKey(
      db,
      key,
      sql`json_object('ok', json('true'), 'sessionId', ${sessionId}, 'status', ${step.to})`,
      sql`WHERE ${changed}`,
    ),
    recallKey(db, key),
    db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${activityId}`),
  ]);
  if (written.length === 1) return { ok: true, sessionId, status: step.to };
  const replay = replayOf<Outcome<{ sessionId: string; status: AuditStatus }>>(recalled, key);
  if (replay.replay) return replay.answer;
  if (replay.misused) return refuse("key_misused");
  const now = await readSession(db, actor, step.permission, sessionId);
  if (!now) return refuse("not_found");
  return step.why(now) ?? refuse("not_submitted");
}
