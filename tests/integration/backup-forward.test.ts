// A snapshot made before later migrations restores and is migrated forward (ADR 0028): a database
// at migration 0008 (before the table rebuilds of 0009 and everything after) holding the demo
// data, snapshotted by the engine, restored into today's schema, must equal the same old database
// migrated by drizzle itself.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@libsql/client";
import Database from "libsql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Manifest } from "../../app/backups/format";
import { backupKey } from "../../app/backups/keys";
import { createDatabase } from "../../app/db/client.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { MIGRATIONS_FOLDER, migrateDatabase } from "../../scripts/lib/database";
import { changeEveryTable, dumpAll, localR2, queueBackup, queueRestore, row, runUntilIdle } from "../support/backups";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

const OLD = 8; // 0008_receipts_frozen_once_closed

let dir: string;
let t: TestDatabase;
let r2: Awaited<ReturnType<typeof localR2>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "clinic-forward-"));
  t = await freshDatabase();
  r2 = await localR2();
});
afterAll(async () => {
  await r2.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A migrations folder holding only the first `count` migrations. */
function oldMigrations(count: number): string {
  const folder = path.join(dir, "migrations");
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"));
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries as { tag: string }[])
    copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

describe("a snapshot made before later migrations", () => {
  it("restores into today's schema as drizzle would have migrated it", async () => {
    // The old database: migrations 0000–0008, the demo data in the columns it had then, and the
    // backups' own tables (which a snapshot never holds) so the engine can work there.
    const oldFile = path.join(dir, "old.db");
    const { migrate } = await import("drizzle-orm/libsql/migrator");
    const { connect } = await import("../../scripts/lib/database");
    const old = connect(`file:${oldFile}`);
    await migrate(old, { migrationsFolder: oldMigrations(OLD + 1) });
    old.$client.close();
    const sqlite = new Database(oldFile);
    sqlite.exec("PRAGMA foreign_keys = OFF");
    sqlite.exec(`ATTACH DATABASE '${inject("templateDatabase")}' AS tpl`);
    const tables = sqlite
      .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\'")
      .all() as { name: string }[];
    // Lines before their receipts: a closed receipt's trigger refuses new lines.
    for (const { name } of tables.sort((a, b) =>
      a.name === "receipt_lines" ? -1 : b.name === "receipt_lines" ? 1 : 0,
    )) {
      const columns = (sqlite.prepare(`SELECT name FROM pragma_table_info('${name}')`).all() as { name: string }[])
        .map((c) => c.name)
        .filter(
          (c) =>
            (sqlite.prepare(`SELECT 1 FROM tpl.pragma_table_info('${name}') WHERE name = ?`).get(c) as unknown) !==
            undefined,
        );
      if (!columns.length) continue;
      const list = columns.map((c) => `"${c}"`).join(", ");
      sqlite.exec(`INSERT INTO main."${name}" (${list}) SELECT ${list} FROM tpl."${name}"`);
    }
    sqlite.exec("DETACH DATABASE tpl");
    sqlite.close();
    // What drizzle makes of it: the expected result.
    const expectedFile = path.join(dir, "expected.db");
    copyFileSync(oldFile, expectedFile);
    await migrateDatabase(`file:${expectedFile}`);
    const withBackups = new Database(oldFile);
    const backupsSql = readFileSync(path.join(MIGRATIONS_FOLDER, "0017_backups.sql"), "utf8").split(
      "--> statement-breakpoint",
    );
    for (const statement of backupsSql) withBackups.exec(statement);
    withBackups.close();

    // The engine snapshots the old database (its manifest says 0008)...
    const server = await startLocalServer({ dbPath: oldFile, port: 0, authToken: "old-database-token" });
    const oldDb = createDatabase({ DATABASE_URL: server.url, DATABASE_AUTH_TOKEN: "old-database-token" });
    const { organizationId } = await demoLocations(t.db);
    const backupId = await queueBackup(oldDb, organizationId);
    await runUntilIdle(oldDb, r2.files);
    const made = await row(oldDb, "backups", backupId);
    await server.close();
    expect(made).toMatchObject({ status: "ready", rehearsal_status: "passed" });
    const manifest = JSON.parse(String(made.manifest)) as Manifest;
    expect(manifest.schemaVersion.tag).toBe("0008_receipts_frozen_once_closed");
    expect(manifest.tables.map((x) => x.name)).not.toContain("usage_entries");

    // ...and today's database, every table changed, restores it as an upload.
    const client = t.db.$client as Client;
    await client.execute({
      sql: `INSERT INTO backups (id, organization_id, origin, requested_at, status, r2_key, rows_done, rehearsal_status)
        VALUES (?, ?, 'upload', ?, 'ready', ?, 0, 'pending')`,
      args: [backupId, organizationId, Date.now(), backupKey(backupId)],
    });
    await changeEveryTable(t.db);
    const restoreId = await queueRestore(t.db, organizationId, backupId);
    await runUntilIdle(t.db, r2.files);
    const restore = await row(t.db, "backup_restores", restoreId);
    expect(restore, String(restore.message)).toMatchObject({ status: "done" });

    const expectedServer = await startLocalServer({ dbPath: expectedFile, port: 0, authToken: "expected-token" });
    const expected = await dumpAll(
      createDatabase({ DATABASE_URL: expectedServer.url, DATABASE_AUTH_TOKEN: "expected-token" }),
    );
    await expectedServer.close();
    const after = await dumpAll(t.db);
    after.activity_log = after.activity_log?.filter((l) => !/"(restore|rehearse)_backup"/.test(l)) ?? [];
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const name of Object.keys(expected)) expect(after[name], name).toEqual(expected[name]);
  });
});
