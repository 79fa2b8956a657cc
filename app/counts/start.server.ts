// Starting a cycle count at a location (WRITE_INVENTORY there): a scope (everything, a category,
// chosen products) and blind or not. One count is open at a location at a time (the unique partial
// index audit_sessions_one_open_idx): a second person starting one joins the open count instead,
// and is told so (`joined`). One batch: the session, its activity row and the remembered key.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import type { AuditStatus } from "./constants";
import { StartBody, type StartInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

export type Started = { sessionId: string; joined: boolean; status: AuditStatus };

export async function startCount(
  db: Database,
  actor: ScopedActor,
  input: StartInput,
  retried = false,
): Promise<Outcome<Started>> {
  const read = StartBody.safeParse(input);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { locationId, scope, blind, idempotencyKey } = read.data;
  if (!reachesAt(actor, "WRITE_INVENTORY", locationId)) return refuse("forbidden");
  const organization = organizationOf(actor);
  const { idempotencyKey: _key, ...request } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `count_start:${locationId}`, request);
  const sessionId = uuidv7();
  const category = scope.kind === "category" ? scope.category : null;
  const productIds = scope.kind === "products" ? JSON.stringify(scope.productIds) : null;
  const locationOk = sql`EXISTS (SELECT 1 FROM locations AS l WHERE l.id = ${locationId}
    AND l.organization_id = ${organization} AND l.active = 1)`;
  const scopeOk =
    scope.kind === "category"
      ? sql`EXISTS (SELECT 1 FROM products AS p WHERE p.organization_id = ${organization} AND p.category = ${category})`
      : scope.kind === "products"
        ? sql`(SELECT count(*) FROM products AS p WHERE p.organization_id = ${organization}
            AND p.id IN (SELECT value FROM json_each(${productIds}))) = ${scope.productIds.length}`
        : sql`1`;
  const open = sql`(SELECT o.id FROM audit_sessions AS o WHERE o.location_id = ${locationId}
    AND o.status IN ('in_progress', 'rejected'))`;
  try {
    const [started, , , recalled, checks] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO audit_sessions (id, location_id, status, scope, scope_category,
          scope_product_ids, blind, started_by, started_at)
        SELECT ${sessionId}, ${locationId}, 'in_progress', ${scope.kind}, ${category}, ${productIds}, ${blind ? 1 : 0},
          ${actor.id}, ${Date.now()}
        WHERE ${locationOk} AND ${scopeOk} AND ${open} IS NULL AND ${keyUnused(key)}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId,
          action: "start_count",
          entity: "audit_session",
          entityId: sessionId,
          summary: sql`json_object('location', l.code, 'blind', json(CASE WHEN s.blind THEN 'true' ELSE 'false' END),
            'scope', s.scope, 'category', s.scope_category)`,
        },
        sql`FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id WHERE s.id = ${sessionId}`,
      ),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'sessionId', s.id, 'joined', json('false'), 'status', s.status)`,
        sql`FROM audit_sessions AS s WHERE s.id = ${sessionId}`,
      ),
      recallKey(db, key),
      db.all<{ locationOk: number; scopeOk: number; open: string | null; status: AuditStatus | null }>(
        sql`SELECT ${locationOk} AS locationOk, ${scopeOk} AS scopeOk, ${open} AS open,
          (SELECT status FROM audit_sessions WHERE id = ${open}) AS status`,
      ),
    ]);
    if (started.length === 1) return { ok: true, sessionId, joined: false, status: "in_progress" };
    const replay = replayOf<Outcome<Started>>(recalled, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    const check = checks[0];
    if (!check?.locationOk) return refuse("location_unavailable");
    // A count already open here: join it, whatever scope was asked.
    if (check.open) return { ok: true, sessionId: check.open, joined: true, status: check.status ?? "in_progress" };
    return scope.kind === "category" ? refuse("category_unknown") : refuse("products_unknown");
  } catch (error) {
    // Two people started at the same moment: the other one's count is the open one.
    const raced = isKeyTaken(error) || constraintFailed(error, /audit_sessions\.location_id/);
    if (raced && !retried) return startCount(db, actor, input, true);
    throw error;
  }
}
