// @ts-check
/**
 * Local libSQL server for development and tests: Hrana over HTTP (JSON encoding, `/v2` and `/v3`
 * pipeline endpoints) on top of the real libSQL engine from the `libsql` npm package.
 * Production talks to Turso / sqld; this server only has to behave like them for our client
 * (`@libsql/client`, `@libsql/client/web`). See README.md for what it does not do.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "libsql";

/** @typedef {import("libsql").Database} Db */
/** @typedef {null | bigint | number | string | Buffer} SqlValue */
/** @typedef {{ type: string, value?: unknown, base64?: unknown }} ProtoValue */
/** @typedef {{ message: string, code: string }} ProtoError */
/**
 * @typedef {{ sql?: string | null, sql_id?: number | null, args?: ProtoValue[],
 *   named_args?: { name: string, value: ProtoValue }[], want_rows?: boolean }} ProtoStmt
 */
/**
 * @typedef {{ type: "ok" | "error", step: number } | { type: "not", cond: ProtoCond }
 *   | { type: "and" | "or", conds: ProtoCond[] } | { type: "is_autocommit" }} ProtoCond
 */
/** @typedef {{ steps: { condition?: ProtoCond | null, stmt: ProtoStmt }[] }} ProtoBatch */
/** @typedef {{ db: Db, meta: import("libsql").Statement }} Connection */
/**
 * One statement the server ran, kept when it was started with `captureStatements` (the bench reads
 * them to explain each page's queries). `pipeline` numbers the HTTP round trips since the last reset.
 * @typedef {{ pipeline: number, sql: string, args: SqlValue[], durationMs: number }} CapturedStatement
 */
/** @typedef {((entry: Omit<CapturedStatement, "pipeline">) => void) | null} Recorder */
/**
 * @typedef {Connection & { dbPath: string, sqls: Map<number, string>, closed: boolean, tainted: boolean,
 *   baton: string | null, timer: NodeJS.Timeout | undefined, record: Recorder }} Stream
 */
/** @typedef {{ names: (string | null)[], used: boolean[], readonly: boolean }} SqlInfo */

/** How long one statement keeps retrying while another stream holds the write lock. */
const BUSY_RETRY_LIMIT_MS = 5_000;
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;
/** SQL text made only of blanks, comments and semicolons. */
const NO_STATEMENT = /^(?:\s|;|--[^\n]*|\/\*[\s\S]*?\*\/)*$/;
/** EXPLAIN or EXPLAIN QUERY PLAN at the start of a statement, after any comments. */
const EXPLAIN_PREFIX = /^(?:\s|--[^\n]*|\/\*[\s\S]*?\*\/)*explain(?:\s+query\s+plan)?\b/i;

/** A protocol-level error with a Hrana error code (SQLite errors carry their own `.code`). */
class HranaError extends Error {
  /** @param {string} message @param {string} code */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------------
// Values

/** @param {ProtoValue} v @returns {SqlValue} */
function decodeValue(v) {
  switch (v?.type) {
    case "null":
      return null;
    case "integer": {
      const text = String(v.value);
      if (!/^-?\d+$/.test(text)) throw new HranaError(`Invalid integer: ${text}`, "VALUE_INVALID");
      const n = BigInt(text);
      if (n < MIN_I64 || n > MAX_I64) throw new HranaError(`Integer out of range: ${text}`, "VALUE_INVALID");
      return n;
    }
    case "float":
      if (typeof v.value !== "number") throw new HranaError("Invalid float", "VALUE_INVALID");
      return v.value;
    case "text":
      if (typeof v.value !== "string") throw new HranaError("Invalid text", "VALUE_INVALID");
      return v.value;
    case "blob":
      if (typeof v.base64 !== "string") throw new HranaError("Invalid blob", "VALUE_INVALID");
      return Buffer.from(v.base64, "base64"); // accepts input with or without padding
    default:
      throw new HranaError(`Unknown value type: ${v?.type}`, "VALUE_INVALID");
  }
}

/** Connections run with safe integers, so INTEGER arrives as bigint and REAL as number. */
/** @param {unknown} v @returns {ProtoValue} */
function encodeValue(v) {
  if (v === null || v === undefined) return { type: "null" };
  if (typeof v === "bigint") return { type: "integer", value: v.toString() };
  if (typeof v === "number") return { type: "float", value: v };
  if (typeof v === "string") return { type: "text", value: v };
  if (v instanceof Uint8Array) {
    return { type: "blob", base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  }
  throw new HranaError(`Cannot encode value of type ${typeof v}`, "INTERNAL_ERROR");
}

/** @param {unknown} e @returns {ProtoError} */
function errorBody(e) {
  const err = /** @type {{ message?: unknown, code?: unknown }} */ (e ?? {});
  const message = typeof err.message === "string" ? err.message : String(e);
  return { message, code: typeof err.code === "string" ? err.code : "INTERNAL_ERROR" };
}

// ---------------------------------------------------------------------------------------------
// Statements

/** Parameter names never depend on the connection, so one cache serves every stream. */
/** @type {Map<string, SqlInfo>} */
const sqlInfoCache = new Map();

/**
 * Parameter names/positions and write intent of a statement. The `libsql` package exposes neither
 * (no sqlite3_bind_parameter_name, no sqlite3_stmt_readonly). Parameters are read from the SQL text
 * with SQLite's numbering rules (the compiled program would miss those SQLite folds away, e.g. in
 * `0 AND ?`); write intent from the compiled program: a `Transaction` op with p2 != 0.
 * @param {Db} db @param {string} sql @returns {SqlInfo}
 */
function sqlInfo(db, sql) {
  const cached = sqlInfoCache.get(sql);
  if (cached) return cached;
  const explain = `EXPLAIN ${sql.replace(EXPLAIN_PREFIX, "")}`;
  const program = readAll(db.prepare(explain), explain, []);
  /** @type {SqlInfo} */
  const info = { ...parameters(sql), readonly: true };
  for (const [, opcode, , p2] of program) {
    if ((opcode === "Transaction" && Number(p2) !== 0) || opcode === "VUpdate") info.readonly = false;
  }
  if (sqlInfoCache.size >= 1_000) sqlInfoCache.clear();
  sqlInfoCache.set(sql, info);
  return info;
}

/**
 * The statement's parameters in SQLite's numbering: `?` takes the next number, `?NNN` number NNN,
 * and `:name`, `@name`, `$name` the next number at their first appearance. String literals, quoted
 * identifiers and comments are skipped. `used[i]` is false for numbers only implied by a `?NNN`.
 * @param {string} sql @returns {{ names: (string | null)[], used: boolean[] }}
 */
export function parameters(sql) {
  /** @type {(string | null)[]} */
  const names = [];
  /** @type {boolean[]} */
  const used = [];
  const token =
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\?(\d*)|([:@$][A-Za-z0-9_]+(?:::[A-Za-z0-9_]+)*)/g;
  for (const match of sql.matchAll(token)) {
    const [whole, number, name] = match;
    if (whole.startsWith("?")) {
      const index = number ? Number(number) - 1 : names.length;
      for (let i = names.length; i < index; i++) {
        names[i] = null;
        used[i] = false;
      }
      // SQLite names a numbered parameter "?NNN" and leaves a bare "?" nameless.
      names[index] = number ? `?${number}` : (names[index] ?? null);
      used[index] = true;
    } else if (name) {
      if (!names.includes(name)) {
        names.push(name);
        used.push(true);
      }
    }
  }
  return { names, used };
}

/**
 * Builds the positional argument list. Named arguments override positional ones (Hrana rule) and
 * may arrive with or without their `:`/`@`/`$` prefix (client 0.18 sends the object keys as given).
 * Unlike the bare engine, which silently binds NULL, missing or extra arguments are errors, as in sqld.
 * @param {Db} db @param {string} sql @param {ProtoStmt} stmt @returns {SqlValue[]}
 */
function bindArgs(db, sql, stmt) {
  const args = (stmt.args ?? []).map(decodeValue);
  const named = stmt.named_args ?? [];
  if (args.length === 0 && named.length === 0 && !/[?:@$]/.test(sql)) return []; // cannot have parameters
  const { names, used } = sqlInfo(db, sql);
  if (args.length > names.length) {
    throw new HranaError(`Statement expects ${names.length} arguments, got ${args.length}`, "ARGS_INVALID");
  }
  /** @type {(SqlValue | undefined)[]} */
  const values = names.map((_, i) => args[i]);
  for (const { name, value } of named) {
    const decoded = decodeValue(value);
    let bound = false;
    names.forEach((param, i) => {
      if (param !== null && (param === name || (/^[:@$]/.test(param) && param.slice(1) === name))) {
        values[i] = decoded;
        bound = true;
      }
    });
    if (!bound) throw new HranaError(`Statement has no parameter named ${name}`, "ARGS_INVALID");
  }
  const missing = values.findIndex((v, i) => v === undefined && used[i]);
  if (missing >= 0) {
    throw new HranaError(`Missing argument for parameter ${names[missing] ?? `?${missing + 1}`}`, "ARGS_INVALID");
  }
  return values.map((v) => (v === undefined ? null : v));
}

/**
 * Runs a statement that returns rows to completion. SQLite keeps an EXPLAIN statement "active"
 * after its last row until it is reset, and an active statement stops the connection's autocommit
 * writes from committing (so they keep the write lock) and makes COMMIT fail. libsql has no
 * reset(), but get() resets the statement when it returns, and EXPLAIN executes nothing.
 * @param {import("libsql").Statement} stmt @param {string} sql @param {SqlValue[]} values
 */
function readAll(stmt, sql, values) {
  const rows = /** @type {unknown[][]} */ (stmt.raw(true).all(values));
  if (EXPLAIN_PREFIX.test(sql)) stmt.get(values);
  return rows;
}

/** @param {Stream} stream @param {{ sql?: string | null, sql_id?: number | null } | undefined} source */
function resolveSql(stream, source) {
  const hasSql = typeof source?.sql === "string";
  const hasId = source?.sql_id !== undefined && source?.sql_id !== null;
  if (!source || hasSql === hasId) throw new HranaError("Exactly one of sql and sql_id is required", "PROTO_ERROR");
  if (hasSql) return /** @type {string} */ (source.sql);
  const sql = stream.sqls.get(/** @type {number} */ (source.sql_id));
  if (sql === undefined) throw new HranaError(`No SQL text stored with id ${source.sql_id}`, "SQL_NOT_FOUND");
  return sql;
}

/** @param {Stream} stream @param {ProtoStmt} stmt */
async function executeStmt(stream, stmt) {
  const sql = resolveSql(stream, stmt);
  if (NO_STATEMENT.test(sql)) throw new HranaError("SQL text has no statement", "SQL_NO_STATEMENT");
  renewIfTainted(stream);
  const { db, meta } = stream;
  const started = performance.now();
  /** @type {import("libsql").Statement | undefined} */
  let prepared;
  /** @type {SqlValue[] | undefined} */
  let values;
  let before;
  // A retry re-runs the same statement object: libsql leaves a statement that failed with BUSY
  // active (SQLite lets it resume) until it runs again, and an active write statement keeps the
  // connection's later autocommit writes from committing, so they would hold the write lock.
  const rows = await withBusyRetry(stream, () => {
    prepared ??= db.prepare(sql);
    values ??= bindArgs(db, sql, stmt);
    before = /** @type {[[bigint, bigint, bigint]]} */ (meta.all())[0][2];
    if (prepared.reader) return readAll(prepared, sql, values);
    prepared.run(values);
    return [];
  });
  const [changes, lastRowid, after] = /** @type {[[bigint, bigint, bigint]]} */ (meta.all())[0];
  stream.record?.({ sql, args: values ?? [], durationMs: performance.now() - started });
  // changes() keeps the count of the last INSERT/UPDATE/DELETE, so only trust it if this one changed rows.
  const affected = after === before ? 0 : Number(changes);
  return {
    cols: /** @type {import("libsql").Statement} */ (prepared)
      .columns()
      .map((c) => ({ name: c.name, decltype: c.type ?? null })),
    rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(encodeValue)),
    affected_row_count: affected,
    last_insert_rowid: String(lastRowid),
    rows_read: rows.length, // the engine hides libSQL's rows-read counter; rows returned is a lower bound
    rows_written: affected,
    query_duration_ms: performance.now() - started,
  };
}

/** Validates a condition up front, so a bad batch fails before any of its steps runs. */
/** @param {ProtoCond} cond @param {number} stepIndex */
function checkCond(cond, stepIndex) {
  switch (cond?.type) {
    case "ok":
    case "error":
      if (!Number.isInteger(cond.step) || cond.step < 0 || cond.step >= stepIndex) {
        throw new HranaError(
          `Step ${stepIndex} has a condition on step ${cond.step}, which does not run before it`,
          "BATCH_COND_BAD_STEP",
        );
      }
      return;
    case "not":
      return checkCond(cond.cond, stepIndex);
    case "and":
    case "or":
      if (!Array.isArray(cond.conds)) throw new HranaError("Condition needs conds", "PROTO_ERROR");
      for (const c of cond.conds) checkCond(c, stepIndex);
      return;
    case "is_autocommit":
      return;
    default:
      throw new HranaError(`Unknown condition type: ${/** @type {any} */ (cond)?.type}`, "PROTO_ERROR");
  }
}

/**
 * @param {ProtoCond} cond @param {(boolean | undefined)[]} outcomes true = ok, false = error,
 *   undefined = skipped @param {Db} db @returns {boolean}
 */
function evalCond(cond, outcomes, db) {
  switch (cond.type) {
    case "ok":
      return outcomes[cond.step] === true;
    case "error":
      return outcomes[cond.step] === false;
    case "not":
      return !evalCond(cond.cond, outcomes, db);
    case "and":
      return cond.conds.every((c) => evalCond(c, outcomes, db));
    case "or":
      return cond.conds.some((c) => evalCond(c, outcomes, db));
    case "is_autocommit":
      return !db.inTransaction;
  }
}

/** @param {Stream} stream @param {ProtoBatch} batch */
async function executeBatch(stream, batch) {
  const steps = batch?.steps;
  if (!Array.isArray(steps)) throw new HranaError("Batch needs steps", "PROTO_ERROR");
  for (const [i, step] of steps.entries()) if (step.condition) checkCond(step.condition, i);
  /** @type {(boolean | undefined)[]} */
  const outcomes = [];
  /** @type {(Awaited<ReturnType<typeof executeStmt>> | null)[]} */
  const stepResults = [];
  /** @type {(ProtoError | null)[]} */
  const stepErrors = [];
  for (const step of steps) {
    let outcome;
    let result = null;
    let error = null;
    if (!step.condition || evalCond(step.condition, outcomes, stream.db)) {
      try {
        result = await executeStmt(stream, step.stmt);
        outcome = true;
      } catch (e) {
        error = errorBody(e);
        outcome = false;
      }
    }
    outcomes.push(outcome);
    stepResults.push(result);
    stepErrors.push(error);
  }
  return { step_results: stepResults, step_errors: stepErrors };
}

/** @param {Stream} stream @param {{ sql?: string | null, sql_id?: number | null }} req */
async function executeSequence(stream, req) {
  const sql = resolveSql(stream, req);
  renewIfTainted(stream);
  const { db } = stream;
  // exec() cannot resume a script after a failed statement, so retrying on BUSY could re-run
  // statements that already committed. Instead wait until the write lock is free, then run the
  // whole script in the same tick: no other stream of this process can take the lock meanwhile.
  if (!db.inTransaction) {
    await withBusyRetry(stream, () => {
      db.exec("BEGIN IMMEDIATE");
      db.exec("ROLLBACK");
    });
  }
  const started = performance.now();
  db.exec(sql);
  stream.record?.({ sql, args: [], durationMs: performance.now() - started });
}

/** @param {Stream} stream @param {{ sql?: string | null, sql_id?: number | null }} req */
function describeStmt(stream, req) {
  const sql = resolveSql(stream, req);
  const info = sqlInfo(stream.db, sql);
  const isExplain = EXPLAIN_PREFIX.test(sql);
  return {
    params: info.names.map((name) => ({ name })),
    cols: stream.db
      .prepare(sql)
      .columns()
      .map((c) => ({ name: c.name, decltype: c.type ?? null })),
    is_explain: isExplain,
    is_readonly: isExplain || info.readonly,
  };
}

// ---------------------------------------------------------------------------------------------
// Locking

/**
 * The engine is synchronous: a busy_timeout would freeze the event loop, possibly while the lock
 * holder waits for this very process to run its COMMIT. So connections fail fast with BUSY and the
 * work is retried after an asynchronous pause.
 * @template T @param {Stream} stream @param {() => T} run @returns {Promise<T>}
 */
async function withBusyRetry(stream, run) {
  const deadline = Date.now() + BUSY_RETRY_LIMIT_MS;
  for (;;) {
    try {
      return run();
    } catch (e) {
      const code = String(/** @type {{ code?: unknown } | undefined} */ (e)?.code);
      if (!/^SQLITE_(BUSY|LOCKED)/.test(code)) throw e;
      // Waiting cannot help a transaction whose snapshot is stale, nor a tainted connection.
      if (code === "SQLITE_BUSY_SNAPSHOT" || stream.tainted || stream.closed || Date.now() >= deadline) {
        stream.tainted = true; // the failed statement may still be active, see executeStmt
        throw e;
      }
    }
    await sleep(5 + Math.random() * 15);
  }
}

// ---------------------------------------------------------------------------------------------
// Streams and requests

/** @param {string} dbPath @returns {Connection} */
function openConnection(dbPath) {
  const db = new Database(dbPath);
  db.exec("PRAGMA busy_timeout = 0; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
  db.defaultSafeIntegers(true);
  const meta = db.prepare("SELECT changes(), last_insert_rowid(), total_changes()").raw(true);
  return { db, meta };
}

/** @param {Db} db */
function closeConnection(db) {
  // Roll back explicitly: close() leaves the connection (and its write lock) alive while any of its
  // prepared statements is still referenced.
  try {
    if (db.inTransaction) db.exec("ROLLBACK");
  } catch {}
  try {
    db.close();
  } catch {}
}

/**
 * A statement that gave up on BUSY stays active and would stop this connection's writes from
 * committing. Once outside a transaction, swap in a fresh connection; only connection-level state
 * (PRAGMAs, temp tables) is lost, the stream and its stored SQL stay.
 * @param {Stream} stream
 */
function renewIfTainted(stream) {
  if (!stream.tainted || stream.db.inTransaction) return;
  closeConnection(stream.db);
  Object.assign(stream, openConnection(stream.dbPath), { tainted: false });
}

/** @param {string} dbPath @returns {Stream} */
function openStream(dbPath) {
  return {
    ...openConnection(dbPath),
    dbPath,
    sqls: new Map(),
    closed: false,
    tainted: false,
    baton: null,
    timer: undefined,
    record: null,
  };
}

/** @param {Stream} stream */
function closeStream(stream) {
  if (stream.closed) return;
  stream.closed = true;
  clearTimeout(stream.timer);
  closeConnection(stream.db);
}

/** @param {Stream} stream @param {any} req */
async function handleRequest(stream, req) {
  if (stream.closed) throw new HranaError("The stream is closed", "STREAM_CLOSED");
  switch (req?.type) {
    case "execute":
      return { type: "execute", result: await executeStmt(stream, req.stmt) };
    case "batch":
      return { type: "batch", result: await executeBatch(stream, req.batch) };
    case "sequence":
      await executeSequence(stream, req);
      return { type: "sequence" };
    case "describe":
      return { type: "describe", result: await withBusyRetry(stream, () => describeStmt(stream, req)) };
    case "store_sql":
      if (typeof req.sql_id !== "number" || typeof req.sql !== "string") {
        throw new HranaError("store_sql needs sql_id and sql", "PROTO_ERROR");
      }
      if (stream.sqls.has(req.sql_id)) throw new HranaError(`SQL id ${req.sql_id} is in use`, "SQL_ID_IN_USE");
      stream.sqls.set(req.sql_id, req.sql);
      return { type: "store_sql" };
    case "close_sql":
      stream.sqls.delete(req.sql_id);
      return { type: "close_sql" };
    case "get_autocommit":
      return { type: "get_autocommit", is_autocommit: !stream.db.inTransaction };
    case "close":
      closeStream(stream);
      return { type: "close" };
    default:
      throw new HranaError(`Unknown request type: ${req?.type}`, "PROTO_ERROR");
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

/**
 * Every POST needs a JSON body and the bearer token. Any web page the developer opens can send a
 * "simple" cross-site POST (text/plain, form data) to a loopback port without a preflight, so
 * JSON is required first (415 otherwise), and the token (401) keeps out whatever can send JSON.
 * `captureStatements` keeps every statement run (for the bench); off, nothing is kept or measured.
 * @param {{ dbPath: string, port?: number, host?: string, authToken: string, streamIdleMs?: number,
 *   captureStatements?: boolean }} options
 */
export async function startLocalServer({
  dbPath,
  port = 0,
  host = "127.0.0.1",
  authToken,
  streamIdleMs = 10_000,
  captureStatements = false,
}) {
  if (!dbPath || dbPath === ":memory:") throw new Error("dbPath must be a file: every stream opens its own connection");
  if (typeof authToken !== "string" || !authToken) {
    throw new Error("authToken is required: clients must send Authorization: Bearer <token>");
  }
  const expectedAuth = digest(`Bearer ${authToken}`);
  // WAL lets readers run beside the writer; the mode is stored in the file, so set it once.
  const setup = new Database(dbPath);
  setup.exec("PRAGMA journal_mode = WAL");
  setup.close();

  const stats = { pipelines: 0, requests: 0 };
  const resetStats = () => {
    stats.pipelines = 0;
    stats.requests = 0;
  };
  /** @type {CapturedStatement[]} */
  let captured = [];
  let capturedPipelines = 0;
  const resetStatements = () => {
    captured = [];
    capturedPipelines = 0;
  };
  /** Every open stream, including those busy with a pipeline (their baton is spent). */
  /** @type {Set<Stream>} */
  const streams = new Set();
  /** @type {Map<string, Stream>} */
  const batons = new Map();

  /** @param {Stream} stream */
  const endStream = (stream) => {
    if (stream.baton) batons.delete(stream.baton);
    streams.delete(stream);
    closeStream(stream);
  };

  let closing = false;

  /** @param {any} body @returns {Promise<[number, unknown]>} */
  async function pipeline(body) {
    if (closing) return [503, { message: "The server is shutting down", code: "SERVER_CLOSING" }];
    if (!Array.isArray(body?.requests)) return [400, { message: "Body needs a requests array", code: "PROTO_ERROR" }];
    /** @type {Stream | undefined} */
    let stream;
    if (body.baton === undefined || body.baton === null) {
      stream = openStream(dbPath);
      streams.add(stream);
    } else {
      stream = batons.get(body.baton);
      if (!stream) return [400, { message: "Unknown baton, or the stream expired", code: "STREAM_EXPIRED" }];
      // Batons are single use; while this pipeline runs, the stream cannot be reached at all.
      batons.delete(body.baton);
      clearTimeout(stream.timer);
    }
    stats.requests += body.requests.length;
    if (captureStatements) {
      const pipelineNo = ++capturedPipelines;
      stream.record = (entry) => captured.push({ pipeline: pipelineNo, ...entry });
    }
    const results = [];
    for (const req of body.requests) {
      try {
        results.push({ type: "ok", response: await handleRequest(stream, req) });
      } catch (e) {
        results.push({ type: "error", error: errorBody(e) });
      }
    }
    let baton = null;
    if (stream.closed) {
      streams.delete(stream);
    } else {
      const open = stream;
      baton = randomBytes(18).toString("base64url");
      open.baton = baton;
      batons.set(baton, open);
      open.timer = setTimeout(() => endStream(open), streamIdleMs).unref();
    }
    return [200, { baton, base_url: null, results }];
  }

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function route(req, res) {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    const key = `${req.method} ${pathname.replace(/\/+$/, "")}`;
    if (req.method === "POST") {
      const refused = refusal(req);
      if (refused) {
        req.resume();
        return send(res, refused[0], refused[1]);
      }
    }
    switch (key) {
      case "GET /health":
      case "GET /v2":
      case "GET /v3": // version probes; `v3-protobuf` stays 404 so clients fall back to JSON
        res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
        return;
      case "GET /__stats":
        return send(res, 200, stats);
      case "POST /__stats/reset":
        resetStats();
        return send(res, 200, stats);
      case "POST /v2/pipeline":
      case "POST /v3/pipeline": {
        stats.pipelines++;
        let body;
        try {
          const chunks = [];
          for await (const chunk of req) chunks.push(chunk);
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return send(res, 400, { message: "Body is not valid JSON", code: "PROTO_ERROR" });
        }
        const [status, payload] = await pipeline(body);
        return send(res, status, payload);
      }
      default:
        return send(res, 404, { message: `Not found: ${req.method} ${pathname}`, code: "NOT_FOUND" });
    }
  }

  /** @param {http.IncomingMessage} req @returns {[number, ProtoError] | null} */
  function refusal(req) {
    const mediaType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/json") {
      return [415, { message: "Send JSON with Content-Type: application/json", code: "UNSUPPORTED_MEDIA_TYPE" }];
    }
    if (!timingSafeEqual(digest(req.headers.authorization ?? ""), expectedAuth)) {
      return [401, { message: "Missing or wrong bearer token", code: "UNAUTHORIZED" }];
    }
    return null;
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((e) => {
      if (!res.headersSent) send(res, 500, { message: errorBody(e).message, code: "INTERNAL_ERROR" });
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const actualPort = /** @type {import("node:net").AddressInfo} */ (server.address()).port;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`,
    port: actualPort,
    stats,
    resetStats,
    /** The statements run since the last reset, oldest first (empty unless `captureStatements`). */
    statements: () => [...captured],
    resetStatements,
    /** Stops listening, then rolls back and closes every open stream. */
    close() {
      closing = true;
      for (const stream of streams) endStream(stream);
      return new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}

/** A fixed-length digest, so the token comparison takes the same time whatever was sent. */
/** @param {string} text */
function digest(text) {
  return createHash("sha256").update(text).digest();
}

/** The official client only parses error bodies whose content type is exactly application/json. */
/** @param {http.ServerResponse} res @param {number} status @param {unknown} body */
function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
