// The restore drill (issue 21, ADR 0028): the demo data backed up to a real local R2, every table
// changed, restored, and compared with what was backed up; a restore stopped half way, a tampered,
// truncated or foreign file, and an older schema.
import type { Client, ResultSet } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPage, EMPTY_CHAIN } from "../../app/backups/checksum";
import type { Manifest } from "../../app/backups/format";
import { liveTables, pageQuery } from "../../app/backups/tables.server";
import { advanceBackupWork } from "../../app/backups/work.server";
import { workOutCountReviews } from "../../app/counts/review.server";
import { workOutOrganizationFigures } from "../../app/dashboard/organization-figures.server";
import {
  changeEveryTable,
  dumpAll,
  fileBytes,
  localR2,
  queueBackup,
  queueRestore,
  rewriteSnapshot,
  row,
  runUntilIdle,
  uploadedBackup,
} from "../support/backups";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

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
      const page: ResultSet = await client.execute(pageQuery(table.name, table, after, 1000));
      if (page.rows.length) {
        chain = await chainPage(
          chain,
          page.rows.map((r) => String(r.line)),
        );
        rows += page.rows.length;
        const last = page.rows[page.rows.length - 1];
        after = table.primaryKey.map((k): unknown => (last ? last[k] : null));
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
    const schemaBefore = await schemaOf(client);
    const id = await queueBackup(t.db, organizationId);
    await runUntilIdle(t.db, r2.files);

    const backup = await row(t.db, "backups", id);
    expect(backup).toMatchObject({ status: "ready", rehearsal_status: "passed" });
    const manifest = JSON.parse(String(backup.manifest)) as Manifest;
    // The progress bar's figures are the snapshot's, after its rehearsal too.
    expect(backup).toMatchObject({ rows_done: manifest.rows, rows_total: manifest.rows });
    expect(manifest.tables.map((x) => x.name)).toEqual(Object.keys(before));
    expect(Object.fromEntries(manifest.tables.map((x) => [x.name, x.rows]))).toEqual(
      Object.fromEntries(Object.entries(before).map(([name, rows]) => [name, rows.length])),
    );
    expect(JSON.parse(String(backup.rehearsal))).toMatchObject({
      passed: true,
      ledger: { levelsOff: 0, itemsOff: 0, usesOff: 0 },
    });

    const logged = await client.execute({
      sql: "SELECT action FROM activity_log WHERE entity = 'backup' AND entity_id = ? ORDER BY at, id",
      args: [id],
    });
    expect(logged.rows.map((r) => r.action)).toEqual(["create_backup", "rehearse_backup"]);

    const changed = await changeEveryTable(t.db);
    expect(changed.length).toBeGreaterThan(10);
    const mid = await dumpAll(t.db);
    for (const name of changed) expect(mid[name], name).not.toEqual(before[name]);

    // What the jobs worker worked out for the organization is of the data before the restore.
    await workOutOrganizationFigures(t.db, new Date());
    // And for a count awaiting review (one made for the drill, after the snapshot).
    await client.execute(`INSERT INTO audit_sessions (id, location_id, status, scope, blind, started_at, submitted_at)
      SELECT 'drill-count', id, 'submitted', 'all', 0, 1, 2 FROM locations ORDER BY id LIMIT 1`);
    await workOutCountReviews(t.db);
    for (const table of ["worked_out", "worked_out_counts"])
      expect(Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n), table).toBeGreaterThan(0);
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
    // Worked-out figures are not of the restored rows: emptied, the next run of the work cron writes them again.
    for (const table of ["worked_out", "worked_out_counts"])
      expect(Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n), table).toBe(0);
    // The tables are made again from their own definitions: every table, index and trigger is as
    // it was, and the ledger's append-only guard still refuses an edit.
    expect(await schemaOf(client)).toEqual(schemaBefore);
    await expect(client.execute("UPDATE stock_movements SET quantity = quantity + 1")).rejects.toThrow();
    await expect(client.execute("DELETE FROM activity_log")).rejects.toThrow();
  });
});

/** The schema's tables, indexes and triggers, each with its definition. */
async function schemaOf(client: Client): Promise<string[]> {
  const result = await client.execute(
    "SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || coalesce(sql, '') AS line FROM sqlite_master WHERE name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY type, name",
  );
  return result.rows.map((r) => String(r.line));
}

/** A ready, rehearsed snapshot of the database as it is now. */
async function readySnapshot(): Promise<{ id: string; key: string; manifest: Manifest }> {
  const id = await queueBackup(t.db, organizationId);
  await runUntilIdle(t.db, r2.files);
  const backup = await row(t.db, "backups", id);
  expect(backup).toMatchObject({ status: "ready", rehearsal_status: "passed" });
  return { id, key: String(backup.r2_key), manifest: JSON.parse(String(backup.manifest)) as Manifest };
}

describe("a restore that does not finish", () => {
  it("leaves the database unchanged while it stages across runs, and when its switching batch fails", async () => {
    const client = t.db.$client as Client;
    const snapshot = await readySnapshot();
    await changeEveryTable(t.db);
    // A backup row of an organization the snapshot does not have: the switch's foreign keys fail at COMMIT.
    await client.batch(
      [
        "INSERT INTO organizations (id, name, created_at) VALUES ('org-after-the-snapshot', 'Later', 0)",
        `INSERT INTO backups (id, organization_id, origin, requested_at, status, r2_key, rows_done)
          VALUES ('backup-of-later', 'org-after-the-snapshot', 'user', 0, 'failed', 'none', 0)`,
      ],
      "write",
    );
    const before = await dumpAll(t.db);
    const restoreId = await queueRestore(t.db, organizationId, snapshot.id);

    // The worker stopped after each short run: staged so far, nothing switched.
    for (let run = 0; run < 3; run++) await advanceBackupWork(t.db, r2.files, new Date(), { budgetMs: 0 });
    expect((await row(t.db, "backup_restores", restoreId)).status).toMatch(/checking|staging/);
    expect(await dumpAll(t.db)).toEqual(before);

    await expect(runUntilIdle(t.db, r2.files)).rejects.toThrow(/FOREIGN KEY/);
    const failed = await row(t.db, "backup_restores", restoreId);
    expect(failed).toMatchObject({ status: "failed" });
    expect(String(failed.message)).toMatch(/Nothing was changed/);
    expect(await dumpAll(t.db)).toEqual(before);
    const staging = await client.execute(
      "SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '\\_\\_restore\\_%' ESCAPE '\\'",
    );
    expect(Number(staging.rows[0]?.n)).toBe(0);

    // Once what blocked it is gone, the same snapshot restores.
    await client.batch(
      [
        "DELETE FROM backups WHERE id = 'backup-of-later'",
        "DELETE FROM organizations WHERE id = 'org-after-the-snapshot'",
      ],
      "write",
    );
    const again = await queueRestore(t.db, organizationId, snapshot.id);
    await runUntilIdle(t.db, r2.files);
    expect(await row(t.db, "backup_restores", again)).toMatchObject({ status: "done" });
  });
});

describe("a snapshot that is not what it says", () => {
  it("is refused when tampered, truncated, damaged or another organization's, and nothing changes", async () => {
    const snapshot = await readySnapshot();
    await changeEveryTable(t.db);
    const bytes = await fileBytes(r2.files, snapshot.key);
    const before = await dumpAll(t.db);

    const cases: { name: string; file: Uint8Array; message: RegExp }[] = [
      {
        name: "a row changed, offsets and manifest made consistent",
        file: await rewriteSnapshot(bytes, {
          row: (table, line) =>
            table === "products" && line.includes("Botox") ? line.replace("Botox", "Botax") : line,
        }),
        message: /products does not match its checksum/,
      },
      { name: "cut short", file: bytes.subarray(0, bytes.length - 1000), message: /incomplete/ },
      {
        name: "a byte flipped in the rows",
        file: (() => {
          const copy = bytes.slice();
          const at = Math.floor((snapshot.manifest.tables[3]?.offset ?? 0) + 100);
          copy[at] = (copy[at] ?? 0) ^ 0xff;
          return copy;
        })(),
        message: /does not decompress|not where the file says|impossible length|checksum|cut short/,
      },
      {
        name: "another organization's",
        file: await rewriteSnapshot(bytes, {
          manifest: (m) => ({ ...m, organizationId: "0190aaaa-0000-7000-8000-000000000000" }),
        }),
        message: /another organization/,
      },
    ];
    for (const c of cases) {
      const uploaded = await uploadedBackup(t.db, r2.files, organizationId, c.file);
      const restoreId = await queueRestore(t.db, organizationId, uploaded);
      await runUntilIdle(t.db, r2.files, { report: () => {} });
      const restore = await row(t.db, "backup_restores", restoreId);
      expect(restore, c.name).toMatchObject({ status: "refused" });
      expect(String(restore.message), c.name).toMatch(c.message);
      expect(String(restore.message), c.name).toMatch(/Nothing was changed/);
      // The rehearsal of the upload failed too, in words.
      expect(await row(t.db, "backups", uploaded), c.name).toMatchObject({ rehearsal_status: "failed" });
    }
    const after = await dumpAll(t.db);
    after.activity_log = after.activity_log?.filter((l) => !l.includes('"rehearse_backup"')) ?? [];
    before.activity_log = before.activity_log?.filter((l) => !l.includes('"rehearse_backup"')) ?? [];
    expect(after).toEqual(before);
  });
});

describe("the rehearsal", () => {
  it("fails, reports and says so in words when the snapshot's ledger does not balance", async () => {
    const client = t.db.$client as Client;
    await client.execute(
      "UPDATE stock_levels SET on_hand = on_hand + 1 WHERE rowid = (SELECT min(rowid) FROM stock_levels)",
    );
    const reported: unknown[] = [];
    const id = await queueBackup(t.db, organizationId);
    await runUntilIdle(t.db, r2.files, { report: (e) => reported.push(e) });
    await client.execute(
      "UPDATE stock_levels SET on_hand = on_hand - 1 WHERE rowid = (SELECT min(rowid) FROM stock_levels)",
    );
    const backup = await row(t.db, "backups", id);
    expect(backup).toMatchObject({ status: "ready", rehearsal_status: "failed" });
    expect(JSON.parse(String(backup.rehearsal))).toMatchObject({
      passed: false,
      message: "The ledger does not balance in this snapshot: 1 stock level(s) differ from the sum of their movements.",
    });
    expect(String(reported[0])).toMatch(/ledger does not balance/);
    const staging = await client.execute(
      "SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '\\_\\_rehearsal\\_%' ESCAPE '\\'",
    );
    expect(Number(staging.rows[0]?.n)).toBe(0);
  });
});
