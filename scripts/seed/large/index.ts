// The large data set of issue #12: one organization at the scale of a big clinic chain, written
// as the history the verbs would have made, deterministic for one seed and one `now`. Migrated with
// the real migrations through the local server, then loaded with the native libSQL engine.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import Database from "libsql";
import { hashPassword } from "../../../app/auth/password.server";
import { startLocalServer } from "../../../db/local-server/server.mjs";
import { migrateDatabase } from "../../lib/database";
import { DEMO_PASSWORD } from "../demo";
import { writeCatalog } from "./catalog";
import { checkLedger, type LedgerCheck } from "./check";
import { type CountCounts, writeCounts } from "./counts";
import { SeedLedger } from "./ledger";
import { writeParLevels } from "./par-levels";
import { type PurchasingCounts, writePurchasing } from "./purchasing";
import { Random } from "./random";
import { type SalesCounts, writeSales } from "./sales";
import { sizesAt } from "./sizes";
import { type StockCounts, writeStock } from "./stock";
import { type TransferCounts, writeTransfers } from "./transfers";
import { Writer } from "./writer";

export { LARGE_SIZES } from "./sizes";
export { LARGE_TARGETS, LARGE_USERS } from "./targets";

const HOUR = 60 * 60 * 1000;

export interface SeedLargeOptions {
  /** A file that does not exist yet. */
  dbPath: string;
  seed?: number;
  /** 1 = the sizes of LARGE_SIZES. */
  scale?: number;
  /** Times count back from here; default: the current hour, rounded down. */
  now?: Date;
  log?: (line: string) => void;
}

export interface SeedLargeResult {
  rows: Record<string, number>;
  stock: StockCounts;
  transfers: TransferCounts;
  counts: CountCounts;
  parLevels: number;
  purchasing: PurchasingCounts;
  sales: SalesCounts;
  ledger: LedgerCheck;
  phases: [string, number][];
}

export class LedgerError extends Error {}

export function currentHour(): Date {
  return new Date(Math.floor(Date.now() / HOUR) * HOUR);
}

export async function seedLarge(options: SeedLargeOptions): Promise<SeedLargeResult> {
  const { dbPath, seed = 42, scale = 1, log = () => {} } = options;
  const now = (options.now ?? currentHour()).getTime();
  const sizes = sizesAt(scale);
  const phases: [string, number][] = [];
  let mark = performance.now();
  const phase = (name: string) => {
    const ms = performance.now() - mark;
    phases.push([name, ms]);
    log(`  ${name.padEnd(28)} ${(ms / 1000).toFixed(1)} s`);
    mark = performance.now();
  };

  // The real migrations, through the local server exactly as `npm start` migrates a database,
  // into a scratch file: the server's connections may outlive close() until collected, and the
  // load wants the only connection to its file (to leave WAL for the load). VACUUM INTO copies it.
  const scratch = `${dbPath}.migrating`;
  const authToken = randomBytes(18).toString("base64url");
  const server = await startLocalServer({ dbPath: scratch, authToken });
  try {
    await migrateDatabase(server.url, authToken);
  } finally {
    await server.close();
  }
  const copy = new Database(scratch);
  copy.prepare("VACUUM INTO ?").run(dbPath);
  copy.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${scratch}${suffix}`, { force: true });
  phase("migrate");

  const random = new Random(seed);
  // One hash for the shared demo password, salted from the seed so two runs write the same bytes.
  const salt = new Uint8Array(16).map(() => random.next32() & 0xff);
  const passwordHash = await hashPassword(DEMO_PASSWORD, salt);
  const w = new Writer(dbPath);
  try {
    w.dropIndexes();
    const catalog = writeCatalog(w, random, sizes, now - sizes.historyDays * 24 * HOUR - 30 * 24 * HOUR, passwordHash);
    w.commit();
    phase("organization and catalogue");
    const ownerId = catalog.owner;
    const stock = writeStock(w, random, sizes, catalog, now, ownerId);
    w.commit();
    phase("stock history");
    // Issue 22: transfers and counts as their verbs would have written them, after the stock they
    // move and count; then the par levels, set against the stock they judge.
    const ledgerAfter = new SeedLedger(w, random);
    const transfers = writeTransfers(w, random, catalog, now, ledgerAfter);
    ledgerAfter.flush();
    w.commit();
    phase("transfers");
    const counts = writeCounts(w, random, catalog, now, ledgerAfter);
    ledgerAfter.flush();
    w.commit();
    phase("counts");
    const parLevels = writeParLevels(w, random, catalog, now, ledgerAfter);
    w.commit();
    phase("par levels");
    // Issue 23: purchase orders, the older receipts linked to the orders they fulfilled.
    const purchasing = writePurchasing(w, random, catalog, now);
    w.commit();
    phase("purchase orders");
    w.rebuildIndexes();
    phase("indexes");
    // Issue 24: a year of sales lines (set-based, on the indexed tables; also a step on its own).
    const sales = writeSales(w.db, { scale, now });
    phase("sales lines");
    const ledger = checkLedger(w);
    phase("ledger check");
    const rows = Object.fromEntries([...w.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
    if (ledger.levelsOff || ledger.itemsOff || ledger.usesOff || ledger.transitOff || ledger.ordersOff) {
      throw new LedgerError(
        `The ledger does not balance: ${ledger.levelsOff} levels, ${ledger.itemsOff} items and ${ledger.usesOff} usage entries disagree with their movements; ${ledger.transitOff} vials and transfer lines disagree on what is on the road; ${ledger.ordersOff} order lines or receipts disagree on what arrived.`,
      );
    }
    return { rows, stock, transfers, counts, parLevels, purchasing, sales, ledger, phases };
  } finally {
    w.close();
  }
}
