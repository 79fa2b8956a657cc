// Backup drill helpers: a real local R2 (Miniflare's, as wrangler dev runs it), the engine driven
// run by run, and the database read whole for comparisons.
import type { Client } from "@libsql/client";
import { Miniflare } from "miniflare";
import { v7 as uuidv7 } from "uuid";
import type { WorkOptions } from "../../app/backups/budget";
import type { Manifest } from "../../app/backups/format";
import { gunzipMember, gzipMember, memberLength } from "../../app/backups/gzip";
import { backupKey } from "../../app/backups/keys";
import { liveTables, quote } from "../../app/backups/tables.server";
import { readTrailer, TRAILER_BYTES, trailerMember } from "../../app/backups/trailer";
import { advanceBackupWork } from "../../app/backups/work.server";
import type { Database } from "../../app/db/client.server";

export async function localR2(): Promise<{ files: R2Bucket; other: R2Bucket; close: () => Promise<void> }> {
  const mf = new Miniflare({ modules: true, script: "export default {}", r2Buckets: ["FILES", "OTHER"] });
  const files = (await mf.getR2Bucket("FILES")) as unknown as R2Bucket;
  const other = (await mf.getR2Bucket("OTHER")) as unknown as R2Bucket;
  return { files, other, close: () => mf.dispose() };
}

/** Runs the work cron until it finds nothing to do; answers how many runs did something. */
export async function runUntilIdle(
  db: Database,
  files: R2Bucket,
  options: WorkOptions & { at?: Date } = {},
  maxRuns = 500,
): Promise<number> {
  for (let runs = 0; runs < maxRuns; runs++) {
    const did = await advanceBackupWork(db, files, options.at ?? new Date(), options);
    if (did === undefined) return runs;
  }
  throw new Error(`Still working after ${maxRuns} runs`);
}

export async function queueBackup(
  db: Database,
  organizationId: string,
  id = uuidv7(),
  at = Date.now(),
): Promise<string> {
  await (db.$client as Client).execute({
    sql: `INSERT INTO backups (id, organization_id, origin, requested_by, requested_at, status, r2_key, rows_done)
      VALUES (?, ?, 'user', NULL, ?, 'queued', ?, 0)`,
    args: [id, organizationId, at, backupKey(id)],
  });
  return id;
}

/** An uploaded snapshot: the file already in R2, the row ready with no manifest and a pending rehearsal. */
export async function uploadedBackup(
  db: Database,
  files: R2Bucket,
  organizationId: string,
  bytes: Uint8Array,
): Promise<string> {
  const id = uuidv7();
  await files.put(backupKey(id), bytes);
  await (db.$client as Client).execute({
    sql: `INSERT INTO backups (id, organization_id, origin, requested_at, status, r2_key, rows_done, size_bytes, rehearsal_status)
      VALUES (?, ?, 'upload', ?, 'ready', ?, 0, ?, 'pending')`,
    args: [id, organizationId, Date.now(), backupKey(id), bytes.length],
  });
  return id;
}

export async function queueRestore(db: Database, organizationId: string, backupId: string): Promise<string> {
  const id = uuidv7();
  await (db.$client as Client).execute({
    sql: `INSERT INTO backup_restores (id, organization_id, backup_id, requested_by, requested_at, status, rows_done)
      VALUES (?, ?, ?, NULL, ?, 'queued', 0)`,
    args: [id, organizationId, backupId, Date.now()],
  });
  return id;
}

export async function row(db: Database, table: "backups" | "backup_restores", id: string) {
  const result = await (db.$client as Client).execute({ sql: `SELECT * FROM ${table} WHERE id = ?`, args: [id] });
  return result.rows[0] as unknown as Record<string, unknown>;
}

/** Every backed-up table's rows, as SQLite's JSON in key order: what a restore must bring back. */
export async function dumpAll(db: Database): Promise<Record<string, string[]>> {
  const client = db.$client as Client;
  const out: Record<string, string[]> = {};
  for (const table of await liveTables(client)) {
    const keys = table.primaryKey.map(quote).join(", ");
    const result = await client.execute(
      `SELECT json_array(${table.columns.map((c) => quote(c.name)).join(", ")}) AS line FROM ${quote(table.name)} ORDER BY ${keys}`,
    );
    out[table.name] = result.rows.map((r) => String(r.line));
  }
  return out;
}

/**
 * Changes a row in every table that has one (its triggers set aside for the test, inside the same
 * batch): the first row's first non-key column its checks allow, text marked, a number grown by one.
 */
export async function changeEveryTable(db: Database): Promise<string[]> {
  const client = db.$client as Client;
  const changed: string[] = [];
  for (const table of await liveTables(client)) {
    const triggers = await client.execute({
      sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?",
      args: [table.name],
    });
    const keys = table.primaryKey.map(quote).join(", ");
    const first = `(${keys}) = (SELECT ${keys} FROM ${quote(table.name)} ORDER BY ${keys} LIMIT 1)`;
    const candidates = table.columns
      .filter((c) => !table.primaryKey.includes(c.name))
      .flatMap((c) => [
        `UPDATE ${quote(table.name)} SET ${quote(c.name)} = ${quote(c.name)} || '~' WHERE ${first} AND typeof(${quote(c.name)}) = 'text'`,
        `UPDATE ${quote(table.name)} SET ${quote(c.name)} = ${quote(c.name)} + 1 WHERE ${first} AND typeof(${quote(c.name)}) = 'integer'`,
      ]);
    for (const update of candidates) {
      try {
        const results = await client.batch(
          [
            ...triggers.rows.map((t) => `DROP TRIGGER ${quote(String(t.name))}`),
            update,
            ...triggers.rows.map((t) => String(t.sql)),
          ],
          "write",
        );
        if (results[triggers.rows.length]?.rowsAffected === 1) {
          changed.push(table.name);
          break;
        }
      } catch {
        // This column's checks refuse the change: the next one.
      }
    }
  }
  return changed;
}

export async function fileBytes(files: R2Bucket, key: string): Promise<Uint8Array> {
  const object = await files.get(key);
  if (!object) throw new Error(`No file ${key}`);
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * A snapshot file rewritten member by member, its offsets, manifest and trailer made consistent
 * again: what a careful forger (or a bug) could produce, caught only by the checks inside.
 */
export async function rewriteSnapshot(
  bytes: Uint8Array,
  edit: { row?: (table: string, line: string) => string; manifest?: (manifest: Manifest) => Manifest },
): Promise<Uint8Array> {
  const trailer = await readTrailer(bytes.subarray(bytes.length - TRAILER_BYTES));
  const manifest = JSON.parse(await gunzipMember(bytes.subarray(trailer.offset, trailer.offset + trailer.bytes)))
    .manifest as Manifest;
  const starts = new Map(manifest.tables.map((table) => [table.offset, table.name]));
  const out: Uint8Array[] = [];
  let written = 0;
  let table = "";
  const offsets = new Map<string, number>();
  for (let at = 0; at < trailer.offset; ) {
    const length = memberLength(bytes, at) ?? 0;
    let text = await gunzipMember(bytes.subarray(at, at + length));
    const starting = starts.get(at);
    if (starting) {
      table = starting;
      offsets.set(table, written);
    } else if (table && edit.row) {
      const lines = text.split("\n");
      lines.pop();
      text = `${lines.map((line) => edit.row?.(table, line) ?? line).join("\n")}\n`;
    }
    const member = await gzipMember(text);
    out.push(member);
    written += member.length;
    at += length;
  }
  let next: Manifest = {
    ...manifest,
    dataBytes: written,
    tables: manifest.tables.map((t) => ({ ...t, offset: offsets.get(t.name) ?? t.offset })),
  };
  if (edit.manifest) next = edit.manifest(next);
  const manifestMember = await gzipMember(`${JSON.stringify({ manifest: next })}\n`);
  out.push(manifestMember, trailerMember(written, manifestMember.length));
  const file = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of out) {
    file.set(chunk, at);
    at += chunk.length;
  }
  return file;
}
