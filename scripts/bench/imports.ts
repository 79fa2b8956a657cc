// npm run bench -- --imports [--rows 500000] [--chunk-bytes 524288] [--keep]
// — the sales import's throughput through the jobs worker's engine (issue 24 item 7): writes a
// generated Square-format CSV (no real data) to a temp file, puts it into a local R2 (Miniflare's, as
// `npm start` runs it), queues its job on a fresh migrated and demo-seeded database served by the
// local libSQL server, and runs the work cron's import job (advanceImports, its real 20 s budget)
// until the job completes and its retail lines are booked. Prints rows per second end to end, the
// runs, the longest run, and the peak memory of this process (V8 heap used and resident size,
// sampled every 20 ms; the database server and R2 run in processes of their own), over the process at
// rest. With NODE_OPTIONS=--expose-gc the heap is collected before the import starts.
import type { ChildProcess } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import Database from "libsql";
import { Miniflare } from "miniflare";
import Papa from "papaparse";
import { v7 as uuidv7 } from "uuid";
import { createDatabase } from "../../app/db/client.server";
import { CHUNK_BYTES } from "../../app/imports/chunk.server";
import { PRESETS } from "../../app/imports/parse/presets";
import { advanceImports } from "../../app/imports/work.server";
import { SQUARE_HEADERS } from "../../tests/support/sales-files";
import { migrateDatabase, seedDemoIfEmpty } from "../lib/database";
import { startLibsqlProcess } from "./libsql-process";

/** What a clinic sells, as its point of sale names it: services by code, retail by GTIN, and a few unknown items. */
const ITEMS: { item: string; sku: string; gtin: string; cents: number; category: string }[] = [
  { item: "Glabellar lines – toxin", sku: "TOX-GLAB", gtin: "", cents: 28000, category: "Neurotoxin" },
  { item: "Crow's feet – toxin", sku: "TOX-CROW", gtin: "", cents: 33600, category: "Neurotoxin" },
  { item: "Forehead lines – toxin", sku: "TOX-FORE", gtin: "", cents: 24000, category: "Neurotoxin" },
  { item: "Lip augmentation – filler", sku: "FIL-LIP", gtin: "", cents: 75000, category: "Dermal filler" },
  { item: "Nasolabial folds – filler", sku: "FIL-NLF", gtin: "", cents: 70000, category: "Dermal filler" },
  { item: "Consultation", sku: "CONSULT", gtin: "", cents: 0, category: "Consultation" },
  { item: "C E Ferulic 30 mL", sku: "", gtin: "3635047310156", cents: 18200, category: "Retail" },
  { item: "Hydrating B5 Gel 30 mL", sku: "", gtin: "3635047310224", cents: 8800, category: "Retail" },
  { item: "Physical Fusion UV Defense SPF 50", sku: "", gtin: "3635047320506", cents: 4100, category: "Retail" },
  { item: "Hydrafacial deluxe", sku: "", gtin: "", cents: 19900, category: "Facials" },
  { item: "Brow tint", sku: "", gtin: "", cents: 2500, category: "Brows" },
];

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Writes `rows` generated sales rows (a refund every 40th, a gift card every 97th) to `file`. */
async function writeFile(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", r));
  await write(`${Papa.unparse([SQUARE_HEADERS], { newline: "\r\n" })}\r\n`);
  const start = Date.UTC(2026, 0, 1);
  let batch: string[][] = [];
  for (let i = 0; i < rows; i++) {
    const it = ITEMS[(i * 7 + (i >> 3)) % ITEMS.length] as (typeof ITEMS)[number];
    const refund = i % 40 === 39;
    const gift = i % 97 === 96;
    const at = new Date(start + i * 60_000);
    const qty = refund ? -1 : 1 + (i % 5 === 0 ? 1 : 0);
    batch.push([
      at.toISOString().slice(0, 10),
      at.toISOString().slice(11, 19),
      "Eastern Time (US & Canada)",
      it.category,
      gift ? "Gift card" : it.item,
      String(qty),
      "Regular",
      it.sku,
      "",
      money(it.cents * qty),
      "$0.00",
      money(it.cents * qty),
      "$0.00",
      `TX${(refund ? i - 1 : i).toString(36).toUpperCase()}`,
      `PAY${i.toString(36)}`,
      "Front desk",
      "",
      "",
      refund ? "Refund" : "Payment",
      "Downtown",
      "",
      `C${i % 5000}`,
      `Customer ${i % 5000}`,
      "",
      "",
      "",
      gift ? "Gift Card" : "Physical Item",
      "",
      `Provider ${i % 7}`,
      "",
      "POS",
      "",
      "Visa",
      String(1000 + (i % 9000)),
      it.gtin,
    ]);
    if (batch.length === 5000) {
      await write(`${Papa.unparse(batch, { newline: "\r\n" })}\r\n`);
      batch = [];
    }
  }
  if (batch.length) await write(`${Papa.unparse(batch, { newline: "\r\n" })}\r\n`);
  out.end();
  await finished(out);
}

export async function runImportsBench(argv: string[]): Promise<void> {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const rows = Number(value("--rows") ?? 500_000);
  const chunkBytes = Number(value("--chunk-bytes") ?? CHUNK_BYTES);
  const dir = mkdtempSync(path.join(os.tmpdir(), "imports-bench-"));
  const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  let server: ChildProcess | undefined;
  let mf: Miniflare | undefined;
  try {
    const csvFile = path.join(dir, "sales.csv");
    let started = performance.now();
    await writeFile(csvFile, rows);
    const bytes = statSync(csvFile).size;
    console.log(`wrote ${rows} rows, ${mib(bytes)} MiB, in ${Math.round(performance.now() - started)} ms`);

    const dbFile = path.join(dir, "clinic.db");
    await migrateDatabase(`file:${dbFile}`);
    await seedDemoIfEmpty(`file:${dbFile}`);
    const authToken = "bench-imports";
    const port = Number(process.env.BENCH_PORT ?? 8994);
    server = await startLibsqlProcess(dbFile, port, authToken);
    const db = createDatabase({ DATABASE_URL: `http://127.0.0.1:${port}`, DATABASE_AUTH_TOKEN: authToken });
    mf = new Miniflare({
      modules: true,
      script: "export default {}",
      r2Buckets: ["FILES"],
      r2Persist: path.join(dir, "r2"),
    });
    const files = (await mf.getR2Bucket("FILES")) as unknown as R2Bucket;
    const key = `imports/bench/${uuidv7()}.csv`;
    started = performance.now();
    // In parts of 10 MiB, as an upload streams it: the file is never held whole here either.
    const upload = await files.createMultipartUpload(key);
    const parts: R2UploadedPart[] = [];
    let part: Buffer[] = [];
    let partBytes = 0;
    const flush = async () => {
      const joined = Buffer.concat(part);
      // A plain Uint8Array of its own ArrayBuffer: Miniflare's proxy refuses a pooled Buffer.
      const bytes = new Uint8Array(joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.length));
      parts.push(await upload.uploadPart(parts.length + 1, bytes));
      part = [];
      partBytes = 0;
    };
    for await (const piece of createReadStream(csvFile, { highWaterMark: 1 << 20 })) {
      part.push(piece as Buffer);
      partBytes += (piece as Buffer).length;
      if (partBytes >= 10 * 2 ** 20) await flush();
    }
    if (partBytes) await flush();
    await upload.complete(parts);
    console.log(`put into the local R2 in ${Math.round(performance.now() - started)} ms`);

    const sqlite = new Database(dbFile);
    sqlite.exec("PRAGMA busy_timeout = 60000");
    const one = <T>(query: string, ...args: unknown[]) => sqlite.prepare(query).get(...args) as T;
    const organization = one<{ id: string }>("SELECT id FROM organizations ORDER BY id LIMIT 1").id;
    const location = one<{ id: string }>("SELECT id FROM locations WHERE code = 'DTN'").id;
    const admin = one<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.clinic'").id;
    const jobId = uuidv7();
    sqlite
      .prepare(
        `INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name, format, file_hash,
          original_key, rows_key, rows_bytes, headers, mapping, time_zone, rows_total, created_by, created_at, queued_at)
        VALUES (?, ?, 'sales', ?, 'queued', 'square', 'bench.csv', 'csv', 'bench', ?, ?, ?, ?, ?, 'America/New_York', ?, ?, ?, ?)`,
      )
      .run(
        jobId,
        organization,
        location,
        key,
        key,
        bytes,
        JSON.stringify(SQUARE_HEADERS),
        JSON.stringify(PRESETS.square.mapping),
        rows,
        admin,
        Date.now(),
        Date.now(),
      );

    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakHeap = 0;
    let peakRss = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }, 20);
    // With --expose-gc: the live heap, collected every 250 ms (what the engine holds, not the garbage
    // V8 has not collected yet: a Worker's isolate collects before it runs out of its 128 MB).
    let peakLive = 0;
    const gc = globalThis.gc;
    const liveSampler = gc
      ? setInterval(() => {
          gc();
          peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
        }, 250)
      : undefined;
    started = performance.now();
    let runs = 0;
    let longest = 0;
    let status = "queued";
    try {
      for (;;) {
        const run = performance.now();
        const detail = await advanceImports(db, files, new Date(), { chunkBytes });
        longest = Math.max(longest, performance.now() - run);
        runs++;
        const job = one<{ status: string; rows_done: number }>(
          "SELECT status, rows_done FROM import_jobs WHERE id = ?",
          jobId,
        );
        status = job.status;
        if (runs % 5 === 0 || detail === undefined)
          console.log(`  run ${runs}: ${job.rows_done} rows, ${Math.round((performance.now() - started) / 1000)} s`);
        if (detail === undefined || status === "failed") break;
      }
    } finally {
      clearInterval(sampler);
      if (liveSampler) clearInterval(liveSampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const job = one<Record<string, number | string | null>>(
      "SELECT status, rows_done, imported, duplicates, skipped, unmapped, errors, last_error FROM import_jobs WHERE id = ?",
      jobId,
    );
    const booked = one<{ n: number }>("SELECT count(*) AS n FROM sale_bookings").n;
    const figures = {
      date: new Date().toISOString(),
      rows,
      fileMiB: mib(bytes),
      chunkKiB: chunkBytes / 1024,
      // The row's own fields (the driver adds its timing under _metadata).
      job: Object.fromEntries(Object.entries(job).filter(([name]) => name !== "_metadata")),
      bookedRetailLines: booked,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(rows / seconds),
      runs,
      longestRunSeconds: Math.round(longest / 100) / 10,
      heapBeforeMiB: mib(before.heapUsed),
      peakHeapMiB: mib(peakHeap),
      rssBeforeMiB: mib(before.rss),
      peakRssMiB: mib(peakRss),
      /** What the engine added over the process at rest (the seeding ran in this process first). */
      engineHeapMiB: mib(peakHeap - before.heapUsed),
      engineRssMiB: mib(peakRss - before.rss),
      ...(gc ? { peakLiveHeapMiB: mib(peakLive), engineLiveHeapMiB: mib(peakLive - before.heapUsed) } : {}),
    };
    console.log(JSON.stringify(figures, null, 2));
    sqlite.close();
  } finally {
    await mf?.dispose();
    server?.kill("SIGTERM");
    if (!argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}
