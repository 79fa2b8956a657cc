// Which tables a snapshot holds, found from the database itself (so a table a later issue adds is
// backed up without touching this code), and the SQL that pages through them.
import type { Client, InStatement } from "@libsql/client";
import type { ColumnShape, TableShape } from "./format";

/**
 * Never backed up nor restored (ADR 0028): the record of the backups themselves (a restore must
 * not forget the snapshots made after it), the sessions and the sign-in throttle (a restore signs
 * everyone out; a throttle of yesterday means nothing today), the answers kept for retried requests
 * (a restore clears them: they name rows that may be gone), the jobs' run log (the worker's own
 * history), drizzle's record of applied migrations (the live schema stays; an older snapshot
 * is migrated forward to it), and what the jobs worker works out for each organization and for
 * counts under review (ADR 0030: worked out again from the restored rows).
 */
export const NEVER_BACKED_UP = [
  "backups",
  "backup_restores",
  "sessions",
  "sign_in_throttle",
  "idempotency_keys",
  "job_runs",
  "__drizzle_migrations",
  "worked_out",
  "worked_out_counts",
  "reconciliation_worked_out",
] as const;

/** What a restore empties besides replacing the backed-up tables. */
export const CLEARED_BY_RESTORE = [
  "sessions",
  "idempotency_keys",
  "worked_out",
  "worked_out_counts",
  "reconciliation_worked_out",
] as const;

/** The engine's own work tables: the frozen copy being written, and the two staged copies. */
export const PREFIX = { frozen: "__snapshot_", rehearsal: "__rehearsal_", restore: "__restore_" } as const;
export type Copy = keyof typeof PREFIX;

export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function backedUp(name: string): boolean {
  return !(
    name.startsWith("__") ||
    name.startsWith("sqlite_") ||
    name.startsWith("_cf_") ||
    name.startsWith("libsql_") ||
    (NEVER_BACKED_UP as readonly string[]).includes(name)
  );
}

/** The ordinary tables of the live schema that a snapshot holds (virtual and shadow tables are not). */
export async function liveTables(client: Client): Promise<TableShape[]> {
  const result = await client.execute(`SELECT t.name AS tbl, c.name AS col, c.type AS type, c.pk AS pk
    FROM pragma_table_list AS t JOIN pragma_table_info(t.name) AS c
    WHERE t.schema = 'main' AND t.type = 'table' ORDER BY t.name, c.cid`);
  const tables = new Map<string, { columns: ColumnShape[]; keys: { name: string; at: number }[] }>();
  for (const row of result.rows) {
    const name = String(row.tbl);
    if (!backedUp(name)) continue;
    const table = tables.get(name) ?? { columns: [], keys: [] };
    tables.set(name, table);
    table.columns.push({ name: String(row.col), type: String(row.type ?? "") });
    if (Number(row.pk) > 0) table.keys.push({ name: String(row.col), at: Number(row.pk) });
  }
  return [...tables].map(([name, t]) => ({
    name,
    columns: t.columns,
    // A table without a declared key pages by rowid (none does today).
    primaryKey: t.keys.length ? t.keys.sort((a, b) => a.at - b.at).map((k) => k.name) : ["rowid"],
  }));
}

/** The engine's tables of one kind left in the database (from a run that stopped), to drop. */
export async function leftovers(client: Client, copy: Copy): Promise<string[]> {
  const result = await client.execute({
    sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?",
    args: [PREFIX[copy].length, PREFIX[copy]],
  });
  return result.rows.map((r) => String(r.name));
}

export function dropAll(names: readonly string[]): string[] {
  return names.map((name) => `DROP TABLE IF EXISTS ${quote(name)}`);
}

export function copyName(copy: Copy, table: string): string {
  return PREFIX[copy] + table;
}

/**
 * A work copy of a table: its columns with their declared types (so values keep their storage
 * class) and its primary key (to page in key order), no other constraint: the live table's checks
 * and foreign keys apply when the rows are switched in.
 */
export function createCopy(copy: Copy, table: TableShape): string {
  const columns = table.columns.map((c) => `${quote(c.name)} ${c.type}`.trim());
  const key = table.primaryKey[0] === "rowid" ? [] : [`PRIMARY KEY (${table.primaryKey.map(quote).join(", ")})`];
  return `CREATE TABLE ${quote(copyName(copy, table.name))} (${[...columns, ...key].join(", ")})`;
}

export function columnList(table: TableShape): string {
  return table.columns.map((c) => quote(c.name)).join(", ");
}

/** One row's canonical line: SQLite's own JSON of its values, columns in order. */
export function lineOf(table: TableShape): string {
  return `json_array(${columnList(table)})`;
}

/**
 * The next page of `from` (a table or a copy) after the key `after` (null: from the start), in
 * primary key order: each row's line and its key.
 */
export function pageQuery(from: string, table: TableShape, after: unknown[] | null, limit: number): InStatement {
  const keys = table.primaryKey.map(quote).join(", ");
  const where = after ? `WHERE (${keys}) > (${after.map(() => "?").join(", ")})` : "";
  return {
    sql: `SELECT ${lineOf(table)} AS line, ${keys} FROM ${quote(from)} ${where} ORDER BY ${keys} LIMIT ${limit}`,
    args: (after ?? []) as never[],
  };
}

/** The insert of a page of lines (one JSON array of the rows' arrays) into `into`. */
export function insertLines(into: string, table: TableShape, linesAsArray: string): InStatement {
  const values = table.columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
  return {
    sql: `INSERT INTO ${quote(into)} (${columnList(table)}) SELECT ${values} FROM json_each(?) ORDER BY key`,
    args: [linesAsArray],
  };
}
