import { type SQL, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import Database from "libsql";
import { describe, expect, it } from "vitest";
import { countText } from "~/ui/table";
import {
  COUNT_CAP,
  cappedCountSql,
  cappedTotal,
  decodeCursor,
  encodeCursor,
  type Keyset,
  keysetLimit,
  keysetOf,
  keysetOrder,
  keysetPage,
  keysetWhere,
  type SortKey,
} from "./keyset.server";

// The inventory's shape of key: a nullable date (undated last), an integer, the id; and the usage
// log's: newest first.
const DATED: SortKey[] = [
  { sql: sql`(d IS NULL)`, type: "integer" },
  { sql: sql`d`, type: "text", nullable: true },
  { sql: sql`n`, type: "integer" },
  { sql: sql`id`, type: "text" },
];
const NEWEST: SortKey[] = [
  { sql: sql`n`, type: "integer", desc: true },
  { sql: sql`id`, type: "text", desc: true },
];

describe("cursors", () => {
  it("round-trip the key values, URL-safe", () => {
    const key = [0, "2027-03-01", 1_700_000_000_000, "019a-ü/+?"];
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, DATED)).toEqual(key);
    expect(decodeCursor(encodeCursor([1, null, 5, "x"]), DATED)).toEqual([1, null, 5, "x"]);
  });

  it("refuse what this list did not make: garbage, wrong length, wrong types, a null key that cannot be null", () => {
    for (const forged of ["", "!!", "bm90IGpzb24", encodeCursor([0, "d", 1]), encodeCursor([0, "d", "1", "x"])]) {
      expect(decodeCursor(forged, DATED)).toBeNull();
    }
    expect(decodeCursor(encodeCursor([0, "d", 1.5, "x"]), DATED)).toBeNull();
    expect(decodeCursor(encodeCursor([null, "d", 1, "x"]), DATED)).toBeNull();
    expect(decodeCursor(encodeCursor({ 0: 1 } as never), DATED)).toBeNull();
  });

  it("read a request's page: the first without a cursor, null for a forged one or both directions", () => {
    expect(keysetOf({}, NEWEST, 10)).toEqual({ direction: null, key: null, pageSize: 10 });
    const cursor = encodeCursor([5, "b"]);
    expect(keysetOf({ after: cursor }, NEWEST, 10)).toEqual({ direction: "after", key: [5, "b"], pageSize: 10 });
    expect(keysetOf({ before: cursor }, NEWEST, 10)?.direction).toBe("before");
    expect(keysetOf({ after: "forged" }, NEWEST, 10)).toBeNull();
    expect(keysetOf({ after: cursor, before: cursor }, NEWEST, 10)).toBeNull();
  });
});

describe("the capped count", () => {
  it("is exact up to the cap and '1,000+' beyond", () => {
    expect(cappedTotal(0)).toEqual({ total: 0, totalExact: true });
    expect(cappedTotal(COUNT_CAP)).toEqual({ total: 1000, totalExact: true });
    expect(cappedTotal(COUNT_CAP + 1)).toEqual({ total: 1000, totalExact: false });
    expect(countText(1000, false, "vials")).toBe("1,000+ vials");
    expect(countText(1000, true, "vials")).toBe("1,000 vials");
    expect(countText(7, true, "stock levels")).toBe("7 stock levels");
  });
});

// The SQL runs on the real engine: every page forward then back, with ties and NULLs in the key.
const dialect = new SQLiteSyncDialect();
function table() {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, d TEXT, n INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO t VALUES (?, ?, ?)");
  for (let k = 0; k < 47; k++) {
    // Few distinct dates and numbers: long runs of ties on every key but the id.
    insert.run(`r${String((k * 17) % 47).padStart(2, "0")}`, k % 5 === 0 ? null : `2027-0${1 + (k % 3)}-01`, k % 4);
  }
  return db;
}
type Row = { id: string; d: string | null; n: number };
function read(db: Database.Database, keys: SortKey[], keyset: Keyset, keyOf: (r: Row) => (string | number | null)[]) {
  const where = keysetWhere(keys, keyset);
  const query = dialect.sqlToQuery(
    sql`SELECT id, d, n FROM t ${where ? sql`WHERE ${where}` : sql``} ORDER BY ${keysetOrder(keys, keyset)} LIMIT ${keysetLimit(keyset)}`,
  );
  return keysetPage(db.prepare(query.sql).all(...query.params) as Row[], keyset, keyOf);
}
function walk(keys: SortKey[], orderBy: string, keyOf: (r: Row) => (string | number | null)[]) {
  const db = table();
  const expected = (db.prepare(`SELECT id FROM t ORDER BY ${orderBy}`).all() as Row[]).map((r) => r.id);
  const pages: string[][] = [];
  let page = read(db, keys, { direction: null, key: null, pageSize: 10 }, keyOf);
  expect(page.previous).toBeNull();
  pages.push(page.items.map((r) => r.id));
  // Bounded, so a cursor that fails to advance fails the test rather than looping.
  while (page.next && pages.length < 20) {
    page = read(db, keys, { direction: "after", key: decodeCursor(page.next, keys), pageSize: 10 }, keyOf);
    pages.push(page.items.map((r) => r.id));
  }
  expect(pages.flat()).toEqual(expected);
  // Back from the last page, with `before`: the same pages, in reverse, to the first (no previous).
  const back: string[][] = [pages[pages.length - 1] ?? []];
  while (page.previous && back.length < 20) {
    page = read(db, keys, { direction: "before", key: decodeCursor(page.previous, keys), pageSize: 10 }, keyOf);
    back.unshift(page.items.map((r) => r.id));
  }
  expect(back).toEqual(pages);
  return pages;
}

describe("keyset pages", () => {
  it("walk ascending keys with NULLs last, forward and back, each row once", () => {
    const pages = walk(DATED, "d IS NULL, d, n, id", (r) => [r.d === null ? 1 : 0, r.d, r.n, r.id]);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 10, 7]);
  });

  it("walk descending keys (newest first), forward and back, each row once", () => {
    walk(NEWEST, "n DESC, id DESC", (r) => [r.n, r.id]);
  });

  it("walk a nullable key sorted as it stands (NULLs first ascending, last descending)", () => {
    const nullable = (desc: boolean): SortKey[] => [
      { sql: sql`d`, type: "text", nullable: true, desc },
      { sql: sql`id`, type: "text", desc },
    ];
    walk(nullable(false), "d, id", (r) => [r.d, r.id]);
    walk(nullable(true), "d DESC, id DESC", (r) => [r.d, r.id]);
  });

  it("past the end shows nothing, and its Previous goes back to where it came from", () => {
    const db = table();
    const keyset: Keyset = { direction: "after", key: [1, null, 9, "zz"], pageSize: 10 };
    const page = read(db, DATED, keyset, () => []);
    expect(page).toEqual({ items: [], next: null, previous: encodeCursor([1, null, 9, "zz"]) });
  });

  it("counts at most the cap plus one matching rows", () => {
    const db = new Database(":memory:");
    db.exec(
      "CREATE TABLE big (x INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) INSERT INTO big SELECT x FROM c",
    );
    const count = (where: SQL) => {
      const q = dialect.sqlToQuery(cappedCountSql(sql`FROM big WHERE ${where}`));
      return cappedTotal((db.prepare(q.sql).get(...q.params) as { total: number }).total);
    };
    expect(count(sql`x > 0`)).toEqual({ total: 1000, totalExact: false });
    expect(count(sql`x <= 1000`)).toEqual({ total: 1000, totalExact: true });
    expect(count(sql`x <= 3`)).toEqual({ total: 3, totalExact: true });
  });
});
