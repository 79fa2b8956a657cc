// npm run bench -- --large: the list and detail pages of issue #12 on the large data set
// (npm run seed:large), each warmed up, then measured: server time p50/p95, database round trips,
// body size, and every statement's query plan, beside the budgets. Writes the figures as JSON.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "libsql";
import { CRONS } from "../../app/jobs/scheduled.server";
import { type RunningProduct, startProduct } from "../lib/product";
import { LARGE_TARGETS, LARGE_USERS } from "../seed/large/index";
import { buildUnlessAsked, gzipBytes, kib, measurePage, percentile, runsOf, signIn } from "./measure";
import {
  type ExplainedStatement,
  explainStatements,
  LARGE_TABLES,
  MEDIUM_TABLES,
  type PlanVerdict,
  worse,
} from "./plans";

/** Issue #12's budgets, measured here and never asserted in a timed test. */
export const BUDGETS = { p95Ms: 50, recallP95Ms: 100, roundTrips: 2, htmlGzBytes: 30 * 1024 };
const WARMUPS = 3;
/**
 * A statement whose plan searches through indexes can still read a large share of a table (a
 * search that sorts all it found): past this many SQLite steps for one run it is listed, not failed.
 */
const HEAVY_VM_STEPS = 100_000;

type Who = keyof typeof LARGE_USERS;

interface LargePage {
  name: string;
  /** `{name}` stands for a target read from the data set (see targetsOf). */
  path: string;
  as: Who;
  p95BudgetMs?: number;
}

const PAGES: LargePage[] = [
  { name: "inventory", path: "/inventory", as: "staff" },
  { name: "inventory by lot", path: "/inventory?lot={lot500}", as: "staff" },
  { name: "inventory expiring 30d", path: "/inventory?expiringWithinDays=30", as: "staff" },
  { name: "inventory organization", path: "/inventory", as: "owner" },
  { name: "stock levels", path: "/stock-levels", as: "staff" },
  { name: "stock levels organization", path: "/stock-levels", as: "owner" },
  { name: "usage log 30 days", path: "/usage-log?from={from}&to={to}", as: "staff" },
  {
    name: "recall report",
    path: "/recalls/report?variationId={variation}&lot={lot500}",
    as: "staff",
    p95BudgetMs: BUDGETS.recallP95Ms,
  },
  {
    name: "recall report api",
    path: "/api/recalls/{lot500}?variationId={variation}",
    as: "staff",
    p95BudgetMs: BUDGETS.recallP95Ms,
  },
  { name: "scan a label", path: "/scan?code={label}", as: "staff" },
  { name: "barcode api", path: "/api/barcodes/{label}", as: "staff" },
  { name: "products search", path: "/products?q={search}", as: "manager" },
  { name: "vials api", path: "/api/vials", as: "staff" },
  { name: "usage api", path: "/api/usage", as: "staff" },
  { name: "vial page", path: "/inventory/{vial}", as: "staff" },
  { name: "vial api", path: "/api/vials/{vial}", as: "staff" },
  { name: "inventory product search", path: "/inventory?product={search}", as: "staff" },
  { name: "usage log product search", path: "/usage-log?product={search}", as: "owner" },
  { name: "receiving", path: "/receiving", as: "manager" },
  { name: "recalls", path: "/recalls", as: "manager" },
  { name: "users", path: "/users", as: "owner" },
  { name: "backups", path: "/backup-restore", as: "owner" },
  { name: "backups api", path: "/api/backups", as: "owner" },
  { name: "dashboard", path: "/", as: "staff" },
  { name: "dashboard organization", path: "/", as: "owner" },
  { name: "dashboard manager", path: "/", as: "manager" },
  { name: "dashboard stats api", path: "/api/dashboard/stats", as: "staff" },
  { name: "dashboard stats api organization", path: "/api/dashboard/stats?locationId=all", as: "owner" },
  { name: "dashboard par-status api organization", path: "/api/dashboard/par-status?locationId=all", as: "owner" },
  { name: "dashboard recent-activity api", path: "/api/dashboard/recent-activity", as: "manager" },
  {
    name: "dashboard recent-activity api organization",
    path: "/api/dashboard/recent-activity?locationId=all",
    as: "owner",
  },
  { name: "activity log", path: "/activity-log", as: "manager" },
  { name: "activity log organization", path: "/activity-log", as: "owner" },
  { name: "activity log by user", path: "/activity-log?userId={activeUser}", as: "manager" },
  { name: "activity log user search", path: "/activity-log?user={activeUserEmail}", as: "owner" },
  { name: "activity log by action", path: "/activity-log?action=adjust_stock", as: "manager" },
  { name: "activity log by rare action", path: "/activity-log?action=lift_recall", as: "owner" },
  { name: "activity log by entity", path: "/activity-log?entity=receipt", as: "manager" },
  { name: "activity log 30 days", path: "/activity-log?from={from}&to={to}", as: "manager" },
  { name: "activity log user search many", path: "/activity-log?user=large.clinic", as: "owner" },
  // A CSV is a whole download, a page of 500 rows per query: one page (222 rows), then a day at L01 (7 pages).
  { name: "activity log csv one page", path: "/activity-log.csv?action=lift_recall", as: "owner" },
  { name: "activity log csv one day", path: "/activity-log.csv?from={yesterday}&to={yesterday}", as: "manager" },
  // Issue 22: transfers (the list carries the balancing suggestions on 15,000 variations at 10
  // locations) and counts. The transfer is L01's largest in transit; the audit the largest submitted.
  { name: "transfers", path: "/transfers", as: "staff" },
  { name: "transfers organization", path: "/transfers", as: "owner" },
  { name: "transfers in transit", path: "/transfers?status=in_transit", as: "staff" },
  { name: "transfer page", path: "/transfers/{transfer}", as: "staff" },
  { name: "transfers api", path: "/api/transfers", as: "staff" },
  { name: "transfers api in transit", path: "/api/transfers?status=in_transit", as: "owner" },
  { name: "count page", path: "/audit", as: "staff" },
  { name: "audit reviews", path: "/admin/audits", as: "owner" },
  { name: "audit review page", path: "/admin/audits/{audit}", as: "owner" },
  { name: "audit sessions api", path: "/api/audit-sessions", as: "owner" },
  { name: "audit session api (the largest count, whole)", path: "/api/audit-sessions/{audit}", as: "owner" },
  // Issue 23: purchase orders (h1's screens and API; the reorder view's entries come with it). The
  // order is L01's partially received one with the most lines; the draft is L01's largest draft.
  { name: "purchase orders", path: "/purchase-orders", as: "manager" },
  { name: "purchase orders organization", path: "/purchase-orders", as: "owner" },
  { name: "purchase orders closed", path: "/purchase-orders?status=closed", as: "manager" },
  { name: "purchase order page", path: "/purchase-orders/{order}", as: "manager" },
  { name: "purchase order add items", path: "/purchase-orders/{draftOrder}/add-items", as: "owner" },
  { name: "purchase orders api", path: "/api/purchase-orders?locationId={orderLocation}", as: "manager" },
  { name: "purchase orders api organization", path: "/api/purchase-orders?status=closed", as: "owner" },
  { name: "purchase order api", path: "/api/purchase-orders/{order}", as: "manager" },
  // Issue 23: the reorder suggestions of the manager's location (L01: its ~250 par levels).
  { name: "reorder suggestions api", path: "/api/reorder-suggestions", as: "manager" },
  // Issue 23: par levels, and suggested from 90 days of use (a page of 50 rows, each a seek of the ledger).
  { name: "par levels", path: "/products/par-levels", as: "manager" },
  { name: "par levels suggested from usage", path: "/products/par-levels?suggest=90", as: "manager" },
  // Issue 24: the reconciliation over the large set's 500,000 sales lines and its ledger (the
  // manager at L01; the owner in organization mode), the API, and one variation's drill-down (the
  // recipe variation most sold at L01).
  { name: "reconciliation 30 days", path: "/reconciliation", as: "manager" },
  { name: "reconciliation 365 days", path: "/reconciliation?from={yearFrom}&to={to}", as: "manager" },
  { name: "reconciliation organization 30 days", path: "/reconciliation", as: "owner" },
  { name: "reconciliation organization 365 days", path: "/reconciliation?from={yearFrom}&to={to}", as: "owner" },
  { name: "reconciliation api 30 days", path: "/api/reconciliation", as: "manager" },
  { name: "reconciliation api 365 days", path: "/api/reconciliation?from={yearFrom}&to={to}", as: "manager" },
  {
    name: "reconciliation detail 365 days",
    path: "/reconciliation/{reconVariation}?from={yearFrom}&to={to}",
    as: "manager",
  },
  // Issue 24: the sales import page (the imports list, and the unknown items of 500,000 lines to map)
  // and the imports API, as the manager at L01 (reads) and the owner in organization mode.
  { name: "sales import", path: "/sales-import", as: "manager" },
  { name: "sales import organization", path: "/sales-import", as: "owner" },
  { name: "imports api", path: "/api/imports", as: "owner" },
];

export interface PageFigures {
  name: string;
  path: string;
  as: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
  p95BudgetMs: number;
  /** Median time the engine spent on the page's statements (the rest is workerd, rendering, HTTP). */
  databaseP50Ms?: number;
  roundTrips: number;
  bodyGzBytes: number;
  html: boolean;
  /** The worst plan of the page's statements. */
  plan: PlanVerdict;
  /** SQLite's virtual machine steps of one request's reads, summed. */
  vmSteps: number;
  fullScanSteps: number;
  statements: ExplainedStatement[];
}

export interface BenchReport {
  kind: "clinic-bench-large";
  date: string;
  commit: string;
  cores: number;
  node: string;
  dataDir: string;
  /** Rows of the large and medium tables. */
  rows: Record<string, number>;
  measure: string;
  budgets: typeof BUDGETS;
  pages: PageFigures[];
}

interface LargeOptions {
  dataDir: string;
  runs: number;
  out: string;
  compare?: string;
  /** Measure only the pages whose name contains this (e.g. --only "activity log"). */
  only?: string;
}

export function largeOptionsOf(argv: string[]): LargeOptions {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const runs = runsOf(argv, 30);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return {
    dataDir: path.resolve(value("--data-dir") ?? ".data-large"),
    runs,
    out: path.resolve(value("--out") ?? path.join(".bench", `large-${stamp}.json`)),
    compare: value("--compare"),
    only: value("--only"),
  };
}

export async function runLargeBench(argv: string[]): Promise<void> {
  const options = largeOptionsOf(argv);
  const dbPath = path.join(options.dataDir, "clinic.db");
  if (!existsSync(dbPath)) {
    throw new Error(`No large data set at ${dbPath}: write it with npm run seed:large (or pass --data-dir).`);
  }
  checkMigrated(dbPath);
  const targets = targetsOf(dbPath);
  const rows = rowCounts(dbPath);
  buildUnlessAsked(argv);
  // On the data set as it is: no migration, no seed. The three sign-ins write what a sign-in writes
  // (a session, the last sign-in time, its activity row); no page measured writes anything.
  const product = await startProduct({
    port: Number(process.env.BENCH_PORT ?? 8795),
    dataDir: options.dataDir,
    quiet: true,
    captureStatements: true,
    prepareDatabase: false,
  });
  const pages: PageFigures[] = [];
  try {
    const cookies = await signInAll(product);
    // As production's work cron does every minute: the organization's dashboard figures are worked
    // out (app/dashboard/organization-figures.server.ts). Fired between pages, never during one, so
    // its statements are not counted as a page's.
    let workedAt = 0;
    const workCron = async () => {
      if (Date.now() - workedAt < 60_000) return;
      const fired = await fetch(`${product.jobsUrl}/__scheduled?cron=${encodeURIComponent(CRONS.work)}`);
      await fired.text();
      workedAt = Date.now();
    };
    for (const page of PAGES.filter((p) => !options.only || p.name.includes(options.only))) {
      await workCron();
      const pagePath = page.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = targets[name];
        if (value === undefined) throw new Error(`bench: no target {${name}}`);
        return encodeURIComponent(value);
      });
      const measured = await measurePage(product, pagePath, {
        cookie: cookies[page.as],
        warmups: WARMUPS,
        runs: options.runs,
      });
      const statements = explainStatements(dbPath, measured.statements);
      pages.push({
        name: page.name,
        path: pagePath,
        as: LARGE_USERS[page.as].email,
        runs: options.runs,
        p50Ms: round(percentile(measured.times, 50)),
        p95Ms: round(percentile(measured.times, 95)),
        p95BudgetMs: page.p95BudgetMs ?? BUDGETS.p95Ms,
        databaseP50Ms: round(percentile(measured.databaseTimes, 50)),
        roundTrips: Math.max(...measured.roundTrips),
        bodyGzBytes: gzipBytes(measured.body),
        html: measured.contentType.startsWith("text/html"),
        plan: statements.reduce<PlanVerdict>((worst, s) => worse(worst, s.verdict), "ok"),
        vmSteps: statements.reduce((sum, s) => sum + (s.vmSteps ?? 0) * s.runs, 0),
        fullScanSteps: statements.reduce((sum, s) => sum + (s.fullScanSteps ?? 0) * s.runs, 0),
        statements,
      });
    }
  } finally {
    await product.stop();
  }

  const report: BenchReport = {
    kind: "clinic-bench-large",
    date: new Date().toISOString(),
    commit: gitCommit(),
    cores: os.cpus().length,
    node: process.version,
    dataDir: options.dataDir,
    rows,
    measure:
      "server time: wall time of each local request (workerd and the local libSQL server on this machine), sent to last body byte",
    budgets: BUDGETS,
    pages,
  };
  printReport(report, options.runs);
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, jsonValue, 2)}\n`);
  console.log(`\nFigures written to ${path.relative(process.cwd(), options.out)}`);
  if (options.compare) {
    const before = JSON.parse(readFileSync(options.compare, "utf8")) as BenchReport;
    printComparison(before, report);
  }
}

export function printReport(report: BenchReport, runs: number): void {
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  console.log(
    `\nLarge data set (${Object.entries(report.rows)
      .map(([t, n]) => `${t} ${n.toLocaleString("en-US")}`)
      .join(", ")})`,
  );
  console.log(
    `${WARMUPS} warm-up + ${runs} measured requests per page; ${report.measure}; ${report.cores} cores, commit ${report.commit}\n`,
  );
  console.table(
    report.pages.map((p) => ({
      page: p.name,
      as: p.as.split("@")[0],
      "p50 ms": p.p50Ms.toFixed(1),
      "p95 ms": `${p.p95Ms.toFixed(1)} ${mark(p.p95Ms <= p.p95BudgetMs)} ≤${p.p95BudgetMs}`,
      "db ms p50": p.databaseP50Ms?.toFixed(1) ?? "",
      "round trips": `${p.roundTrips} ${mark(p.roundTrips <= report.budgets.roundTrips)}`,
      "body gz": `${kib(p.bodyGzBytes)} ${p.html ? mark(p.bodyGzBytes <= report.budgets.htmlGzBytes) : "(json)"}`,
      plan: `${p.plan === "ok" ? "✓" : p.plan === "full scan" ? "✗" : "!"} ${p.plan}`,
      "vm steps": p.vmSteps,
      "scan steps": p.fullScanSteps,
    })),
  );
  // A statement several pages run is listed once, with its pages.
  const flagged = new Map<string, { s: ExplainedStatement; pages: string[] }>();
  for (const page of report.pages) {
    for (const s of page.statements) {
      if (s.verdict === "ok" && !s.error && (s.vmSteps ?? 0) < HEAVY_VM_STEPS) continue;
      const seen = flagged.get(s.sql);
      if (seen) seen.pages.push(page.name);
      else flagged.set(s.sql, { s, pages: [page.name] });
    }
  }
  if (flagged.size === 0) {
    console.log("\nNo flagged plan: every large table is searched through an index.");
    return;
  }
  console.log(
    `\nFlagged statements (${flagged.size}): ✗ a full scan of a large table fails; ! is reported ` +
      `(an ordered walk, a medium table's scan, or ${HEAVY_VM_STEPS.toLocaleString("en-US")}+ vm steps through indexes)\n`,
  );
  for (const { s, pages } of flagged.values()) {
    const what = s.error
      ? `could not explain: ${s.error}`
      : [
          ...s.findings.map((f) => `${f.verdict}: ${f.detail}`),
          ...((s.vmSteps ?? 0) >= HEAVY_VM_STEPS ? [`heavy: ${s.vmSteps?.toLocaleString("en-US")} vm steps`] : []),
        ].join("; ");
    console.log(`${s.verdict === "full scan" ? "✗" : "!"} ${pages.join(", ")}: ${what}`);
    console.log(`    ${s.sql.replace(/\s+/g, " ")}`);
    console.log(`    args ${JSON.stringify(s.args, jsonValue)}`);
  }
}

export function printComparison(before: BenchReport, after: BenchReport): void {
  const old = new Map(before.pages.map((p) => [p.name, p]));
  const change = (a: number, b: number) => `${a.toFixed(1)} → ${b.toFixed(1)} (${signed(((b - a) / a) * 100)}%)`;
  console.log(`\nChange from ${before.date} (commit ${before.commit}) to now (commit ${after.commit})\n`);
  console.table(
    after.pages.map((p) => {
      const o = old.get(p.name);
      if (!o) return { page: p.name, "p50 ms": "new page" };
      return {
        page: p.name,
        "p50 ms": change(o.p50Ms, p.p50Ms),
        "p95 ms": change(o.p95Ms, p.p95Ms),
        "round trips": o.roundTrips === p.roundTrips ? String(p.roundTrips) : `${o.roundTrips} → ${p.roundTrips}`,
        "body gz":
          kib(o.bodyGzBytes) === kib(p.bodyGzBytes)
            ? kib(p.bodyGzBytes)
            : `${kib(o.bodyGzBytes)} → ${kib(p.bodyGzBytes)}`,
        plan: o.plan === p.plan ? p.plan : `${o.plan} → ${p.plan}`,
        "vm steps": o.vmSteps === p.vmSteps ? String(p.vmSteps) : `${o.vmSteps} → ${p.vmSteps}`,
      };
    }),
  );
}

/** Each large user's session cookie; the owner works in organization mode, as a chain's owner does. */
async function signInAll(product: RunningProduct): Promise<Record<Who, string>> {
  const cookies = {} as Record<Who, string>;
  for (const who of Object.keys(LARGE_USERS) as Who[]) cookies[who] = await signIn(product, LARGE_USERS[who].email);
  const response = await fetch(`${product.url}/location`, {
    method: "POST",
    headers: { Cookie: cookies.owner, Origin: product.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: "organization=1",
    redirect: "manual",
  });
  const location = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c?.startsWith("location="));
  if (!location) throw new Error(`bench: ${LARGE_USERS.owner.email} could not switch to organization mode`);
  cookies.owner = `${cookies.owner}; ${location}`;
  return cookies;
}

/** What the paths name, read from the file: LARGE_TARGETS gives the names, the rows give the ids. */
function targetsOf(dbPath: string): Record<string, string> {
  return withFile(dbPath, (db) => {
    const one = (sql: string, args: unknown[], what: string) => {
      const row = db.prepare(sql).raw(true).get(args) as unknown[] | undefined;
      if (!row) throw new Error(`bench: the large data set has no ${what}; write it again with npm run seed:large`);
      return row.map(String);
    };
    const [variation = ""] = one(
      `SELECT v.id FROM product_variations v JOIN products p ON p.id = v.product_id
       WHERE p.name = ? AND v.name = ?`,
      [LARGE_TARGETS.product, LARGE_TARGETS.variation],
      `variation ${LARGE_TARGETS.product} ${LARGE_TARGETS.variation}`,
    );
    const [vial = "", label = ""] = one(
      "SELECT id, label_code FROM items WHERE lot = ? AND state = 'in_use' LIMIT 1",
      [LARGE_TARGETS.inUseLot],
      `vial in use of lot ${LARGE_TARGETS.inUseLot}`,
    );
    // Who did the newest thing at the manager's location: a busy user, for the activity log's user filters.
    const [activeUser = "", activeUserEmail = ""] = one(
      `SELECT u.id, u.email FROM activity_log a INDEXED BY activity_log_location_at_idx JOIN users u ON u.id = a.user_id
       WHERE a.location_id = (SELECT location_id FROM user_location_roles r JOIN users m ON m.id = r.user_id
         WHERE m.email = ? LIMIT 1) ORDER BY a.at DESC LIMIT 1`,
      [LARGE_USERS.manager.email],
      "activity at the manager's location",
    );
    // Issue 22: L01's transfer in transit with the most lines, and the submitted count with the most.
    const [transfer = ""] = one(
      `SELECT t.id FROM transfers t JOIN locations l ON l.id IN (t.from_location_id, t.to_location_id)
       WHERE l.code = ? AND t.status = 'in_transit'
       ORDER BY (SELECT count(*) FROM transfer_lines tl WHERE tl.transfer_id = t.id) DESC, t.id LIMIT 1`,
      [LARGE_TARGETS.inUseLocation],
      `transfer in transit at ${LARGE_TARGETS.inUseLocation}`,
    );
    const [audit = ""] = one(
      `SELECT a.id FROM audit_sessions a WHERE a.status = 'submitted'
       ORDER BY (SELECT count(*) FROM audit_lines al WHERE al.session_id = a.id) DESC, a.id LIMIT 1`,
      [],
      "submitted count",
    );
    // Issue 23: L01's partially received order with the most lines (its receipts make "What arrived"), and its largest draft.
    const [order = "", orderLocation = ""] = one(
      `SELECT po.id, po.location_id FROM purchase_orders po JOIN locations l ON l.id = po.location_id
       WHERE l.code = ? AND po.status = 'partially_received'
       ORDER BY (SELECT count(*) FROM purchase_order_lines pl WHERE pl.order_id = po.id) DESC, po.id LIMIT 1`,
      [LARGE_TARGETS.inUseLocation],
      `partially received purchase order at ${LARGE_TARGETS.inUseLocation}`,
    );
    const [draftOrder = ""] = one(
      `SELECT po.id FROM purchase_orders po JOIN locations l ON l.id = po.location_id
       WHERE l.code = ? AND po.status = 'draft'
       ORDER BY (SELECT count(*) FROM purchase_order_lines pl WHERE pl.order_id = po.id) DESC, po.id LIMIT 1`,
      [LARGE_TARGETS.inUseLocation],
      `draft purchase order at ${LARGE_TARGETS.inUseLocation}`,
    );
    // Issue 24: the recipe variation whose services sold most at L01 (the drill-down's target).
    const [reconVariation = ""] = one(
      `SELECT r.variation_id FROM sales_lines sl JOIN locations l ON l.id = sl.location_id
       JOIN sale_items si ON si.id = sl.sale_item_id AND si.kind = 'service' JOIN recipe_lines r ON r.service_id = si.service_id
       WHERE l.code = ? GROUP BY r.variation_id ORDER BY count(*) DESC, r.variation_id LIMIT 1`,
      [LARGE_TARGETS.inUseLocation],
      `sales of a service with a recipe at ${LARGE_TARGETS.inUseLocation} (npm run seed:large -- --sales-only)`,
    );
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    return {
      variation,
      vial,
      label,
      lot500: LARGE_TARGETS.lotWith500Uses,
      search: LARGE_TARGETS.productSearch,
      activeUser,
      activeUserEmail,
      transfer,
      audit,
      order,
      orderLocation,
      draftOrder,
      yesterday: day(-1),
      from: day(-29),
      to: day(0),
      yearFrom: day(-364),
      reconVariation,
    };
  });
}

/** The bench never migrates the data set: one made before the newest migration would measure old indexes. */
function checkMigrated(dbPath: string): void {
  const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] };
  const applied = withFile(dbPath, (db) => {
    try {
      return Number((db.prepare("SELECT count(*) FROM __drizzle_migrations").raw(true).get() as unknown[])[0]);
    } catch {
      return 0;
    }
  });
  if (applied < journal.entries.length) {
    throw new Error(
      `${dbPath} has ${applied} of the ${journal.entries.length} migrations. Apply the rest (they only add to it): ` +
        `DATABASE_URL=file:${path.relative(process.cwd(), dbPath)} npm run db:migrate, or write it again with npm run seed:large.`,
    );
  }
}

function rowCounts(dbPath: string): Record<string, number> {
  return withFile(dbPath, (db) =>
    Object.fromEntries(
      [...LARGE_TABLES, ...MEDIUM_TABLES].map((table) => [
        table,
        Number((db.prepare(`SELECT count(*) FROM "${table}"`).raw(true).get() as unknown[])[0]),
      ]),
    ),
  );
}

/** The file opened read-only (libsql ignores its readonly option; the URI's mode=ro does not). */
function withFile<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const db = new Database(`file:${dbPath}?mode=ro`);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function gitCommit(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return "unknown";
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function signed(n: number): string {
  return `${n >= 0 ? "+" : ""}${n.toFixed(0)}`;
}

/** Args as JSON: integers beyond 2^53 stay exact as text, blobs as base64. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value && typeof value === "object" && (value as { type?: string }).type === "Buffer") {
    return { base64: Buffer.from((value as { data: number[] }).data).toString("base64") };
  }
  return value;
}
