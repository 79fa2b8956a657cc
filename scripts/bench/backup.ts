// npm run bench -- --backup [--data-dir .data-large] [--phases snapshot,rehearsal,restore] [--out <file>]
// — the backups on a data set (the large one by default) through the real jobs worker in workerd
// and its local R2: the snapshot, its restore rehearsal and a restore of it, each driven by firing
// the work cron until done, as production's every-minute cron would. Per phase: wall time, runs,
// and the jobs worker's peak memory (workerd's VmHWM from /proc; its resident size before the
// first run for comparison). It CHANGES the data set (backup rows, a restore of the same data):
// run it on a copy.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "libsql";
import { v7 as uuidv7 } from "uuid";
import { backupKey } from "../../app/backups/keys";
import { CRONS } from "../../app/jobs/scheduled.server";
import { startProduct } from "../lib/product";
import { buildUnlessAsked } from "./measure";

type Phase = "snapshot" | "rehearsal" | "restore";

interface PhaseFigures {
  phase: Phase;
  seconds: number;
  runs: number;
  /** Longest single run of the work cron, seconds. */
  longestRunSeconds: number;
  peakMemoryMiB: number;
  outcome: string;
}

export async function runBackupBench(argv: string[]): Promise<void> {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const dataDir = path.resolve(value("--data-dir") ?? ".data-large");
  const phases = (value("--phases") ?? "snapshot,rehearsal,restore").split(",") as Phase[];
  buildUnlessAsked(argv);
  const dbPath = path.join(dataDir, "clinic.db");
  const product = await startProduct({
    port: Number(process.env.BENCH_PORT ?? 8795),
    dataDir,
    prepareDatabase: false,
    quiet: !argv.includes("--verbose"),
  });
  const sqlite = new Database(dbPath);
  sqlite.exec("PRAGMA busy_timeout = 60000");
  const one = <T>(sql: string, ...args: unknown[]) => sqlite.prepare(sql).get(...args) as T;
  try {
    const workerd = jobsWorkerd(Number(new URL(product.jobsUrl).port));
    const baseline = memoryOf(workerd);
    console.log(`jobs worker: workerd pid ${workerd}, resident ${baseline.rssMiB} MiB before the first run`);
    const organization = one<{ id: string }>("SELECT id FROM organizations ORDER BY id LIMIT 1").id;
    const counts = one<{ n: number }>(
      "SELECT (SELECT count(*) FROM activity_log) + (SELECT count(*) FROM stock_movements) + (SELECT count(*) FROM usage_entries) + (SELECT count(*) FROM items) AS n",
    );
    console.log(`data set ${dbPath}: ${counts.n} rows in its four largest tables`);

    let backupId = uuidv7();
    const figures: PhaseFigures[] = [];
    // node:http, not fetch: a first run that freezes a large database outlasts fetch's 5-minute header timeout.
    const fire = () =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const request = http.get(
          `${product.jobsUrl}/__scheduled?cron=${encodeURIComponent(CRONS.work)}`,
          (response) => {
            let text = "";
            response.on("data", (chunk: Buffer) => {
              text += chunk.toString();
            });
            response.on("end", () => {
              if (response.statusCode !== 200)
                console.log(`  the run answered ${response.statusCode}: ${text.slice(0, 300)}`);
              resolve((performance.now() - started) / 1000);
            });
          },
        );
        request.on("error", reject);
      });
    const maxSeconds = Number(value("--max-minutes") ?? 120) * 60;
    const drive = async (phase: Phase, done: () => string | null, progress: () => string = () => "") => {
      const started = performance.now();
      let runs = 0;
      let longest = 0;
      let outcome = done();
      while (!outcome) {
        longest = Math.max(longest, await fire());
        outcome = done();
        if (!outcome && (performance.now() - started) / 1000 > maxSeconds)
          outcome = `stopped after ${Math.round((performance.now() - started) / 1000)} s: ${progress()}`;
        runs += 1;
        if (runs % 10 === 0)
          console.log(`  ${phase}: ${runs} runs, ${Math.round((performance.now() - started) / 1000)} s`);
      }
      const seconds = (performance.now() - started) / 1000;
      const result = {
        phase,
        seconds: Math.round(seconds),
        runs,
        longestRunSeconds: Math.round(longest),
        peakMemoryMiB: memoryOf(workerd).hwmMiB,
        outcome,
      };
      console.log(
        `${phase}: ${result.seconds} s in ${runs} runs (longest run ${result.longestRunSeconds} s), workerd peak ${result.peakMemoryMiB} MiB — ${outcome}`,
      );
      figures.push(result);
    };

    if (phases.includes("snapshot")) {
      // A snapshot a stopped bench left half written is resumed (from its cursor), not queued anew.
      const unfinished = one<{ id: string } | undefined>(
        "SELECT id FROM backups WHERE status IN ('queued', 'writing') ORDER BY requested_at LIMIT 1",
      );
      if (unfinished) {
        backupId = unfinished.id;
        console.log(`resuming snapshot ${backupId}`);
      } else
        sqlite
          .prepare(
            `INSERT INTO backups (id, organization_id, origin, requested_at, status, r2_key, rows_done)
             VALUES (?, ?, 'user', ?, 'queued', ?, 0)`,
          )
          .run(backupId, organization, Date.now(), backupKey(backupId));
      await drive(
        "snapshot",
        () => {
          const b = one<{ status: string; size_bytes: number; rows_done: number }>(
            "SELECT * FROM backups WHERE id = ?",
            backupId,
          );
          return b.status === "ready" || b.status === "failed"
            ? `${b.status}, ${b.rows_done} rows, ${(b.size_bytes / 2 ** 20).toFixed(1)} MiB gzip`
            : null;
        },
        () => {
          const b = one<{ rows_done: number; rows_total: number }>("SELECT * FROM backups WHERE id = ?", backupId);
          return `${b.rows_done} of ${b.rows_total} rows written`;
        },
      );
    }
    const target = one<{ id: string } | undefined>(
      "SELECT id FROM backups WHERE status = 'ready' ORDER BY requested_at DESC LIMIT 1",
    )?.id;
    if (!target) console.log("No ready snapshot: no rehearsal, no restore.");
    if (target && phases.includes("rehearsal"))
      await drive("rehearsal", () => {
        const b = one<{ rehearsal_status: string; rehearsal: string }>("SELECT * FROM backups WHERE id = ?", target);
        return b.rehearsal_status === "passed" || b.rehearsal_status === "failed"
          ? `${b.rehearsal_status}: ${JSON.parse(b.rehearsal).message}`
          : null;
      });
    if (target && phases.includes("restore")) {
      const restoreId = uuidv7();
      sqlite
        .prepare(
          `INSERT INTO backup_restores (id, organization_id, backup_id, requested_at, status, rows_done)
           VALUES (?, ?, ?, ?, 'queued', 0)`,
        )
        .run(restoreId, organization, target, Date.now());
      await drive("restore", () => {
        const r = one<{ status: string; message: string | null }>(
          "SELECT * FROM backup_restores WHERE id = ?",
          restoreId,
        );
        return ["done", "refused", "failed"].includes(r.status) ? `${r.status}: ${r.message}` : null;
      });
    }
    const out = value("--out");
    const report = { date: new Date().toISOString(), dataDir, rows: counts.n, baselineMiB: baseline.rssMiB, figures };
    if (out) writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    sqlite.close();
    await product.stop();
  }
}

/** The workerd process of this bench's jobs worker: an ancestor is `wrangler dev -c wrangler.jobs.toml --port <port>`. */
function jobsWorkerd(port: number): number {
  const cmdline = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      return "";
    }
  };
  const parent = (pid: number) => Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!pid || !cmdline(pid).includes("workerd")) continue;
    for (let up = parent(pid); up > 1; up = parent(up))
      if (cmdline(up).includes(`wrangler.jobs.toml --port ${port} `)) return pid;
  }
  throw new Error("The jobs worker's workerd process was not found.");
}

function memoryOf(pid: number): { rssMiB: number; hwmMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kib("VmRSS") / 1024), hwmMiB: Math.round(kib("VmHWM") / 1024) };
}
