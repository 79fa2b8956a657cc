// Conformance of the local libSQL server with the official clients (@libsql/client over http, and
// @libsql/client/web, the one the workers use), plus raw Hrana pipelines for what the clients do not send.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Client, type Config, createClient as createNodeClient, LibsqlError } from "@libsql/client";
import { createClient as createWebClient } from "@libsql/client/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parameters, startLocalServer } from "./server.mjs";

type LocalServer = Awaited<ReturnType<typeof startLocalServer>>;

/** Every server needs a token (see the "bearer token" tests); the clients of these tests send this one. */
const TOKEN = "conformance-token";

let dir: string;
let server: LocalServer;
const extraServers: LocalServer[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "libsql-local-"));
  server = await startLocalServer({ dbPath: path.join(dir, "main.db"), authToken: TOKEN });
});

afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of [server, ...extraServers]) await s?.close();
  await rm(dir, { recursive: true, force: true });
});

async function startExtra(options: Partial<Parameters<typeof startLocalServer>[0]> & { name: string }) {
  const { name, ...rest } = options;
  const s = await startLocalServer({ dbPath: path.join(dir, `${name}.db`), authToken: TOKEN, ...rest });
  extraServers.push(s);
  return s;
}

/** One Hrana pipeline over raw fetch. */
async function pipeline(body: unknown, opts: { url?: string; token?: string | null; version?: "v2" | "v3" } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`;
  const res = await fetch(`${opts.url ?? server.url}/${opts.version ?? "v2"}/pipeline`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: raw protocol JSON
  return { status: res.status, contentType: res.headers.get("content-type"), body: (await res.json()) as any };
}

const JSON_WITH_TOKEN = { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` };

const int = (v: bigint | number | string) => ({ type: "integer", value: String(v) });
const text = (value: string) => ({ type: "text", value });

async function expectLibsqlError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LibsqlError);
  expect((error as LibsqlError).code).toBe(code);
}

const clientKinds = [
  ["@libsql/client", createNodeClient],
  ["@libsql/client/web", createWebClient],
] as const;

describe.each(clientKinds)("with %s", (kind, create) => {
  const t = kind.endsWith("web") ? "web" : "node"; // table prefix, both suites share one database
  const client = (config: Partial<Config> = {}) => {
    const c = create({ url: server.url, authToken: TOKEN, intMode: "bigint", ...config });
    clients.push(c);
    return c;
  };
  const count = async (c: Client, table: string) => (await c.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n;

  it("round-trips every value type through positional args", async () => {
    const c = client();
    await c.execute(`CREATE TABLE ${t}_vals (k INTEGER PRIMARY KEY, v)`);
    const values = [
      null,
      42n,
      9007199254740993n, // 2^53 + 1, not representable as a JS number
      9223372036854775807n, // 2^63 - 1
      -9223372036854775808n,
      1.5,
      -0.25,
      "héllo wörld ✓ 🦷 诊所",
      "",
    ];
    for (const [i, v] of values.entries()) {
      await c.execute({ sql: `INSERT INTO ${t}_vals (k, v) VALUES (?, ?)`, args: [i, v] });
    }
    const blob = new Uint8Array([0, 1, 2, 127, 128, 254, 255]);
    await c.execute({ sql: `INSERT INTO ${t}_vals (k, v) VALUES (?, ?)`, args: [100, blob] });

    const rs = await c.execute(`SELECT k, v, typeof(v) AS type FROM ${t}_vals ORDER BY k`);
    expect(rs.rows.slice(0, values.length).map((r) => r.v)).toEqual(values);
    expect(rs.rows.map((r) => r.type)).toEqual([
      "null",
      "integer",
      "integer",
      "integer",
      "integer",
      "real",
      "real",
      "text",
      "text",
      "blob",
    ]);
    expect(new Uint8Array(rs.rows[values.length]?.v as ArrayBuffer)).toEqual(blob);

    // a bound JS number travels as a float: SQLite stores 2 as REAL 2.0 in an untyped column
    const two = await c.execute({ sql: "SELECT ? AS v, typeof(?1) AS type", args: [2] });
    expect(two.rows[0]?.type).toBe("real");
  });

  it("binds named args written :name, @name and $name, with or without the prefix", async () => {
    const c = client();
    const sql = "SELECT :a AS a, @b AS b, $c AS c, :a || @b AS ab";
    const bare = await c.execute({ sql, args: { a: "x", b: 7n, c: null } });
    expect(bare.rows[0]).toMatchObject({ a: "x", b: 7n, c: null, ab: "x7" });
    const prefixed = await c.execute({ sql, args: { ":a": "y", "@b": 8n, $c: 1.5 } });
    expect(prefixed.rows[0]).toMatchObject({ a: "y", b: 8n, c: 1.5, ab: "y8" });
    // a missing argument is an error, not a silent NULL
    await expectLibsqlError(c.execute({ sql, args: { a: "x", b: 1n } }), "ARGS_INVALID");
  });

  it("rolls back a whole write batch when its third statement violates a CHECK", async () => {
    const c = client();
    await c.execute(`CREATE TABLE ${t}_stock (id INTEGER PRIMARY KEY, qty INTEGER NOT NULL CHECK (qty >= 0))`);
    const batch = c.batch(
      [
        { sql: `INSERT INTO ${t}_stock (qty) VALUES (?)`, args: [5] },
        { sql: `INSERT INTO ${t}_stock (qty) VALUES (?)`, args: [3] },
        { sql: `INSERT INTO ${t}_stock (qty) VALUES (?)`, args: [-1] },
        { sql: `INSERT INTO ${t}_stock (qty) VALUES (?)`, args: [9] },
      ],
      "write",
    );
    await expectLibsqlError(batch, "SQLITE_CONSTRAINT_CHECK");
    expect(await count(c, `${t}_stock`)).toBe(0n);
  });

  it("returns one result set per statement of a successful batch", async () => {
    const c = client();
    const results = await c.batch(
      [
        `CREATE TABLE ${t}_items (id INTEGER PRIMARY KEY, name TEXT UNIQUE)`,
        { sql: `INSERT INTO ${t}_items (name) VALUES (?)`, args: ["gauze"] },
        { sql: `INSERT INTO ${t}_items (name) VALUES (?)`, args: ["syringe"] },
        `SELECT id, name FROM ${t}_items ORDER BY id`,
      ],
      "write",
    );
    expect(results).toHaveLength(4);
    expect(results[1]?.rowsAffected).toBe(1);
    expect(results[2]?.lastInsertRowid).toBe(2n);
    expect(results[3]?.columns).toEqual(["id", "name"]);
    expect(results[3]?.columnTypes).toEqual(["INTEGER", "TEXT"]);
    expect(results[3]?.rows.map((r) => r.name)).toEqual(["gauze", "syringe"]);
  });

  it("commits and rolls back interactive transactions", async () => {
    const c = client();
    const other = client();
    await c.execute(`CREATE TABLE ${t}_tx (name TEXT)`);

    const tx = await c.transaction("write");
    await tx.execute({ sql: `INSERT INTO ${t}_tx VALUES (?)`, args: ["kept"] });
    expect(await count(tx as unknown as Client, `${t}_tx`)).toBe(1n); // visible inside
    expect(await count(other, `${t}_tx`)).toBe(0n); // not yet outside
    await tx.commit();
    expect(await count(other, `${t}_tx`)).toBe(1n);

    const tx2 = await c.transaction("write");
    await tx2.execute({ sql: `INSERT INTO ${t}_tx VALUES (?)`, args: ["dropped"] });
    await tx2.rollback();
    const names = await other.execute(`SELECT name FROM ${t}_tx`);
    expect(names.rows.map((r) => r.name)).toEqual(["kept"]);
  });

  it("surfaces SQL errors with their SQLite code", async () => {
    const c = client();
    await c.execute(`CREATE TABLE ${t}_uniq (code TEXT UNIQUE)`);
    await c.execute({ sql: `INSERT INTO ${t}_uniq VALUES (?)`, args: ["A1"] });
    await expectLibsqlError(
      c.execute({ sql: `INSERT INTO ${t}_uniq VALUES (?)`, args: ["A1"] }),
      "SQLITE_CONSTRAINT_UNIQUE",
    );
    await expectLibsqlError(c.execute("SELEC 1"), "SQLITE_ERROR");
    await expectLibsqlError(c.execute(`SELECT * FROM ${t}_no_such_table`), "SQLITE_ERROR");
  });

  it("runs executeMultiple scripts, stopping at the first failing statement", async () => {
    const c = client();
    await c.executeMultiple(`
      CREATE TABLE ${t}_multi (x INTEGER);
      INSERT INTO ${t}_multi VALUES (1);
      INSERT INTO ${t}_multi VALUES (2);
    `);
    expect(await count(c, `${t}_multi`)).toBe(2n);
    await expectLibsqlError(
      c.executeMultiple(
        `INSERT INTO ${t}_multi VALUES (3); INSERT INTO ${t}_nowhere VALUES (1); INSERT INTO ${t}_multi VALUES (4);`,
      ),
      "SQLITE_ERROR",
    );
    const xs = await c.execute(`SELECT x FROM ${t}_multi ORDER BY x`);
    expect(xs.rows.map((r) => r.x)).toEqual([1n, 2n, 3n]); // autocommit: 3 stays, 4 never ran
  });
});

describe("concurrency", () => {
  const client = () => {
    const c = createNodeClient({ url: server.url, authToken: TOKEN, intMode: "bigint" });
    clients.push(c);
    return c;
  };

  it("lets a second write transaction wait for the first without blocking the event loop", async () => {
    const c1 = client();
    const c2 = client();
    await c1.execute("CREATE TABLE conc (who TEXT)");

    const tx1 = await c1.transaction("write");
    await tx1.execute("INSERT INTO conc VALUES ('first')"); // tx1 now holds the write lock

    let secondDone = false;
    const second = (async () => {
      const tx2 = await c2.transaction("write");
      await tx2.execute("INSERT INTO conc VALUES ('second')");
      await tx2.commit();
      secondDone = true;
    })();

    await sleep(200);
    expect(secondDone).toBe(false); // still waiting for the lock
    const started = Date.now();
    const health = await fetch(`${server.url}/health`); // the server still answers meanwhile
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);

    await tx1.commit();
    await second;
    const rows = await c1.execute("SELECT who FROM conc ORDER BY rowid");
    expect(rows.rows.map((r) => r.who)).toEqual(["first", "second"]);
  });

  it("completes 20 concurrent write batches that queue behind an open transaction", async () => {
    const c = client();
    await c.execute("CREATE TABLE burst (n INTEGER NOT NULL)");
    const holder = await client().transaction("write");
    await holder.execute("INSERT INTO burst VALUES (-1)");

    const batches = Array.from({ length: 20 }, (_, i) =>
      c.batch(
        [
          { sql: "INSERT INTO burst VALUES (?)", args: [i] },
          { sql: "INSERT INTO burst VALUES (?)", args: [i + 100] },
        ],
        "write",
      ),
    );
    await sleep(100);
    await holder.commit();
    const results = await Promise.all(batches);
    expect(results).toHaveLength(20);
    const total = await c.execute("SELECT count(*) AS n, sum(n) AS s FROM burst");
    const expectedSum = -1 + Array.from({ length: 20 }, (_, i) => 2 * i + 100).reduce((a, b) => a + b, 0);
    expect(total.rows[0]).toMatchObject({ n: 41n, s: BigInt(expectedSum) });
  });
});

describe("lock waits", () => {
  const exec = (sql: string) => ({ type: "execute", stmt: { sql } });

  it("runs an executeMultiple script once the write lock is free", async () => {
    const c = createNodeClient({ url: server.url, authToken: TOKEN, intMode: "bigint" });
    const holder = createNodeClient({ url: server.url, authToken: TOKEN });
    clients.push(c, holder);
    await c.execute("CREATE TABLE script (x INTEGER)");
    const tx = await holder.transaction("write");
    await tx.execute("INSERT INTO script VALUES (0)");
    const script = c.executeMultiple("INSERT INTO script VALUES (1); INSERT INTO script VALUES (2);");
    await sleep(100);
    await tx.commit();
    await script;
    const xs = await c.execute("SELECT x FROM script ORDER BY x");
    expect(xs.rows.map((r) => r.x)).toEqual([0n, 1n, 2n]);
  });

  it("keeps a stream usable after a write fails on a stale snapshot", async () => {
    await pipeline({ requests: [exec("CREATE TABLE snap (x INTEGER)"), { type: "close" }] });
    const a = await pipeline({ requests: [exec("BEGIN"), exec("SELECT count(*) FROM snap")] });
    await pipeline({ requests: [exec("INSERT INTO snap VALUES (1)"), { type: "close" }] });
    const a2 = await pipeline({
      baton: a.body.baton,
      requests: [exec("INSERT INTO snap VALUES (2)"), exec("ROLLBACK"), exec("INSERT INTO snap VALUES (3)")],
    });
    expect(a2.body.results[0].error.code).toBe("SQLITE_BUSY_SNAPSHOT");
    expect(a2.body.results.slice(1).map((r: { type: string }) => r.type)).toEqual(["ok", "ok"]);
    // stream a is still open: its autocommit insert must be committed and the write lock free
    const check = await pipeline({
      requests: [
        exec("INSERT INTO snap VALUES (4)"),
        exec("SELECT group_concat(x) FROM (SELECT x FROM snap ORDER BY x)"),
        { type: "close" },
      ],
    });
    expect(check.body.results[0].type).toBe("ok");
    expect(check.body.results[1].response.result.rows).toEqual([[text("1,3,4")]]);
    await pipeline({ baton: a2.body.baton, requests: [{ type: "close" }] });
  });
});

describe("stream expiry", () => {
  it("rolls back an idle transaction and rejects its next call", async () => {
    const s = await startExtra({ name: "expiry", streamIdleMs: 300 });
    const c = createNodeClient({ url: s.url, authToken: TOKEN, intMode: "bigint" });
    const other = createNodeClient({ url: s.url, authToken: TOKEN, intMode: "bigint" });
    clients.push(c, other);
    await c.execute("CREATE TABLE idle (x INTEGER)");

    const tx = await c.transaction("write");
    await tx.execute("INSERT INTO idle VALUES (1)");
    await sleep(800);
    await expectLibsqlError(tx.execute("INSERT INTO idle VALUES (2)"), "STREAM_EXPIRED");

    expect((await other.execute("SELECT count(*) AS n FROM idle")).rows[0]?.n).toBe(0n);
    // the expired stream released the write lock at once
    const started = Date.now();
    await other.batch(["INSERT INTO idle VALUES (3)"], "write");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("rolls back open streams when the server closes", async () => {
    const s = await startExtra({ name: "shutdown" });
    const c = createNodeClient({ url: s.url, authToken: TOKEN });
    clients.push(c);
    await c.execute("CREATE TABLE shut (x INTEGER)");
    const tx = await c.transaction("write");
    await tx.execute("INSERT INTO shut VALUES (1)");
    await s.close();

    const again = await startExtra({ name: "shutdown" });
    const c2 = createNodeClient({ url: again.url, authToken: TOKEN });
    clients.push(c2);
    expect((await c2.execute("SELECT count(*) AS n FROM shut")).rows[0]?.n).toBe(0);
    await c2.execute("INSERT INTO shut VALUES (2)"); // and the lock is free
  });
});

describe("bearer token and JSON only", () => {
  it("will not start without a token", async () => {
    await expect(
      startLocalServer({ dbPath: path.join(dir, "no-token.db") } as Parameters<typeof startLocalServer>[0]),
    ).rejects.toThrow(/authToken is required/);
    await expect(startLocalServer({ dbPath: path.join(dir, "no-token.db"), authToken: "" })).rejects.toThrow(
      /authToken is required/,
    );
  });

  it("rejects a missing or wrong token and accepts the right one", async () => {
    const s = await startExtra({ name: "auth", authToken: "s3cret" });
    const make = (authToken?: string) => {
      const c = createWebClient({ url: s.url, authToken });
      clients.push(c);
      return c;
    };
    await expectLibsqlError(make().execute("SELECT 1"), "UNAUTHORIZED");
    await expectLibsqlError(make("wrong").execute("SELECT 1"), "UNAUTHORIZED");
    await expectLibsqlError(make("s3cret-and-more").execute("SELECT 1"), "UNAUTHORIZED");
    const ok = await make("s3cret").execute("SELECT 1 AS one");
    expect(ok.rows[0]?.one).toBe(1);

    const raw = await pipeline({ baton: null, requests: [{ type: "close" }] }, { url: s.url, token: null });
    expect(raw.status).toBe(401);
    expect(raw.contentType).toBe("application/json");
    expect(raw.body).toEqual({ message: expect.any(String), code: "UNAUTHORIZED" });
    expect((await pipeline({ requests: [{ type: "close" }] }, { url: s.url, token: "wrong" })).status).toBe(401);
    expect((await pipeline({ requests: [{ type: "close" }] }, { url: s.url, token: "s3cret" })).status).toBe(200);
    expect(s.stats.pipelines).toBe(2); // the two accepted ones: refused requests never reach the engine
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    expect((await fetch(`${s.url}/__stats`)).status).toBe(200);
    const reset = await fetch(`${s.url}/__stats/reset`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
    });
    expect(reset.status).toBe(401);
    expect(s.stats.pipelines).toBe(2);
  });

  it("answers 415 to a POST that is not JSON, as a web page's simple cross-site POST is, token or not", async () => {
    const create = { requests: [{ type: "execute", stmt: { sql: "CREATE TABLE posted_from_a_page (x)" } }] };
    const attempts: { type?: string; token?: string }[] = [
      { type: "text/plain;charset=UTF-8" },
      { type: "application/x-www-form-urlencoded" },
      { type: "multipart/form-data; boundary=x" },
      {},
      { type: "text/plain", token: TOKEN },
    ];
    for (const { type, token } of attempts) {
      const headers: Record<string, string> = {};
      if (type) headers["Content-Type"] = type;
      if (token) headers.Authorization = `Bearer ${token}`;
      // What <form enctype="text/plain"> or fetch(..., {mode: "no-cors"}) from any site can send.
      const res = await fetch(`${server.url}/v2/pipeline`, { method: "POST", headers, body: JSON.stringify(create) });
      expect(res.status, `Content-Type ${type}`).toBe(415);
      expect(await res.json()).toEqual({ message: expect.any(String), code: "UNSUPPORTED_MEDIA_TYPE" });
    }
    const reset = await fetch(`${server.url}/__stats/reset`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(reset.status).toBe(415);
    const check = await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "SELECT count(*) FROM sqlite_master WHERE name = 'posted_from_a_page'" } },
      ],
    });
    expect(check.body.results[0].response.result.rows[0][0]).toEqual({ type: "integer", value: "0" });
    // JSON with a charset parameter is still JSON.
    const charset = await fetch(`${server.url}/v2/pipeline`, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8", Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ requests: [{ type: "close" }] }),
    });
    expect(charset.status).toBe(200);
  });

  it("gives a browser's CORS preflight nothing to go on", async () => {
    const res = await fetch(`${server.url}/v2/pipeline`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.status).toBe(404);
  });
});

describe("raw Hrana pipelines", () => {
  it("answers the health and version endpoints", async () => {
    for (const p of ["health", "v2", "v3"]) expect((await fetch(`${server.url}/${p}`)).status).toBe(200);
    // no protobuf: a client probing v3-protobuf must fall back to JSON
    expect((await fetch(`${server.url}/v3-protobuf`)).status).toBe(404);
  });

  it("encodes values and results as the spec says, on v2 and v3", async () => {
    for (const version of ["v2", "v3"] as const) {
      const { status, body } = await pipeline(
        {
          baton: null,
          requests: [
            {
              type: "execute",
              stmt: {
                sql: "SELECT ? AS i, ? AS f, ? AS t, ? AS b, ? AS n, :named AS named",
                args: [
                  int("9223372036854775807"),
                  { type: "float", value: 0.5 },
                  text("ü"),
                  { type: "blob", base64: "AQI" }, // unpadded
                  { type: "null" },
                ],
                named_args: [{ name: ":named", value: int(-3) }],
              },
            },
            { type: "execute", stmt: { sql: "SELECT 1 AS x", want_rows: false } },
            { type: "close" },
          ],
        },
        { version },
      );
      expect(status).toBe(200);
      expect(body.baton).toBeNull();
      expect(body.base_url).toBeNull();
      const [first, second, close] = body.results;
      expect(first.type).toBe("ok");
      expect(first.response.type).toBe("execute");
      expect(first.response.result).toMatchObject({
        cols: [
          { name: "i", decltype: null },
          { name: "f", decltype: null },
          { name: "t", decltype: null },
          { name: "b", decltype: null },
          { name: "n", decltype: null },
          { name: "named", decltype: null },
        ],
        rows: [
          [
            int("9223372036854775807"),
            { type: "float", value: 0.5 },
            text("ü"),
            { type: "blob", base64: "AQI=" },
            { type: "null" },
            int(-3),
          ],
        ],
        affected_row_count: 0,
        last_insert_rowid: expect.any(String),
        rows_read: expect.any(Number),
        rows_written: 0,
        query_duration_ms: expect.any(Number),
      });
      expect(second.response.result.cols).toEqual([{ name: "x", decltype: null }]);
      expect(second.response.result.rows).toEqual([]);
      expect(close).toEqual({ type: "ok", response: { type: "close" } });
    }
  });

  it("reports affected rows and the last rowid of writes", async () => {
    const { body } = await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "CREATE TABLE rowids (id INTEGER PRIMARY KEY, v TEXT)" } },
        { type: "execute", stmt: { sql: "INSERT INTO rowids VALUES (41, 'a'), (42, 'b')" } },
        { type: "execute", stmt: { sql: "UPDATE rowids SET v = 'c' RETURNING id" } },
        { type: "execute", stmt: { sql: "SELECT * FROM rowids" } },
        { type: "close" },
      ],
    });
    const r = body.results.map((x: { response: { result: unknown } }) => x.response.result);
    expect(r[1]).toMatchObject({ affected_row_count: 2, last_insert_rowid: "42", rows_written: 2 });
    expect(r[2]).toMatchObject({ affected_row_count: 2, rows: [[int(41)], [int(42)]] });
    expect(r[3]).toMatchObject({ affected_row_count: 0, rows_read: 2 });
  });

  it("keeps going after a failed request and reports argument errors", async () => {
    const { body } = await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "SELECT * FROM nowhere" } },
        { type: "execute", stmt: { sql: "SELECT ?", args: [int(1), int(2)] } },
        { type: "execute", stmt: { sql: "SELECT ?, ?", args: [int(1)] } },
        { type: "execute", stmt: { sql: "SELECT :a", named_args: [{ name: "b", value: int(1) }] } },
        { type: "execute", stmt: { sql: "" } },
        { type: "execute", stmt: { sql_id: 99 } },
        { type: "bogus" },
        { type: "execute", stmt: { sql: "SELECT 'still here' AS s" } },
        { type: "close" },
      ],
    });
    const codes = body.results.map((r: { error?: { code: string } }) => r.error?.code);
    expect(codes).toEqual([
      "SQLITE_ERROR",
      "ARGS_INVALID",
      "ARGS_INVALID",
      "ARGS_INVALID",
      "SQL_NO_STATEMENT",
      "SQL_NOT_FOUND",
      "PROTO_ERROR",
      undefined,
      undefined,
    ]);
    expect(body.results[0].error.message).toMatch(/no such table: nowhere/);
    expect(body.results[7].response.result.rows).toEqual([[text("still here")]]);
  });

  it("describes statements", async () => {
    await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "CREATE TABLE descr (id INTEGER PRIMARY KEY, name TEXT)" } },
        { type: "close" },
      ],
    });
    const { body } = await pipeline({
      requests: [
        { type: "describe", sql: "SELECT id, name AS n, 1 + 1 FROM descr WHERE id = :id OR name = ?3" },
        { type: "describe", sql: "INSERT INTO descr (name) VALUES (@name)" },
        { type: "describe", sql: "EXPLAIN SELECT * FROM descr" },
        { type: "close" },
      ],
    });
    const [select, insert, explain] = body.results.map((r: { response: { result: unknown } }) => r.response.result);
    expect(select).toEqual({
      params: [{ name: ":id" }, { name: null }, { name: "?3" }],
      cols: [
        { name: "id", decltype: "INTEGER" },
        { name: "n", decltype: "TEXT" },
        { name: "1 + 1", decltype: null },
      ],
      is_explain: false,
      is_readonly: true,
    });
    expect(insert).toEqual({ params: [{ name: "@name" }], cols: [], is_explain: false, is_readonly: false });
    expect(explain).toMatchObject({ params: [], is_explain: true, is_readonly: true });
  });

  it("tracks autocommit state", async () => {
    const { body } = await pipeline({
      requests: [
        { type: "get_autocommit" },
        { type: "execute", stmt: { sql: "BEGIN" } },
        { type: "get_autocommit" },
        { type: "execute", stmt: { sql: "ROLLBACK" } },
        { type: "get_autocommit" },
        { type: "close" },
      ],
    });
    const states = body.results.map((r: { response: { is_autocommit?: boolean } }) => r.response.is_autocommit);
    expect(states).toEqual([true, undefined, false, undefined, true, undefined]);
  });

  it("evaluates batch conditions and uses stored SQL", async () => {
    const ins = (x: number, condition?: unknown) => ({ condition, stmt: { sql_id: 1, args: [int(x)] } });
    const ok = (step: number) => ({ type: "ok", step });
    const error = (step: number) => ({ type: "error", step });
    const { body } = await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "CREATE TABLE cond (x INTEGER)" } },
        { type: "store_sql", sql_id: 1, sql: "INSERT INTO cond VALUES (?)" },
        {
          type: "batch",
          batch: {
            steps: [
              /* 0 */ { stmt: { sql: "BEGIN" } },
              /* 1 */ ins(1, { type: "not", cond: { type: "is_autocommit" } }), // runs: in a transaction
              /* 2 */ ins(2, { type: "is_autocommit" }), // skipped
              /* 3 */ { stmt: { sql: "INSERT INTO nowhere VALUES (1)" } }, // fails
              /* 4 */ ins(4, error(3)), // runs
              /* 5 */ ins(5, { type: "and", conds: [ok(1), error(3)] }), // runs
              /* 6 */ ins(6, { type: "and", conds: [ok(1), ok(3)] }), // skipped
              /* 7 */ ins(7, { type: "or", conds: [ok(2), ok(3)] }), // skipped: 2 skipped, 3 failed
              /* 8 */ ins(8, { type: "or", conds: [ok(2), error(2), ok(4)] }), // runs
              /* 9 */ ins(9, { type: "not", cond: error(2) }), // runs: a skipped step is not an error
              /* 10 */ { stmt: { sql: "COMMIT" } },
              /* 11 */ {
                condition: { type: "is_autocommit" },
                stmt: { sql: "SELECT group_concat(x) FROM (SELECT x FROM cond ORDER BY x)" },
              },
            ],
          },
        },
        { type: "close_sql", sql_id: 1 },
        { type: "execute", stmt: { sql_id: 1, args: [int(10)] } },
        { type: "close" },
      ],
    });
    expect(body.baton).toBeNull();
    const batch = body.results[2].response.result;
    const ran = batch.step_results.map((r: unknown) => r !== null);
    expect(ran).toEqual([true, true, false, false, true, true, false, false, true, true, true, true]);
    expect(batch.step_errors.map((e: { code: string } | null) => e?.code ?? null)).toEqual([
      null,
      null,
      null,
      "SQLITE_ERROR",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(batch.step_results[11].rows).toEqual([[text("1,4,5,8,9")]]);
    expect(body.results[4].error.code).toBe("SQL_NOT_FOUND"); // closed by close_sql
  });

  it("rejects a condition on a step that does not run before it, before running anything", async () => {
    const { body } = await pipeline({
      requests: [
        { type: "execute", stmt: { sql: "CREATE TABLE badstep (x INTEGER)" } },
        {
          type: "batch",
          batch: {
            steps: [
              { stmt: { sql: "INSERT INTO badstep VALUES (1)" } },
              { condition: { type: "ok", step: 1 }, stmt: { sql: "INSERT INTO badstep VALUES (2)" } },
            ],
          },
        },
        { type: "execute", stmt: { sql: "SELECT count(*) FROM badstep" } },
        { type: "close" },
      ],
    });
    expect(body.results[1].error.code).toBe("BATCH_COND_BAD_STEP");
    expect(body.results[2].response.result.rows).toEqual([[int(0)]]);
  });

  it("keeps a stream per baton, with single-use batons and per-stream stored SQL", async () => {
    const first = await pipeline({
      baton: null,
      requests: [
        { type: "store_sql", sql_id: 7, sql: "SELECT 'seven' AS s" },
        { type: "execute", stmt: { sql: "BEGIN" } },
      ],
    });
    const baton1 = first.body.baton;
    expect(typeof baton1).toBe("string");

    // another stream does not see stream 1's stored SQL
    const other = await pipeline({ requests: [{ type: "execute", stmt: { sql_id: 7 } }, { type: "close" }] });
    expect(other.body.results[0].error.code).toBe("SQL_NOT_FOUND");

    const second = await pipeline({
      baton: baton1,
      requests: [{ type: "execute", stmt: { sql_id: 7 } }, { type: "get_autocommit" }],
    });
    expect(second.status).toBe(200);
    expect(second.body.results[0].response.result.rows).toEqual([[text("seven")]]);
    expect(second.body.results[1].response.is_autocommit).toBe(false); // same connection, still in BEGIN
    const baton2 = second.body.baton;
    expect(typeof baton2).toBe("string");
    expect(baton2).not.toBe(baton1);

    const reused = await pipeline({ baton: baton1, requests: [{ type: "get_autocommit" }] });
    expect(reused.status).toBe(400);
    expect(reused.contentType).toBe("application/json");
    expect(reused.body.code).toBe("STREAM_EXPIRED");

    const last = await pipeline({ baton: baton2, requests: [{ type: "close" }, { type: "get_autocommit" }] });
    expect(last.body.baton).toBeNull();
    expect(last.body.results[1].error.code).toBe("STREAM_CLOSED");
    expect((await pipeline({ baton: baton2, requests: [] })).status).toBe(400);
  });

  it("counts pipelines and requests, and resets the counters", async () => {
    await fetch(`${server.url}/__stats/reset`, { method: "POST", headers: JSON_WITH_TOKEN });
    expect(server.stats).toEqual({ pipelines: 0, requests: 0 });
    await pipeline({ requests: [{ type: "close" }] });
    await pipeline({ requests: [{ type: "get_autocommit" }, { type: "close" }] });
    await pipeline({
      requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }, { type: "get_autocommit" }, { type: "close" }],
    });
    const stats = await (await fetch(`${server.url}/__stats`)).json();
    expect(stats).toEqual({ pipelines: 3, requests: 6 });
    expect(server.stats).toEqual({ pipelines: 3, requests: 6 });

    server.resetStats();
    expect(server.stats).toEqual({ pipelines: 0, requests: 0 });
    await pipeline({ requests: [{ type: "close" }] });
    await fetch(`${server.url}/__stats/reset`, { method: "POST", headers: JSON_WITH_TOKEN });
    expect(await (await fetch(`${server.url}/__stats`)).json()).toEqual({ pipelines: 0, requests: 0 });
  });

  it("keeps no statements unless asked to", async () => {
    await pipeline({ requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }, { type: "close" }] });
    expect(server.statements()).toEqual([]);
  });

  it("captures each statement with its bound args and round trip when started with captureStatements", async () => {
    const s = await startExtra({ name: "capture", captureStatements: true });
    const c = createWebClient({ url: s.url, authToken: TOKEN, intMode: "bigint" });
    clients.push(c);
    await c.execute("CREATE TABLE captured (id INTEGER PRIMARY KEY, name TEXT)");
    s.resetStatements();
    await c.batch(
      [
        { sql: "INSERT INTO captured (name) VALUES (?)", args: ["gauze"] },
        { sql: "INSERT INTO captured (name) VALUES (:name)", args: { name: "syringe" } },
      ],
      "write",
    );
    await c.execute({ sql: "SELECT name FROM captured WHERE id > ?2 AND name <> ?1", args: ["x", 0n] });
    const statements = s.statements();
    const ours = statements.filter((st) => st.sql.includes("captured"));
    expect(ours.map(({ pipeline, sql, args }) => ({ pipeline, sql, args }))).toEqual([
      { pipeline: 1, sql: "INSERT INTO captured (name) VALUES (?)", args: ["gauze"] },
      { pipeline: 1, sql: "INSERT INTO captured (name) VALUES (:name)", args: ["syringe"] },
      { pipeline: 2, sql: "SELECT name FROM captured WHERE id > ?2 AND name <> ?1", args: ["x", 0n] },
    ]);
    // The batch's BEGIN and COMMIT ran in the first round trip too.
    expect(statements.filter((st) => st.pipeline === 1).map((st) => st.sql)).toEqual([
      "BEGIN IMMEDIATE",
      "INSERT INTO captured (name) VALUES (?)",
      "INSERT INTO captured (name) VALUES (:name)",
      "COMMIT",
    ]);
    expect(ours.every((st) => st.durationMs >= 0)).toBe(true);
    s.resetStatements();
    expect(s.statements()).toEqual([]);
    await c.execute("SELECT 1");
    expect(s.statements().map(({ pipeline, sql }) => ({ pipeline, sql }))).toEqual([{ pipeline: 1, sql: "SELECT 1" }]);
  });
});

describe("parameters found in the SQL text", () => {
  it("follows SQLite's numbering and skips literals, identifiers and comments", async () => {
    expect(parameters("SELECT ? , ?3, :a, @b, $c, :a")).toEqual({
      names: [null, null, "?3", ":a", "@b", "$c"],
      used: [true, false, true, true, true, true],
    });
    expect(parameters(`SELECT '?', "x?", [y?], \`z?\` -- ?\n /* :no */ FROM t WHERE a = ?`)).toEqual({
      names: [null],
      used: [true],
    });
  });

  it("binds a parameter SQLite folds away (WHERE 0 AND ?) instead of refusing the statement", async () => {
    const client = createNodeClient({ url: server.url, authToken: TOKEN });
    const result = await client.execute({ sql: "SELECT 1 AS one WHERE 0 AND ?", args: [1] });
    expect(result.rows).toHaveLength(0);
    client.close();
  });
});
