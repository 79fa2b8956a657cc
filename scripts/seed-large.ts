// npm run seed:large [-- --seed 42 --scale 1 --data-dir .data-large --now 2026-01-01T00:00:00Z --force]
// Writes the large data set of issue #12 into <data-dir>/clinic.db (never the demo's .data/).
// npm run seed:large -- --sales-only [--scale 1 --data-dir .data-large]: adds issue 24's year of sales
// lines to a data set written before them (migrated first: npm run db:migrate), nothing else.
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "libsql";
import { DEMO_PASSWORD } from "./seed/demo";
import { checkLedger } from "./seed/large/check";
import { currentHour, LARGE_USERS, seedLarge } from "./seed/large/index";
import { writeSales } from "./seed/large/sales";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "42" },
    scale: { type: "string", default: "1" },
    "data-dir": { type: "string", default: ".data-large" },
    now: { type: "string" },
    force: { type: "boolean", default: false },
    "sales-only": { type: "boolean", default: false },
  },
});

const seed = Number(values.seed);
const scale = Number(values.scale);
const now = values.now ? new Date(values.now) : currentHour();
if (!Number.isInteger(seed) || !(scale > 0) || Number.isNaN(now.getTime())) {
  console.error(
    "Usage: npm run seed:large -- [--seed <integer>] [--scale <number above 0>] [--now <ISO instant>] [--data-dir <dir>] [--force]",
  );
  process.exit(1);
}
const dataDir = path.resolve(values["data-dir"]);
if (dataDir === path.resolve(".data")) {
  console.error("Refusing to write the large data set into .data/, the demo's database. Pick another --data-dir.");
  process.exit(1);
}
const dbPath = path.join(dataDir, "clinic.db");
if (values["sales-only"]) {
  if (!existsSync(dbPath)) {
    console.error(`${dbPath} does not exist: --sales-only adds the sales to a large data set already written.`);
    process.exit(1);
  }
  const started = performance.now();
  const db = new Database(dbPath);
  try {
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA cache_size = -500000");
    // The data set's own "now": its newest movement, to the next hour (the sales end where its history does).
    const newest = Number((db.prepare("SELECT max(occurred_at) FROM stock_movements").raw(true).get() as unknown[])[0]);
    const at = values.now ? now.getTime() : Math.ceil(newest / 3_600_000) * 3_600_000;
    console.log(`Adding the sales lines (scale ${scale}, up to ${new Date(at).toISOString()}) to ${dbPath}…`);
    const sales = writeSales(db, { scale, now: at });
    console.log(sales);
    const ledger = checkLedger({ db } as Parameters<typeof checkLedger>[0]);
    console.log(ledger);
    if (ledger.levelsOff || ledger.itemsOff) throw new Error("The ledger does not balance after the sales.");
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    db.close();
  }
  process.exit();
}
if (existsSync(dbPath)) {
  if (!values.force) {
    console.error(`${dbPath} already exists. Run again with --force to replace it.`);
    process.exit(1);
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
}
mkdirSync(dataDir, { recursive: true });

console.log(`Writing the large data set (seed ${seed}, scale ${scale}, now ${now.toISOString()}) into ${dbPath}…`);
const started = performance.now();
try {
  const result = await seedLarge({ dbPath, seed, scale, now, log: (line) => console.log(line) });
  const seconds = (performance.now() - started) / 1000;
  console.log("\nRows:");
  for (const [table, rows] of Object.entries(result.rows))
    console.log(`  ${table.padEnd(22)} ${rows.toLocaleString("en-US")}`);
  const { transfers, counts } = result;
  console.log(
    `\nTransfers: ${Object.entries(transfers.byStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ")}; ${transfers.discrepancies} discrepancies`,
  );
  console.log(
    `Counts: ${Object.entries(counts.byStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(
        ", ",
      )}; ${counts.variances} variances booked, ${counts.missing} vials missing; ${result.parLevels} par levels`,
  );
  console.log(
    `Purchase orders: ${Object.entries(result.purchasing.byStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ")}; ${result.purchasing.lines} lines; ${result.purchasing.linkedReceipts} receipts against them`,
  );
  console.log(
    `Sales: ${result.sales.lines} lines (${result.sales.serviceLines} services, ${result.sales.retailLines} retail, ${result.sales.unmappedLines} unmapped, ${result.sales.refunds} refunds); ${result.sales.recipes} recipes; ${result.sales.bookedMovements} SALE movements, ${result.sales.shortLines} lines short`,
  );
  console.log("ledger balances: yes");
  const megabytes = statSync(dbPath).size / 1024 / 1024;
  console.log(`Done in ${seconds.toFixed(1)} s; ${megabytes.toFixed(0)} MB on disk.`);
  console.log(`\nRun it: DATA_DIR=${path.relative(process.cwd(), dataDir) || "."} npm start`);
  console.log(`Logins (password "${DEMO_PASSWORD}"):`);
  for (const user of Object.values(LARGE_USERS)) console.log(`  ${user.email.padEnd(22)} ${user.role}`);
} catch (error) {
  // A half-written file is worth nothing: remove it, so the next run need not --force.
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
