// Query plans of the statements a page ran: EXPLAIN QUERY PLAN with the same args, read on the
// database file by the native engine, then classified. Which tables are large is decided once for
// the whole issue (shared-12.md): a large table is never walked whole, a medium one may be (reported).
import Database from "libsql";
import type { CapturedStatement } from "../../db/local-server/server.mjs";

export const LARGE_TABLES = [
  "items",
  "stock_movements",
  "usage_entries",
  "activity_log",
  "stock_levels",
  "sessions",
  "receipt_lines",
] as const;
export const MEDIUM_TABLES = ["products", "product_variations"] as const;

/** One row of EXPLAIN QUERY PLAN: its id, the id of the row it hangs under, and what it does. */
export interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

/**
 * ok: every large table is searched through an index; ordered walk: a large table is walked in an
 * index's order that serves the ORDER BY, and the LIMIT stops it early; medium scan: a medium table
 * is read whole (reported, not failed); full scan: a large table is read whole (a failure).
 */
export type PlanVerdict = "ok" | "ordered walk" | "medium scan" | "full scan";

export interface PlanFinding {
  table: string;
  verdict: Exclude<PlanVerdict, "ok">;
  detail: string;
}

const RANK: Record<PlanVerdict, number> = { ok: 0, "ordered walk": 1, "medium scan": 2, "full scan": 3 };

/** Classifies a statement's plan; `sql` names the tables behind the aliases the plan shows. */
export function classifyPlan(sql: string, rows: PlanRow[]): { verdict: PlanVerdict; findings: PlanFinding[] } {
  const tables = aliases(sql);
  const limited = /\blimit\b/i.test(withoutLiterals(sql));
  const findings: PlanFinding[] = [];
  for (const row of rows) {
    // "SCAN t", "SCAN t USING [COVERING] INDEX i", "SEARCH t USING AUTOMATIC [COVERING] INDEX (…)"
    const match = /^(SCAN|SEARCH) (\S+)(?: USING (AUTOMATIC )?(?:COVERING )?INDEX)?/.exec(row.detail);
    if (!match) continue;
    const [, kind, name = "", automatic] = match;
    const table = tables.get(name.toLowerCase()) ?? name.toLowerCase();
    const large = (LARGE_TABLES as readonly string[]).includes(table);
    const medium = (MEDIUM_TABLES as readonly string[]).includes(table);
    if (!large && !medium) continue;
    // An automatic index is built by reading the whole table first.
    const whole = kind === "SCAN" || Boolean(automatic);
    if (!whole) continue;
    if (medium) {
      findings.push({ table, verdict: "medium scan", detail: row.detail });
    } else if (!automatic && /USING (?:COVERING )?INDEX/.test(row.detail) && limited && stopsEarly(row, rows)) {
      findings.push({ table, verdict: "ordered walk", detail: row.detail });
    } else {
      findings.push({ table, verdict: "full scan", detail: row.detail });
    }
  }
  return { verdict: findings.reduce<PlanVerdict>((worst, f) => worse(worst, f.verdict), "ok"), findings };
}

/** The worse of two verdicts, to sum up a page by its worst statement. */
export function worse(a: PlanVerdict, b: PlanVerdict): PlanVerdict {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * A walk in index order ends at the LIMIT only when it is the outer loop of its SELECT and no
 * temporary b-tree sorts the rows afterwards (then every row would be read before the first is out).
 */
function stopsEarly(scan: PlanRow, rows: PlanRow[]): boolean {
  const siblings = rows.filter((r) => r.parent === scan.parent);
  const firstLoop = siblings.find((r) => /^(SCAN|SEARCH) /.test(r.detail));
  const sorted = siblings.some((r) => /^USE TEMP B-TREE FOR .*ORDER BY/.test(r.detail));
  return firstLoop === scan && !sorted;
}

/** Alias (or bare name) → table, from `FROM t [AS] a` and `JOIN t [AS] a`, quotes removed. */
function aliases(sql: string): Map<string, string> {
  const map = new Map<string, string>();
  const notAlias =
    /^(where|on|using|join|inner|left|right|full|cross|natural|outer|order|group|limit|having|union|except|intersect|window|as|set|values|returning)$/i;
  const ident = `(?:"([^"]+)"|\`([^\`]+)\`|\\[([^\\]]+)\\]|([A-Za-z_][A-Za-z0-9_]*))`;
  const pattern = new RegExp(`\\b(?:from|join)\\s+${ident}(?:\\s+(?:as\\s+)?${ident})?`, "gi");
  for (const m of withoutLiterals(sql).matchAll(pattern)) {
    const table = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").toLowerCase();
    const alias = (m[5] ?? m[6] ?? m[7] ?? m[8] ?? "").toLowerCase();
    map.set(table, table);
    if (alias && !notAlias.test(alias)) map.set(alias, table);
  }
  return map;
}

function withoutLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, "''");
}

export interface ExplainedStatement {
  sql: string;
  args: unknown[];
  /** How many times the page ran it in one request. */
  runs: number;
  plan: PlanRow[];
  verdict: PlanVerdict;
  findings: PlanFinding[];
  /**
   * SQLite's own counters for one run of a read, from the engine's sqlite_stmt table: virtual
   * machine steps and rows stepped in full scans. libSQL's rows-read counter is not exposed.
   */
  vmSteps?: number;
  fullScanSteps?: number;
  error?: string;
}

/** Statements that only open or close a transaction have no plan. */
const NO_PLAN = /^\s*(begin|commit|end|rollback|savepoint|release|pragma)\b/i;

/**
 * Explains each distinct statement (by SQL text, with the args of its first run) on the file,
 * opened read-only: libsql ignores its `readonly` option, so the URI's mode=ro, and query_only on top.
 * Reads are also run once, to read their step counters.
 */
export function explainStatements(dbPath: string, statements: CapturedStatement[]): ExplainedStatement[] {
  const distinct = new Map<string, { args: unknown[]; runs: number }>();
  for (const s of statements) {
    if (NO_PLAN.test(s.sql)) continue;
    const seen = distinct.get(s.sql);
    if (seen) seen.runs++;
    else distinct.set(s.sql, { args: s.args, runs: 1 });
  }
  const db = new Database(`file:${dbPath}?mode=ro`);
  try {
    db.exec("PRAGMA query_only = ON");
    db.defaultSafeIntegers(true);
    const counters = db.prepare("SELECT nstep, nscan FROM sqlite_stmt WHERE sql = ?").raw(true);
    // Kept referenced so none is finalized while its counters are read.
    const kept: unknown[] = [];
    return [...distinct].map(([sql, { args, runs }]) => {
      try {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).raw(true).all(args) as unknown[][]).map(
          ([id, parent, , detail]) => ({ id: Number(id), parent: Number(parent), detail: String(detail) }),
        );
        const explained: ExplainedStatement = { sql, args, runs, plan, ...classifyPlan(sql, plan) };
        if (/^\s*(select|with)\b/i.test(sql)) {
          try {
            const statement = db.prepare(sql);
            kept.push(statement);
            const sum = (): [number, number] =>
              (counters.all([sql]) as [bigint, bigint][]).reduce<[number, number]>(
                ([steps, scans], [nstep, nscan]) => [steps + Number(nstep), scans + Number(nscan)],
                [0, 0],
              );
            const [steps0, scans0] = sum();
            statement.raw(true).all(args);
            const [steps1, scans1] = sum();
            explained.vmSteps = steps1 - steps0;
            explained.fullScanSteps = scans1 - scans0;
          } catch {
            // A write behind a WITH: query_only refuses it, and its plan is all we need.
          }
        }
        return explained;
      } catch (error) {
        return { sql, args, runs, plan: [], verdict: "ok", findings: [], error: String(error) };
      }
    });
  } finally {
    db.close();
  }
}
