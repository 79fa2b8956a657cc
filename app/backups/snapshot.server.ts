// Writing a snapshot (ADR 0028), a step at a time across runs of the work cron:
// 1. freeze: one batch copies every backed-up table into a work copy (__snapshot_<table>), so the
//    snapshot is one instant of the database however many runs it takes to write;
// 2. write: page by page in primary key order, each page one gzip member, the members cut into R2
//    multipart parts of PART_BYTES; after each part is in R2, the cursor (table, last key, checksum
//    chain, parts, the bytes past the cut) is committed: a run that stops resumes from there;
// 3. finish: the manifest and the trailer, the last part, complete the upload, and one batch marks
//    the row ready with its manifest, logs create_backup and drops the work copies.
import type { Client } from "@libsql/client";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import type { Budget } from "./budget";
import { chainPage, EMPTY_CHAIN, fromBase64, toBase64 } from "./checksum";
import {
  type FileHeader,
  FORMAT,
  FORMAT_VERSION,
  type Manifest,
  type ManifestTable,
  PAGE_ROWS,
  PART_BYTES,
  type SchemaVersion,
  type TableShape,
} from "./format";
import { abortUnlessOwned, newToken } from "./guard";
import { gzipMember } from "./gzip";
import { liveSchemaVersion } from "./schema-version.server";
import { copyName, createCopy, dropAll, leftovers, liveTables, pageQuery, quote } from "./tables.server";
import { trailerMember } from "./trailer";

export interface WriteCursor {
  /** Bumped by every commit; a commit names the step it read, so two runs never both advance. */
  step: number;
  /** The run that claimed the snapshot (guard.ts). */
  token?: string;
  stage: "writing" | "completing";
  uploadId: string;
  takenAt: string;
  schemaVersion: SchemaVersion;
  tables: TableShape[];
  /** The table being written (index in `tables`), its last key written, its chain and rows so far. */
  table: number;
  after: unknown[] | null;
  chain: string;
  rows: number;
  /** Tables written whole. */
  done: ManifestTable[];
  /** Offset in the file of the current table's first member. */
  tableOffset: number;
  parts: { partNumber: number; etag: string }[];
  /** Bytes written past the last part (base64): the start of the next part. */
  carry: string;
  manifest?: Manifest;
}

export interface BackupRow {
  id: string;
  organizationId: string;
  origin: "schedule" | "user" | "upload";
  requestedBy: string | null;
  r2Key: string;
  status: string;
  cursor: Record<string, unknown> | null;
}

type Progress = "progress" | "done" | "lost";

/** Freezes the database for a queued snapshot and starts its upload. */
export async function startSnapshot(db: Database, files: R2Bucket, backup: BackupRow, at: Date): Promise<Progress> {
  const client = db.$client as Client;
  const tables = await liveTables(client);
  const old = await leftovers(client, "frozen");
  const upload = await files.createMultipartUpload(backup.r2Key, {
    httpMetadata: { contentType: "application/gzip" },
    customMetadata: { backupId: backup.id, organizationId: backup.organizationId },
  });
  const cursor: WriteCursor = {
    step: 1,
    token: newToken(),
    stage: "writing",
    uploadId: upload.uploadId,
    takenAt: at.toISOString(),
    schemaVersion: await liveSchemaVersion(client),
    tables,
    table: 0,
    after: null,
    chain: EMPTY_CHAIN,
    rows: 0,
    done: [],
    tableOffset: 0,
    parts: [],
    carry: "",
  };
  const total = tables.length
    ? tables.map((t) => `(SELECT count(*) FROM ${quote(copyName("frozen", t.name))})`).join(" + ")
    : "0";
  try {
    await client.batch(
      [
        // Claimed first: a second run that saw the same queued row fails here and freezes nothing.
        {
          sql: "UPDATE backups SET status = 'writing', started_at = ?, cursor = ? WHERE id = ? AND status = 'queued'",
          args: [at.getTime(), JSON.stringify(cursor), backup.id],
        },
        abortUnlessOwned("backups", backup.id, cursor.token as string),
        ...dropAll(old),
        ...tables.flatMap((t) => [
          createCopy("frozen", t),
          `INSERT INTO ${quote(copyName("frozen", t.name))} SELECT ${t.columns.map((c) => quote(c.name)).join(", ")} FROM ${quote(t.name)}`,
        ]),
        { sql: `UPDATE backups SET rows_total = ${total}, rows_done = 0 WHERE id = ?`, args: [backup.id] },
      ],
      "write",
    );
  } catch (error) {
    await upload.abort().catch(() => {});
    if (/malformed JSON/i.test(String(error))) return "lost";
    throw error;
  }
  return "progress";
}

/** Writes pages of a snapshot being written until the budget is spent or it is done. */
export async function continueSnapshot(
  db: Database,
  files: R2Bucket,
  backup: BackupRow,
  budget: Budget,
  partBytes = PART_BYTES,
): Promise<Progress> {
  const client = db.$client as Client;
  const saved = backup.cursor as unknown as WriteCursor;
  const state: WriteCursor = structuredClone(saved);
  const upload = files.resumeMultipartUpload(backup.r2Key, state.uploadId);
  if (state.stage === "completing") return complete(db, upload, files, backup, state);

  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const append = (bytes: Uint8Array) => {
    pending.push(bytes);
    pendingBytes += bytes.length;
  };
  const written = () => state.parts.length * partBytes + pendingBytes;
  append(fromBase64(state.carry));

  // The file's first member, and the first table's header, on the first write.
  if (state.step === 1 && written() === 0) {
    const header: FileHeader = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      backupId: backup.id,
      organizationId: backup.organizationId,
      takenAt: state.takenAt,
    };
    append(await gzipMember(`${JSON.stringify(header)}\n`));
    if (state.tables[0]) {
      state.tableOffset = written();
      append(await tableHeader(state.tables[0]));
    }
  }

  for (;;) {
    const table = state.tables[state.table];
    if (!table) break;
    const page = await client.execute(pageQuery(copyName("frozen", table.name), table, state.after, PAGE_ROWS));
    budget.spend();
    if (page.rows.length) {
      const lines = page.rows.map((r) => String(r.line));
      state.chain = await chainPage(state.chain, lines);
      state.rows += lines.length;
      const last = page.rows[page.rows.length - 1];
      state.after = table.primaryKey.map((k) => (last ? last[k] : null));
      append(await gzipMember(`${lines.join("\n")}\n`));
    }
    if (page.rows.length < PAGE_ROWS) {
      state.done.push({ ...table, rows: state.rows, checksum: state.chain, offset: state.tableOffset });
      state.table += 1;
      state.after = null;
      state.chain = EMPTY_CHAIN;
      state.rows = 0;
      const next = state.tables[state.table];
      if (next) {
        state.tableOffset = written();
        append(await tableHeader(next));
      }
    }
    if (pendingBytes >= partBytes) {
      const joined = concat(pending);
      let at = 0;
      for (; joined.length - at >= partBytes; at += partBytes) {
        const part = await upload.uploadPart(state.parts.length + 1, joined.subarray(at, at + partBytes));
        state.parts.push({ partNumber: part.partNumber, etag: part.etag });
        budget.spend();
      }
      pending = [joined.subarray(at)];
      pendingBytes = joined.length - at;
      state.carry = toBase64(joined.subarray(at));
      const rowsDone = state.done.reduce((n, t) => n + t.rows, 0) + state.rows;
      if (!(await commit(db, backup.id, state, rowsDone))) return "lost";
      if (budget.spent) return "progress";
    }
  }

  // Every table written: the manifest, the trailer, the last parts.
  const dataBytes = written();
  const manifest: Manifest = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    backupId: backup.id,
    organizationId: backup.organizationId,
    origin: backup.origin === "user" ? "user" : "schedule",
    requestedBy: backup.requestedBy,
    takenAt: state.takenAt,
    finishedAt: new Date().toISOString(),
    schemaVersion: state.schemaVersion,
    checksum: { algorithm: "sha256-chain", pageRows: PAGE_ROWS },
    tables: state.done,
    rows: state.done.reduce((n, t) => n + t.rows, 0),
    dataBytes,
  };
  const manifestMember = await gzipMember(`${JSON.stringify({ manifest })}\n`);
  append(manifestMember);
  append(trailerMember(dataBytes, manifestMember.length));
  const joined = concat(pending);
  for (let at = 0; at < joined.length; at += partBytes) {
    const part = await upload.uploadPart(state.parts.length + 1, joined.subarray(at, at + partBytes));
    state.parts.push({ partNumber: part.partNumber, etag: part.etag });
  }
  state.stage = "completing";
  state.carry = "";
  state.manifest = manifest;
  if (!(await commit(db, backup.id, state, manifest.rows))) return "lost";
  return complete(db, upload, files, backup, state);
}

async function complete(
  db: Database,
  upload: R2MultipartUpload,
  files: R2Bucket,
  backup: BackupRow,
  state: WriteCursor,
): Promise<Progress> {
  const manifest = state.manifest as Manifest;
  let size: number;
  try {
    size = (await upload.complete(state.parts)).size;
  } catch (error) {
    // Completed by a run that stopped before recording it: the file is there whole.
    const there = await files.head(backup.r2Key);
    if (!there) throw error;
    size = there.size;
  }
  const client = db.$client as Client;
  const old = await leftovers(client, "frozen");
  const now = Date.now();
  await client.batch(
    [
      {
        sql: `UPDATE backups SET status = 'ready', finished_at = ?, size_bytes = ?, manifest = ?, cursor = NULL,
          rows_done = ?, rows_total = ?, rehearsal_status = 'pending' WHERE id = ? AND status = 'writing'`,
        args: [now, size, JSON.stringify(manifest), manifest.rows, manifest.rows, backup.id],
      },
      // Logged only if this run made it ready.
      {
        sql: `INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
          SELECT ?, ?, ?, NULL, 'create_backup', 'backup', ?, ?
          WHERE EXISTS (SELECT 1 FROM backups WHERE id = ? AND status = 'ready' AND finished_at = ?)`,
        args: [
          uuidv7(),
          now,
          backup.requestedBy,
          backup.id,
          JSON.stringify({
            origin: backup.origin,
            rows: manifest.rows,
            sizeBytes: size,
            tables: manifest.tables.length,
          }),
          backup.id,
          now,
        ],
      },
      ...dropAll(old),
    ],
    "write",
  );
  return "done";
}

/** Commits the cursor if no other run moved it since this one read it (the step it names). */
async function commit(db: Database, id: string, state: WriteCursor, rowsDone: number): Promise<boolean> {
  const read = state.step;
  state.step = read + 1;
  const result = await (db.$client as Client).execute({
    sql: `UPDATE backups SET cursor = ?, rows_done = ? WHERE id = ? AND status = 'writing'
      AND json_extract(cursor, '$.step') = ?`,
    args: [JSON.stringify(state), rowsDone, id, read],
  });
  return result.rowsAffected === 1;
}

async function tableHeader(table: TableShape): Promise<Uint8Array> {
  return gzipMember(`${JSON.stringify({ table: table.name, columns: table.columns, primaryKey: table.primaryKey })}\n`);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
