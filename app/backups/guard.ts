// The guard that keeps two overlapping runs from both advancing the same work: each cursor a run
// writes carries a fresh token, and the batch that wrote it fails (rolls back whole) unless the
// row holds that token afterwards, i.e. unless this run's guarded update is the one that happened.
import type { InStatement } from "@libsql/client";

export function newToken(): string {
  return crypto.randomUUID();
}

/** Fails the batch (a JSON error, "malformed JSON") unless the row's cursor carries `token`. */
export function abortUnlessOwned(table: "backups" | "backup_restores", id: string, token: string): InStatement {
  return {
    sql: `SELECT json(CASE WHEN (SELECT json_extract(cursor, '$.token') FROM ${table} WHERE id = ?) = ?
      THEN '1' ELSE 'moved by another run' END)`,
    args: [id, token],
  };
}

/** Fails the batch unless `condition` (a SQL expression over its `args`) holds. */
export function abortUnless(condition: string, args: (string | number)[]): InStatement {
  return { sql: `SELECT json(CASE WHEN ${condition} THEN '1' ELSE 'moved by another run' END)`, args };
}
