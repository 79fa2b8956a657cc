import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { organizations } from "../organization/organizations";
import { IMPORT_FORMATS, IMPORT_KINDS, IMPORT_SOURCES, IMPORT_STATUSES } from "./constants";

/**
 * An uploaded file and its way through the jobs worker (architecture.md "Scheduled work"). The file
 * is in R2; the worker claims the job with a conditional UPDATE (`lease_until`), reads a chunk of
 * `rows_key` by byte range from `byte_offset`, and commits the chunk's rows with the new mark and
 * counts in one batch, so a crash resumes exactly where the last committed chunk ended.
 */
export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    kind: text("kind", { enum: IMPORT_KINDS }).notNull(),
    /** The location every row belongs to; NULL when the file's location column is mapped (`location_map`). */
    locationId: text("location_id").references(() => locations.id),
    status: text("status", { enum: IMPORT_STATUSES }).notNull(),
    source: text("source", { enum: IMPORT_SOURCES }).notNull(),
    fileName: text("file_name").notNull(),
    format: text("format", { enum: IMPORT_FORMATS }).notNull(),
    /** SHA-256 (hex) of the file as uploaded. */
    fileHash: text("file_hash").notNull(),
    /** The file as uploaded, in R2. */
    originalKey: text("original_key").notNull(),
    /** The rows the worker reads, in R2: the CSV itself, or the CSV an XLSX was converted to. */
    rowsKey: text("rows_key").notNull(),
    /** Size in bytes of `rows_key`. */
    rowsBytes: integer("rows_bytes").notNull(),
    /** The header row's cells, as JSON (a list of strings). */
    headers: text("headers").notNull(),
    /** Field → header name, as JSON (app/imports: matched by name, never by position). */
    mapping: text("mapping").notNull().default("{}"),
    /** The file's location values → location ids, as JSON, when its location column is mapped. */
    locationMap: text("location_map"),
    /** IANA time zone for rows whose file says none (the location's). */
    timeZone: text("time_zone").notNull(),
    /** The progress mark: the byte of `rows_key` the next chunk starts at (a row boundary). */
    byteOffset: integer("byte_offset").notNull().default(0),
    /** Data rows read so far (each row's number in the file is counted from here). */
    rowsDone: integer("rows_done").notNull().default(0),
    rowsTotal: integer("rows_total").notNull(),
    imported: integer("imported").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    unmapped: integer("unmapped").notNull().default(0),
    errors: integer("errors").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    /** A worker run holds the job until then; a run that died lets it go at this instant. */
    leaseUntil: instant("lease_until"),
    lastError: text("last_error"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    queuedAt: instant("queued_at"),
    startedAt: instant("started_at"),
    finishedAt: instant("finished_at"),
  },
  (t) => [
    check("import_jobs_kind", sql`${t.kind} IN (${quotedList(IMPORT_KINDS)})`),
    check("import_jobs_status", sql`${t.status} IN (${quotedList(IMPORT_STATUSES)})`),
    check("import_jobs_source", sql`${t.source} IN (${quotedList(IMPORT_SOURCES)})`),
    check("import_jobs_format", sql`${t.format} IN (${quotedList(IMPORT_FORMATS)})`),
    check("import_jobs_progress", sql`${t.byteOffset} BETWEEN 0 AND ${t.rowsBytes} AND ${t.rowsDone} >= 0`),
    check(
      "import_jobs_counts",
      sql`min(${t.imported}, ${t.duplicates}, ${t.skipped}, ${t.unmapped}, ${t.errors}) >= 0`,
    ),
    // The imports list, newest first (by location, and organization-wide).
    index("import_jobs_org_created_idx").on(t.organizationId, t.createdAt),
    index("import_jobs_location_created_idx").on(t.locationId, t.createdAt),
    // What the worker claims: queued or processing jobs, oldest first.
    index("import_jobs_waiting_idx").on(t.queuedAt).where(sql`${t.status} IN ('queued', 'processing')`),
  ],
);

/**
 * A column mapping a person made for a file no preset recognises, saved per source (its set of
 * headers) and offered the next time a file with the same headers is uploaded.
 */
export const importMappings = sqliteTable(
  "import_mappings",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The file's headers, trimmed, lower-cased, sorted and joined: the same export, whatever its column order. */
    headerSignature: text("header_signature").notNull(),
    kind: text("kind", { enum: IMPORT_KINDS }).notNull(),
    /** Field → header name, as JSON. */
    mapping: text("mapping").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: instant("updated_at").notNull(),
  },
  (t) => [
    check("import_mappings_kind", sql`${t.kind} IN (${quotedList(IMPORT_KINDS)})`),
    primaryKey({ columns: [t.organizationId, t.kind, t.headerSignature] }),
  ],
);

/**
 * A row the worker could not read, with what is wrong. Only the offending value is kept (never the
 * row: it may carry a customer's name or card data), for the downloadable report of rows in error.
 */
export const importRowErrors = sqliteTable(
  "import_row_errors",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => importJobs.id),
    /** The row's number in the file as a spreadsheet shows it (the header is row 1 of a plain CSV). */
    rowNumber: integer("row_number").notNull(),
    /** The column the problem is in, by its header, if one. */
    column: text("column"),
    /** The value read there, cut to 200 characters. */
    value: text("value"),
    message: text("message").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.rowNumber] })],
);

/**
 * How many times a row's key has been seen so far in one job's file, so identical rows are numbered
 * (their occurrence is part of their key) across chunks. Working data of a running job: deleted when
 * the job completes, never backed up.
 */
export const importRowOccurrences = sqliteTable(
  "import_row_occurrences",
  {
    jobId: text("job_id").notNull(),
    rowHash: text("row_hash").notNull(),
    seen: integer("seen").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.rowHash] })],
);
