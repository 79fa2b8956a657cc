// Loading a snapshot file into staging tables and checking the staged copy, a step at a time
// across runs: the rehearsal and the restore share it. Each load step is one batch that inserts a
// few pages and commits the cursor with them, so a run that stops resumes without a row twice.
import type { Client, InStatement } from "@libsql/client";
import type { Budget } from "./budget";
import { chainPage, EMPTY_CHAIN } from "./checksum";
import type { Manifest, ManifestTable } from "./format";
import { abortUnlessOwned, newToken } from "./guard";
import { DamagedFile } from "./gzip";
import { membersFrom } from "./read.server";
import { type Copy, copyName, createCopy, dropAll, insertLines, leftovers, pageQuery } from "./tables.server";

/** Where a staged copy's progress is kept: the backup (rehearsal) or the restore row. */
export interface CursorHome {
  table: "backups" | "backup_restores";
  id: string;
}

export interface StageCursor {
  step: number;
  /** The run that wrote this cursor (guard.ts). */
  token?: string;
  phase: "load" | "verify" | "staged";
  /** Table being loaded or verified (index in the manifest's tables). */
  table: number;
  /** Load: next member's offset, whether the table's header line was read, its chain and rows. */
  position: number;
  headerRead: boolean;
  chain: string;
  rows: number;
  /** Verify: last key read back from the staged copy. */
  after: unknown[] | null;
  rowsDone: number;
}

/** Bytes of row text sent per batch while loading (a few pages). */
const LOAD_BATCH_BYTES = 2 * 1024 * 1024;

export function firstStageCursor(manifest: Manifest): StageCursor {
  return {
    step: 1,
    phase: "load",
    table: 0,
    position: manifest.tables[0]?.offset ?? manifest.dataBytes,
    headerRead: false,
    chain: EMPTY_CHAIN,
    rows: 0,
    after: null,
    rowsDone: 0,
  };
}

/** The statements that (re)create the empty staging tables of a snapshot. */
export async function createStaging(client: Client, copy: Copy, manifest: Manifest): Promise<string[]> {
  return [...dropAll(await leftovers(client, copy)), ...manifest.tables.map((t) => createCopy(copy, t))];
}

export async function dropStaging(client: Client, copy: Copy): Promise<void> {
  const names = await leftovers(client, copy);
  if (names.length) await client.batch(dropAll(names), "write");
}

/** The guarded cursor update, for the end of a batch: it fails the batch if another run moved it. */
export function saveCursor(home: CursorHome, state: StageCursor): InStatement[] {
  const read = state.step;
  state.step = read + 1;
  state.token = newToken();
  // A restore's rows_done is its progress; a backup's stays the snapshot's rows (the rehearsal's
  // progress is in its cursor).
  const progress = home.table === "backup_restores" ? ", rows_done = ?" : "";
  return [
    {
      sql: `UPDATE ${home.table} SET cursor = ?${progress} WHERE id = ? AND json_extract(cursor, '$.step') = ?`,
      args: [JSON.stringify(state), ...(progress ? [state.rowsDone] : []), home.id, read],
    },
    abortUnlessOwned(home.table, home.id, state.token),
  ];
}

/** Whether an error is the cursor guard of another run (this run stops, the other goes on). */
export function lostToAnotherRun(error: unknown): boolean {
  return /malformed JSON/i.test(String(error)) || /malformed JSON/i.test(String((error as Error)?.cause));
}

/**
 * Loads and checks until the budget is spent or the copy is staged and verified: answers the
 * cursor reached. A file that does not match its manifest throws DamagedFile.
 */
export async function advanceStaging(
  client: Client,
  files: R2Bucket,
  key: string,
  manifest: Manifest,
  copy: Copy,
  home: CursorHome,
  cursor: StageCursor,
  budget: Budget,
): Promise<StageCursor> {
  const state = structuredClone(cursor);
  if (state.phase === "load") {
    await load(client, files, key, manifest, copy, home, state, budget);
    if (state.phase === "load") return state;
  }
  if (state.phase === "verify") await verify(client, manifest, copy, home, state, budget);
  return state;
}

async function load(
  client: Client,
  files: R2Bucket,
  key: string,
  manifest: Manifest,
  copy: Copy,
  home: CursorHome,
  state: StageCursor,
  budget: Budget,
): Promise<void> {
  let statements: InStatement[] = [];
  let bytes = 0;
  const flush = async () => {
    await client.batch([...statements, ...saveCursor(home, state)], "write");
    budget.spend();
    statements = [];
    bytes = 0;
  };
  const nextTable = () => {
    state.table += 1;
    state.headerRead = false;
    state.chain = EMPTY_CHAIN;
    state.rows = 0;
    const next = manifest.tables[state.table];
    if (next && next.offset !== state.position)
      throw new DamagedFile(`The file's parts are out of order at the table ${next.name}.`);
    if (!next) {
      state.phase = "verify";
      state.table = 0;
    }
  };
  // Tables already whole (an empty one right after its header) are passed over here.
  const settle = (table: ManifestTable) => {
    if (state.rows > table.rows) throw new DamagedFile(`The table ${table.name} has more rows than its manifest says.`);
    if (state.rows < table.rows) return false;
    if (state.chain !== table.checksum)
      throw new DamagedFile(`The table ${table.name} does not match its checksum: the file was changed or damaged.`);
    nextTable();
    return true;
  };

  if (!manifest.tables.length) {
    state.phase = "verify";
    return;
  }
  for await (const member of membersFrom(files, key, state.position, manifest.dataBytes, () => budget.spend())) {
    const table = manifest.tables[state.table];
    if (!table) break;
    state.position = member.next;
    if (!state.headerRead) {
      let header: { table?: unknown };
      try {
        header = JSON.parse(member.text) as { table?: unknown };
      } catch {
        throw new DamagedFile(`The file's header of the table ${table.name} is damaged.`);
      }
      if (header.table !== table.name)
        throw new DamagedFile(`The file has no table ${table.name} where its manifest says.`);
      state.headerRead = true;
      settle(table);
    } else {
      const lines = member.text.split("\n");
      if (lines.pop() !== "") throw new DamagedFile(`A page of the table ${table.name} is cut short.`);
      state.chain = await chainPage(state.chain, lines);
      state.rows += lines.length;
      state.rowsDone += lines.length;
      statements.push(insertLines(copyName(copy, table.name), table, `[${lines.join(",")}]`));
      bytes += member.text.length;
      settle(table);
    }
    if (state.phase !== "load") break;
    if (bytes >= LOAD_BATCH_BYTES) {
      await flush();
      if (budget.spent) return;
    }
  }
  if (state.phase === "load" && state.table < manifest.tables.length && state.position >= manifest.dataBytes)
    throw new DamagedFile("The file ends before all its tables are read.");
  await flush();
}

/** Reads the staged copy back in key order and compares each table's chain with the manifest. */
async function verify(
  client: Client,
  manifest: Manifest,
  copy: Copy,
  home: CursorHome,
  state: StageCursor,
  budget: Budget,
): Promise<void> {
  let pages = 0;
  for (;;) {
    const table = manifest.tables[state.table];
    if (!table) break;
    const page = await client.execute(
      pageQuery(copyName(copy, table.name), table, state.after, manifest.checksum.pageRows),
    );
    budget.spend();
    if (page.rows.length) {
      state.chain = await chainPage(
        state.chain,
        page.rows.map((r) => String(r.line)),
      );
      state.rows += page.rows.length;
      const last = page.rows[page.rows.length - 1];
      state.after = table.primaryKey.map((k) => (last ? last[k] : null));
    }
    if (page.rows.length < manifest.checksum.pageRows) {
      if (state.rows !== table.rows || state.chain !== table.checksum)
        throw new StagedCopyDiffers(
          `The staged copy of ${table.name} does not match the snapshot (${state.rows} of ${table.rows} rows read back, checksum ${state.chain === table.checksum ? "equal" : "different"}).`,
        );
      state.table += 1;
      state.after = null;
      state.chain = EMPTY_CHAIN;
      state.rows = 0;
    }
    pages += 1;
    if (budget.spent && state.table < manifest.tables.length) {
      await client.batch(saveCursor(home, state), "write");
      return;
    }
    if (pages % 50 === 0) await client.batch(saveCursor(home, state), "write");
  }
  state.phase = "staged";
  await client.batch(saveCursor(home, state), "write");
}

/** The staged rows are not the snapshot's rows: staging lost or changed something. */
export class StagedCopyDiffers extends Error {
  override name = "StagedCopyDiffers";
}

export { DamagedFile };
