// Small SQL building blocks shared by the domain commands whose guards live in SQL.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** The organization of a user, as a scalar subquery: every query built with it stays inside it. */
export function organizationOf(user: { id: string }): SQL {
  return sql`(SELECT acting.organization_id FROM users AS acting WHERE acting.id = ${user.id})`;
}

/**
 * Whether a database error (or one it wraps) is the failed constraint `what`, e.g. /users\.email/:
 * a constraint rolls the whole batch back, and this tells the caller which rule refused it.
 */
export function constraintFailed(error: unknown, what: RegExp): boolean {
  return someMessage(error, (message) => /constraint failed/i.test(message) && what.test(message));
}

/**
 * Whether a database error (or one it wraps) is any refused constraint: a CHECK, UNIQUE, NOT NULL
 * or foreign key, or a trigger's RAISE (SQLite files those under SQLITE_CONSTRAINT too). A verb
 * names the ones it expects; one that still reaches the boundary is a conflict (orOutage), not a bug.
 */
export function isConstraintError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? "");
    const extended = String((e as { extendedCode?: unknown }).extendedCode ?? "");
    if (code.startsWith("SQLITE_CONSTRAINT") || extended.startsWith("SQLITE_CONSTRAINT")) return true;
  }
  return someMessage(error, (message) => /SQLITE_CONSTRAINT|constraint failed/i.test(message));
}

/**
 * Whether a database error (or one it wraps) is a trigger's RAISE with a message matching `what`,
 * e.g. /receipt is closed/: the guard that refused the batch, named.
 */
export function raisedBy(error: unknown, what: RegExp): boolean {
  return someMessage(error, (message) => what.test(message));
}

/** Whether the error or one of the causes it wraps (the client wraps the server's) has such a message. */
function someMessage(error: unknown, test: (message: string) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(String((e as { message?: unknown }).message ?? ""))) return true;
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

/**
 * `q` contained in any of `texts`, ignoring case (search boxes). LIKE's wildcards typed in `q`
 * match only themselves; a NULL text simply does not match.
 */
export function anyContains(q: string, texts: readonly (SQL | SQLiteColumn)[]): SQL {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(${sql.join(
    texts.map((text) => sql`lower(${text}) LIKE ${pattern} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}

/**
 * `column` among the locations in scope, for a list that walks an index in its own order. One
 * location (when `seek`): an equality a location-led index may seek. Several: a filter only (the
 * unary plus keeps the planner off location-led indexes, whose IN over ten locations would sort
 * every match). None: nothing.
 */
export function atLocations(column: SQL | SQLiteColumn, ids: readonly string[], seek = true): SQL {
  if (ids.length === 0) return sql`0`;
  if (ids.length === 1 && seek) return sql`${column} = ${ids[0]}`;
  return sql`+${column} IN (${valueList(ids)})`;
}

/** A JSON object column read by raw SQL (an activity summary, a manifest): null when empty or not an object. */
export function jsonObjectOf(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
