// Pagination of the lists that grow without bound (vials, stock levels, usage): keyset pages and a
// capped count (ADR 0018). A page is read from just past the sort key of the row shown last
// (`?after=`) or, reading backwards, just before the one shown first (`?before=`), so page 500
// costs what page 1 does; the count stops at COUNT_CAP + 1 rows. The cursor is opaque to clients:
// base64url of the key values as JSON, checked against the list's key shape on the way in.
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";

/** A list counts at most this many matching rows; beyond, it shows "1,000+". */
export const COUNT_CAP = 1000;

export type KeyValue = string | number | null;

/** One column (or expression) of a list's ORDER BY. The last key must be unique (the row id). */
export interface SortKey {
  /** As written in ORDER BY; an index whose columns give this order lets LIMIT stop early. */
  sql: SQL;
  type: "text" | "integer";
  /** May be NULL (SQLite sorts NULL first ascending, last descending). */
  nullable?: boolean;
  desc?: boolean;
}

/** Which page to read: the first one, the one after a key, or the one before it. */
export interface Keyset {
  direction: "after" | "before" | null;
  key: KeyValue[] | null;
  pageSize: number;
}

/** The query parameters of a keyset page (each list adds its own filters and `pageSize`). */
export const CursorParams = {
  after: z.string().trim().max(2000).optional().catch(undefined),
  before: z.string().trim().max(2000).optional().catch(undefined),
};

export function encodeCursor(key: readonly KeyValue[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(key));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The key values in `cursor` if they fit `keys` (count, types, nulls), else null: forged or stale. */
export function decodeCursor(cursor: string, keys: readonly SortKey[]): KeyValue[] | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return null;
  let values: unknown;
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    values = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
  } catch {
    return null;
  }
  if (!Array.isArray(values) || values.length !== keys.length) return null;
  const fits = keys.every((k, n) => {
    const value = values[n];
    if (value === null) return Boolean(k.nullable);
    return k.type === "integer" ? Number.isSafeInteger(value) : typeof value === "string" && value.length <= 500;
  });
  return fits ? (values as KeyValue[]) : null;
}

/**
 * The page a request asks for, or null when its cursor is not one this list made (a screen then
 * shows the first page, an API answers `invalidCursor()`). Both `after` and `before` is a forgery.
 */
export function keysetOf(
  params: { after?: string; before?: string },
  keys: readonly SortKey[],
  pageSize: number,
): Keyset | null {
  const { after, before } = params;
  if (after && before) return null;
  const cursor = after || before;
  if (!cursor) return { direction: null, key: null, pageSize };
  const key = decodeCursor(cursor, keys);
  return key && { direction: after ? "after" : "before", key, pageSize };
}

/** The first page: what a screen shows for a cursor that is not valid. */
export function firstPage(keyset: Keyset | null, pageSize: number): Keyset {
  return keyset ?? { direction: null, key: null, pageSize };
}

/** Whether the page is read backwards (`before`): its keys are then walked in reverse. */
const backwards = (keyset: Keyset) => keyset.direction === "before";

/**
 * The WHERE term of the rows past the cursor in reading order (undefined on the first page):
 * `k1 >= v1 AND (k1 > v1 OR (k1 = v1 AND (k2 > v2 OR …)))`. The leading bound is the range an
 * index seeks to; the rest is exact, NULLs included.
 */
export function keysetWhere(keys: readonly SortKey[], keyset: Keyset): SQL | undefined {
  const { key } = keyset;
  if (!key) return undefined;
  const up = (k: SortKey) => Boolean(k.desc) === backwards(keyset);
  const beyond = (k: SortKey, v: KeyValue): SQL => {
    if (up(k)) return v === null ? sql`${k.sql} IS NOT NULL` : sql`${k.sql} > ${v}`;
    if (v === null) return sql`0`;
    return k.nullable ? sql`(${k.sql} < ${v} OR ${k.sql} IS NULL)` : sql`${k.sql} < ${v}`;
  };
  const same = (k: SortKey, v: KeyValue): SQL => (v === null ? sql`${k.sql} IS NULL` : sql`${k.sql} = ${v}`);
  const pairs = keys.map((k, n) => [k, key[n] ?? null] as const);
  const rest = pairs.reduceRight<SQL | null>(
    (inner, [k, v]) => (inner ? sql`(${beyond(k, v)} OR (${same(k, v)} AND ${inner}))` : beyond(k, v)),
    null,
  );
  const [k1, v1] = pairs[0] ?? [];
  if (!rest || !k1) return undefined;
  // The range an index seeks to. One key only: SQLite seeks no row value holding an expression,
  // so a list whose first key is constant over long runs leads with a key that is not.
  const bound = up(k1)
    ? v1 === null
      ? undefined
      : sql`${k1.sql} >= ${v1}`
    : v1 === null
      ? sql`${k1.sql} IS NULL`
      : k1.nullable
        ? undefined
        : sql`${k1.sql} <= ${v1}`;
  return bound ? sql`${bound} AND ${rest}` : rest;
}

/** The ORDER BY of the page as read (reversed for `before`; `keysetPage` flips the rows back). */
export function keysetOrder(keys: readonly SortKey[], keyset: Keyset): SQL {
  return sql.join(
    keys.map((k) => (Boolean(k.desc) === backwards(keyset) ? sql`${k.sql} ASC` : sql`${k.sql} DESC`)),
    sql`, `,
  );
}

/** Rows to read: one beyond the page, to know whether another page follows. */
export const keysetLimit = (keyset: Keyset) => keyset.pageSize + 1;

export interface CursorPage<T> {
  items: T[];
  /** The cursor of the next page (`?after=`), null on the last. */
  next: string | null;
  /** The cursor of the previous page (`?before=`), null on the first. */
  previous: string | null;
}

/** The page shown from the rows read (pageSize + 1, in reading order), with its two cursors. */
export function keysetPage<T>(rows: readonly T[], keyset: Keyset, keyOf: (row: T) => KeyValue[]): CursorPage<T> {
  const more = rows.length > keyset.pageSize;
  const items = rows.slice(0, keyset.pageSize);
  if (backwards(keyset)) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  // Past the end (or before the start) with nothing to show: the way back is the cursor itself.
  const came = keyset.key && encodeCursor(keyset.key);
  const edge = (row: T | undefined) => (row ? encodeCursor(keyOf(row)) : came);
  return {
    items,
    next: keyset.direction === "before" || more ? edge(last) : null,
    previous: keyset.direction === "after" || (backwards(keyset) && more) ? edge(first) : null,
  };
}

/**
 * Every row of a list, a page at a time by its keyset (a CSV download): each page is one read, made
 * only when the caller has taken the page before, so a download of millions holds one page in memory.
 */
export async function* keysetWalk<T>(
  read: (keyset: Keyset) => Promise<readonly T[]>,
  keyOf: (row: T) => KeyValue[],
  pageSize: number,
): AsyncGenerator<T[]> {
  let keyset: Keyset = { direction: null, key: null, pageSize };
  for (;;) {
    const rows = await read(keyset);
    const { items } = keysetPage(rows, keyset, keyOf);
    const last = items[items.length - 1];
    if (last) yield items;
    if (!last || rows.length <= pageSize) return;
    keyset = { direction: "after", key: keyOf(last), pageSize };
  }
}

/**
 * The capped count of the rows `fromWhere` (a `FROM … WHERE …` fragment) matches: at most
 * COUNT_CAP + 1 are read, so a filter matching millions costs what one matching 1,001 does.
 */
export function cappedCountSql(fromWhere: SQL): SQL {
  return sql`SELECT count(*) AS total FROM (SELECT 1 ${fromWhere} LIMIT ${COUNT_CAP + 1})`;
}

/** The count as a list answers it: {total, totalExact}; beyond the cap, total is COUNT_CAP and inexact. */
export function cappedTotal(counted: unknown): { total: number; totalExact: boolean } {
  const n = Number(counted ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, totalExact: false } : { total: n, totalExact: true };
}

/** A list's answer from the rows read and its count: the page with its cursors, its size, the capped count. */
function cappedPage<T>(rows: readonly T[], counted: unknown, keyset: Keyset, keyOf: (row: T) => KeyValue[]) {
  return { ...keysetPage(rows, keyset, keyOf), pageSize: keyset.pageSize, ...cappedTotal(counted) };
}

/**
 * A list's keyset pagination, bound to its order and to how a row read gives its key: what a list
 * module needs, in one place, so each list states only its keys.
 */
export function keysetList<R>(keys: readonly SortKey[], keyOf: (row: R) => KeyValue[]) {
  return {
    /** The page a request asks for; null when its cursor is not one this list made. */
    keyset: (query: { after?: string; before?: string; pageSize: number }) => keysetOf(query, keys, query.pageSize),
    /** The WHERE term past the cursor (undefined on the first page). */
    where: (keyset: Keyset) => keysetWhere(keys, keyset),
    orderBy: (keyset: Keyset) => keysetOrder(keys, keyset),
    limit: keysetLimit,
    /**
     * SQL: a CTE `page` of the ids (`id`) of the page's rows of `fromWhere` (a `FROM … WHERE …`
     * fragment), picked first, in order. A list that works out columns a row (counts of its lines)
     * joins its table to `page` and orders by `orderBy` again: a select with an ORDER BY works out
     * every matching row's columns before its sort keeps the page (54 K steps for the chain's
     * transfers), this only the page's.
     */
    pageFirst(keyset: Keyset, id: SQL, fromWhere: SQL): SQL {
      const past = keysetWhere(keys, keyset);
      return sql`WITH page AS MATERIALIZED (SELECT ${id} AS id ${fromWhere} ${past ? sql`AND ${past}` : sql``}
        ORDER BY ${keysetOrder(keys, keyset)} LIMIT ${keysetLimit(keyset)})`;
    },
    /** The answer of a list, {items, pageSize, total, totalExact, next, previous}, each item made by `map`. */
    page<T>(rows: readonly R[], counted: unknown, keyset: Keyset, map: (row: R) => T) {
      const page = cappedPage(rows, counted, keyset, keyOf);
      return { ...page, items: page.items.map(map) };
    },
  };
}
