// The sales imports' work on the jobs worker (issue 24 item 3, architecture.md "Scheduled work"),
// run by the every-minute work cron (app/jobs/scheduled.server.ts, job `sales_imports`):
// - claim the oldest queued or processing sales job whose lease is free, with a conditional UPDATE;
// - commit its chunks one batch each (chunk.server.ts) until the run's time or chunk budget is spent,
//   then let the lease go so the next run resumes at the job's mark;
// - book the retail lines not booked yet (bookings.server.ts), after the chunks and on its own.
// A run that dies holds its lease until it lapses (IMPORT_LEASE_MS), then another run resumes at the
// last committed mark. An error counts as an attempt; a job that fails IMPORT_STRIKES runs in a row
// without committing a chunk is failed, with the error in words (`last_error`).
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { bookRetailSales } from "./bookings.server";
import { CHUNK_BYTES, type ChunkJob, processChunk, type RunContext } from "./chunk.server";
import type { ColumnMapping } from "./parse/fields";

/** How long a claimed job is held: a run that dies lets it go after this. */
export const IMPORT_LEASE_MS = 2 * 60_000;
/** A run starts no new chunk after this long (wall time), well inside a scheduled Worker's limits. */
export const IMPORT_RUN_MS = 20_000;
/** Nor after this many chunks (each: an R2 read, a database read, a batch: three subrequests). */
export const IMPORT_MAX_CHUNKS = 60;
/** Runs in a row that fail before a job is given up as failed. */
export const IMPORT_STRIKES = 3;
/** Booking batches a run makes at most (after its chunks, or alone): two subrequests each. */
const BOOKING_BATCHES = 200;

export interface ImportWorkOptions {
  /** Bytes a chunk reads (tests: small, so identical rows fall in different chunks). */
  chunkBytes?: number;
  /** Chunks this run commits at most. */
  maxChunks?: number;
  /** Stop dead after this many chunks, lease held, as a killed run would (the kill test). */
  stopAfter?: number;
  /** Wall time this run starts new chunks for. */
  budgetMs?: number;
}

interface JobRow {
  id: string;
  organizationId: string;
  locationId: string | null;
  fileName: string;
  rowsKey: string;
  rowsBytes: number;
  headers: string;
  mapping: string;
  locationMap: string | null;
  timeZone: string;
  byteOffset: number;
  rowsDone: number;
  attempts: number;
  createdBy: string;
}

/** Claims the oldest waiting sales job whose lease is free (or lapsed): one conditional UPDATE. */
async function claim(db: Database, at: Date, lease: number): Promise<JobRow | undefined> {
  const free = sql`(lease_until IS NULL OR lease_until <= ${at.getTime()})`;
  const [row] = await db.all<JobRow>(sql`UPDATE import_jobs
    SET status = 'processing', attempts = attempts + 1, lease_until = ${lease},
      started_at = coalesce(started_at, ${at.getTime()})
    WHERE id = (SELECT id FROM import_jobs WHERE status IN ('queued', 'processing') AND kind = 'sales' AND ${free}
        ORDER BY queued_at, id LIMIT 1)
      AND status IN ('queued', 'processing') AND ${free}
    RETURNING id, organization_id AS organizationId, location_id AS locationId, file_name AS fileName,
      rows_key AS rowsKey, rows_bytes AS rowsBytes, headers, mapping, location_map AS locationMap,
      time_zone AS timeZone, byte_offset AS byteOffset, rows_done AS rowsDone, attempts, created_by AS createdBy`);
  return row;
}

function chunkJob(row: JobRow): ChunkJob {
  return {
    id: row.id,
    organizationId: row.organizationId,
    locationId: row.locationId,
    fileName: row.fileName,
    rowsKey: row.rowsKey,
    rowsBytes: Number(row.rowsBytes),
    headers: JSON.parse(row.headers) as string[],
    mapping: JSON.parse(row.mapping) as ColumnMapping,
    locationMap: row.locationMap ? (JSON.parse(row.locationMap) as Record<string, string>) : null,
    timeZone: row.timeZone,
    byteOffset: Number(row.byteOffset),
    rowsDone: Number(row.rowsDone),
    createdBy: row.createdBy,
  };
}

/**
 * A run's error on a job: the job lets its lease go with the error in `last_error`, and the error
 * is thrown so the jobs list records it; on the last strike the job is failed instead (its working
 * data dropped) and the run goes on.
 */
async function strike(db: Database, row: JobRow, lease: number, at: Date, error: unknown): Promise<"failed"> {
  const message = String((error as Error)?.message ?? error).slice(0, 500);
  if (Number(row.attempts) < IMPORT_STRIKES) {
    await db.run(sql`UPDATE import_jobs SET last_error = ${message}, lease_until = NULL
      WHERE id = ${row.id} AND lease_until = ${lease}`);
    throw error;
  }
  await db.batch([
    db.run(sql`DELETE FROM import_row_occurrences WHERE job_id = ${row.id}`),
    db.run(sql`UPDATE import_jobs SET status = 'failed', lease_until = NULL, finished_at = ${at.getTime()},
        last_error = ${`The import stopped ${IMPORT_STRIKES} times: ${message}`}
      WHERE id = ${row.id} AND status = 'processing'`),
  ]);
  return "failed";
}

/**
 * Moves the sales imports on as far as one run's budget allows, then books retail lines. Answers
 * what it did, or undefined when there was nothing to do (the jobs list records no run then).
 */
export async function advanceImports(
  db: Database,
  files: R2Bucket,
  at: Date,
  options: ImportWorkOptions = {},
): Promise<string | undefined> {
  const until = Date.now() + (options.budgetMs ?? IMPORT_RUN_MS);
  const maxChunks = options.maxChunks ?? IMPORT_MAX_CHUNKS;
  const lease = at.getTime() + IMPORT_LEASE_MS;
  const done: string[] = [];
  let chunks = 0;
  const more = () => Date.now() < until && chunks < maxChunks;
  while (more()) {
    const row = await claim(db, at, lease);
    if (!row) break;
    const job = chunkJob(row);
    const locations = await db.all<{ id: string }>(
      sql`SELECT id FROM locations WHERE organization_id = ${job.organizationId}`,
    );
    const context: RunContext = { headerIndex: null, locations: new Set(locations.map((l) => l.id)) };
    let rows = 0;
    let outcome: string;
    try {
      for (;;) {
        const result = await processChunk(db, files, job, context, at, {
          chunkBytes: options.chunkBytes ?? CHUNK_BYTES,
          leaseMs: IMPORT_LEASE_MS,
        });
        chunks++;
        if (result.byteOffset === null) {
          outcome = "taken over by another run";
          break;
        }
        rows += result.rows;
        job.byteOffset = result.byteOffset;
        job.rowsDone = result.rowsDone;
        if (result.completed) {
          outcome = "completed";
          break;
        }
        if (options.stopAfter !== undefined && chunks >= options.stopAfter)
          return `import ${job.id}: stopped after ${chunks} chunks`;
        if (!more()) {
          await db.run(sql`UPDATE import_jobs SET lease_until = NULL WHERE id = ${job.id} AND lease_until = ${lease}`);
          outcome = "paused";
          break;
        }
      }
    } catch (error) {
      outcome = await strike(db, row, lease, at, error);
    }
    done.push(`import ${job.id} ${outcome}: ${rows} rows`);
  }
  let batches = 0;
  const booked = await bookRetailSales(
    db,
    at,
    () => batches++ === 0 || (batches <= BOOKING_BATCHES && Date.now() < until),
  );
  if (booked) done.push(`booked ${booked} retail lines`);
  return done.length ? done.join("; ") : undefined;
}
