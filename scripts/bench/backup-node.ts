// npm run bench -- --backup --in-node [--data-dir .data-large] [--phases …] [--max-minutes N] [--out <file>]
// — the same three phases with the engine in this Node process (the database server and R2 in
// processes of their own), so the memory measured is the engine's alone: V8's heap (the part
// Workers' 128 MB limit is about) and this process's resident size, sampled every 20 ms. Each run
// is a real work-cron run (40 s or 800 requests). Used where wrangler dev cannot run the jobs
// worker for long: its outbound connections stay open after each request (CLOSE-WAIT) until
// workerd runs out of file descriptors, some 20,000 requests in (see the closing note of issue 21).
import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "libsql";
import { Miniflare } from "miniflare";
import { v7 as uuidv7 } from "uuid";
import { backupKey } from "../../app/backups/keys";
import { advanceBackupWork } from "../../app/backups/work.server";
import { createDatabase } from "../../app/db/client.server";
import { startLibsqlProcess } from "./libsql-process";

type Phase = "snapshot" | "rehearsal" | "restore";

export async function runBackupBenchInNode(argv: string[]): Promise<void> {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const dataDir = path.resolve(value("--data-dir") ?? ".data-large");
  const phases = (value("--phases") ?? "snapshot,rehearsal,restore").split(",") as Phase[];
  const maxSeconds = Number(value("--max-minutes") ?? 120) * 60;
  const dbPath = path.join(dataDir, "clinic.db");
  const token = randomBytes(16).toString("hex");
  const port = Number(process.env.BENCH_PORT ?? 8795) + 2;
  const server = await startLibsqlProcess(dbPath, port, token);
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    r2Buckets: ["FILES"],
    // The same local bucket as `npm start` and the workerd bench on this data folder, so a snapshot
    // either left half written resumes here.
    r2Persist: path.join(dataDir, "wrangler", "v3", "r2"),
  });
  const files = (await mf.getR2Bucket("FILES")) as unknown as R2Bucket;
  const db = createDatabase({ DATABASE_URL: `http://127.0.0.1:${port}`, DATABASE_AUTH_TOKEN: token });
  const sqlite = new Database(dbPath);
  sqlite.exec("PRAGMA busy_timeout = 60000");
  const one = <T>(sql: string, ...args: unknown[]) => sqlite.prepare(sql).get(...args) as T;
  let peakHeap = 0;
  let peakRss = 0;
  let peakLive = 0;
  // With node --expose-gc (NODE_OPTIONS=--expose-gc): the live heap, collected every 250 ms, i.e.
  // what the engine holds rather than the garbage V8 has not yet collected.
  const gc = (globalThis as { gc?: () => void }).gc;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 20);
  const liveSampler = gc
    ? setInterval(() => {
        gc();
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      }, 250)
    : undefined;
  const mib = (n: number) => Math.round(n / 2 ** 20);
  const figures: unknown[] = [];
  try {
    const organization = one<{ id: string }>("SELECT id FROM organizations ORDER BY id LIMIT 1").id;
    gc?.();
    const before = process.memoryUsage();
    console.log(`engine process before: heap ${mib(before.heapUsed)} MiB, resident ${mib(before.rss)} MiB`);
    const drive = async (phase: Phase, done: () => string | null, progress: () => string) => {
      peakHeap = 0;
      peakRss = 0;
      peakLive = 0;
      const started = performance.now();
      let runs = 0;
      let longest = 0;
      let outcome = done();
      while (!outcome) {
        const run = performance.now();
        try {
          await advanceBackupWork(db, files, new Date(), { report: (e) => console.log(`  reported: ${e}`) });
        } catch (error) {
          // As the cron would: the job records the failure and the next run retries (three strikes).
          console.log(`  run failed: ${String(error).slice(0, 200)}`);
        }
        longest = Math.max(longest, (performance.now() - run) / 1000);
        runs += 1;
        outcome = done();
        const seconds = (performance.now() - started) / 1000;
        if (!outcome && seconds > maxSeconds) outcome = `stopped after ${Math.round(seconds)} s: ${progress()}`;
        if (runs % 5 === 0) console.log(`  ${phase}: ${runs} runs, ${Math.round(seconds)} s, ${progress()}`);
      }
      const result = {
        phase,
        seconds: Math.round((performance.now() - started) / 1000),
        runs,
        longestRunSeconds: Math.round(longest),
        peakHeapMiB: mib(peakHeap),
        ...(gc ? { peakLiveHeapMiB: mib(peakLive) } : {}),
        peakResidentMiB: mib(peakRss),
        outcome,
      };
      console.log(JSON.stringify(result));
      figures.push(result);
    };
    let backupId = uuidv7();
    if (phases.includes("snapshot")) {
      const unfinished = one<{ id: string } | undefined>(
        "SELECT id FROM backups WHERE status IN ('queued', 'writing') ORDER BY requested_at LIMIT 1",
      );
      if (unfinished) backupId = unfinished.id;
      else
        sqlite
          .prepare(
            `INSERT INTO backups (id, organization_id, origin, requested_at, status, r2_key, rows_done)
             VALUES (?, ?, 'user', ?, 'queued', ?, 0)`,
          )
          .run(backupId, organization, Date.now(), backupKey(backupId));
      const b = () =>
        one<{ status: string; size_bytes: number; rows_done: number; rows_total: number }>(
          "SELECT * FROM backups WHERE id = ?",
          backupId,
        );
      await drive(
        "snapshot",
        () =>
          b().status === "ready" || b().status === "failed"
            ? `${b().status}, ${b().rows_done} rows, ${(b().size_bytes / 2 ** 20).toFixed(1)} MiB gzip`
            : null,
        () => `${b().rows_done} of ${b().rows_total} rows written`,
      );
    }
    const target = one<{ id: string } | undefined>(
      "SELECT id FROM backups WHERE status = 'ready' ORDER BY requested_at DESC LIMIT 1",
    )?.id;
    if (target && phases.includes("rehearsal")) {
      const b = () =>
        one<{ rehearsal_status: string; rehearsal: string; rows_done: number }>(
          "SELECT * FROM backups WHERE id = ?",
          target,
        );
      const state = () => one<{ cursor: string | null }>("SELECT cursor FROM backups WHERE id = ?", target).cursor;
      await drive(
        "rehearsal",
        () =>
          b().rehearsal_status === "passed" || b().rehearsal_status === "failed"
            ? `${b().rehearsal_status}: ${JSON.parse(b().rehearsal).message}`
            : null,
        () => {
          const c = JSON.parse(state() ?? "{}") as { phase?: string; rowsDone?: number; table?: number };
          return `${c.phase ?? "starting"}, ${c.rowsDone ?? 0} rows loaded, table ${c.table ?? 0}`;
        },
      );
    }
    if (target && phases.includes("restore")) {
      const restoreId = uuidv7();
      sqlite
        .prepare(
          `INSERT INTO backup_restores (id, organization_id, backup_id, requested_at, status, rows_done)
           VALUES (?, ?, ?, ?, 'queued', 0)`,
        )
        .run(restoreId, organization, target, Date.now());
      const r = () =>
        one<{ status: string; message: string | null; rows_done: number }>(
          "SELECT * FROM backup_restores WHERE id = ?",
          restoreId,
        );
      await drive(
        "restore",
        () => (["done", "refused", "failed"].includes(r().status) ? `${r().status}: ${r().message}` : null),
        () => `${r().status}, ${r().rows_done} rows staged`,
      );
    }
    console.log(JSON.stringify({ date: new Date().toISOString(), dataDir, figures }, null, 2));
  } finally {
    clearInterval(sampler);
    if (liveSampler) clearInterval(liveSampler);
    sqlite.close();
    await mf.dispose();
    server.kill("SIGTERM");
  }
}
