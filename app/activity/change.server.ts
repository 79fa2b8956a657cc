// One way to change a row and record who changed what: the activity row, the change and the read
// back go in ONE batch (one transaction), and the activity row is written under the change's own
// guard, so it exists exactly when the row changed. The guard stays in SQL (that is what makes a
// race safe): a stale form, a lost race or a refused change writes nothing at all, and the read
// back, after the change in the same transaction, tells the verb why. An edit's summary records
// only the fields that change, under the names the form uses ("before"/"after"), so the activity
// list says "Price: $10.00 → $12.50" and nothing else. Every domain's edit, archive and restore
// goes through here; a new domain copies that (ADR 0025).
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "~/db/client.server";
import { type GuardedActivity, logActivityWhere } from "./log.server";

type Statement = BatchItem<"sqlite">;
type ResultOf<S extends Statement> = S["_"]["result"];

export interface ChangeWithActivity<B extends readonly Statement[], U extends Statement, R extends Statement> {
  /** The table of the row that changes (or a join, for a summary that names more). */
  from: SQLiteTable | SQL;
  /** The change's guard: `update` applies under this same condition, so the row is logged exactly when it changes. */
  guard: SQL | undefined;
  /** The activity row; its summary may read the row as it was (the "before"). */
  activity: GuardedActivity;
  /** Statements between the activity row and the update: they still see the row as it was. */
  before?: B;
  /** The change, under `guard`. */
  update: U;
  /** Read after the change, in the same transaction: tells "changed" from each reason it was not. */
  readBack: R;
}

/**
 * Writes the activity row (only if `guard` holds), `before`, the update and the read back in one
 * batch, and answers what the update returned (`updated`), the read back (`current`) and what
 * `before` read.
 */
export async function changeWithActivity<
  const B extends readonly Statement[] = [],
  U extends Statement = Statement,
  R extends Statement = Statement,
>(
  db: Database,
  change: ChangeWithActivity<B, U, R>,
): Promise<{ updated: ResultOf<U>; current: ResultOf<R>; before: BatchResponse<B> }> {
  if (!change.guard) throw new Error("changeWithActivity: a change needs its guard");
  const statements = [
    logActivityWhere(db, change.activity, sql`FROM ${change.from} WHERE ${change.guard}`),
    ...(change.before ?? []),
    change.update,
    change.readBack,
  ] as [Statement, ...Statement[]];
  const results: unknown[] = await db.batch(statements);
  const last = results.length - 1;
  return {
    updated: results[last - 1] as ResultOf<U>,
    current: results[last] as ResultOf<R>,
    before: results.slice(1, last - 1) as BatchResponse<B>,
  };
}

/** A column as the activity summary records it: a flag as true/false and a JSON column as JSON, as the form sends them. */
function recorded(column: SQLiteColumn): SQL {
  if (column.dataType === "boolean") return sql`json(CASE WHEN ${column} THEN 'true' ELSE 'false' END)`;
  if (column.dataType === "json") return sql`json(${column})`;
  return sql`${column}`;
}

/** A form's value as the column stores it (a flag as 0/1, a list as JSON text), to compare with the row. */
function stored(column: SQLiteColumn, value: unknown): unknown {
  return value === null || value === undefined ? null : column.mapToDriverValue(value);
}

type FieldOf<T extends SQLiteTable> = keyof T["_"]["columns"] & string;

/**
 * `fields` of the table's row (named as the schema names its columns, which are the summary's
 * keys) as one JSON object: what a create's activity row records.
 */
export function recordedFields<T extends SQLiteTable>(table: T, fields: readonly FieldOf<T>[]): SQL {
  const columns = getTableColumns(table);
  return sql`json_object(${sql.join(
    fields.map((field) => sql`${field}, ${recorded(columns[field] as SQLiteColumn)}`),
    sql`, `,
  )})`;
}

/**
 * An edit's `before`/`after` objects for its activity summary, holding only the fields that
 * change, and `differs`, whether any does (part of the edit's guard: a save that changes nothing
 * writes nothing and logs nothing). `fields` are the table's columns the form sets, by their
 * schema names; `values` the form's. json_remove drops each unchanged key (and ignores the
 * made-up path it gets for a changed one).
 */
export function changedFields<T extends SQLiteTable, K extends FieldOf<T>>(
  table: T,
  fields: readonly K[],
  values: { readonly [key in K]: unknown },
): { differs: SQL; before: SQL; after: SQL } {
  const columns = getTableColumns(table);
  const differ = (field: K) => {
    const column = columns[field] as SQLiteColumn;
    return sql`${column} IS NOT ${stored(column, values[field])}`;
  };
  const paths = sql.join(
    fields.map((field) => sql`CASE WHEN ${differ(field)} THEN '$.__changed' ELSE ${`$.${field}`} END`),
    sql`, `,
  );
  const after = Object.fromEntries(fields.map((field) => [field, values[field]]));
  return {
    differs: sql`(${sql.join(fields.map(differ), sql` OR `)})`,
    before: sql`json_remove(${recordedFields(table, fields)}, ${paths})`,
    after: sql`json_remove(json(${JSON.stringify(after)}), ${paths})`,
  };
}

/** The `'before', …, 'after', …` keys of an archive (`active` false) or a restore (true), for a summary's json_object. */
export function activeChange(active: boolean): SQL {
  return sql`'before', json_object('active', json(${String(!active)})), 'after', json_object('active', json(${String(active)}))`;
}
