// Building blocks for commands whose guard lives in SQL: the change is a conditional statement,
// its activity row is written only for the rows that same condition selects, and a constraint
// failure (UNIQUE, NOT NULL) rolls the whole batch back and is told apart by its message.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ActivityAction } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import type { Actor } from "./actor";

export interface GuardedActivity {
  userId: string;
  locationId?: string | SQL | null;
  action: ActivityAction;
  entity: string;
  entityId: string | SQL;
  /** A SQL expression for the JSON summary; it may read the row `from` selects (the "before"). */
  summary: SQL;
}

/**
 * The insert for one activity row, written only if `from` (a `FROM ... WHERE ...` clause naming
 * the guarded row) selects a row. Put it in the batch before the change, with the change's guard:
 * in one transaction both see the same rows, so the row is logged exactly when it changes.
 */
export function logActivityWhere(db: Database, entry: GuardedActivity, from: SQL) {
  return db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
    SELECT ${uuidv7()}, ${Date.now()}, ${entry.userId}, ${entry.locationId ?? null}, ${entry.action}, ${entry.entity},
      ${entry.entityId}, ${entry.summary} ${from} LIMIT 1`);
}

/** The actor's organization, as a scalar subquery: every query here stays inside it. */
export function organizationOf(actor: Actor): SQL {
  return sql`(SELECT acting.organization_id FROM users AS acting WHERE acting.id = ${actor.id})`;
}

/** Whether a database error (or one it wraps) is the failed constraint `what`, e.g. /users\.email/. */
export function constraintFailed(error: unknown, what: RegExp): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as { message?: unknown }).message ?? "");
    if (/constraint failed/i.test(message) && what.test(message)) return true;
  }
  return false;
}

/** The list `a, b, c` of bound values, for `IN (...)`. */
export function valueList(values: readonly string[]): SQL {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}
