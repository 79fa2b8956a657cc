// The snapshot file (ADR 0028): a run of gzip members, so `gunzip -c` reads it whole as JSON lines,
// and each member is complete on its own: the writer cuts the file into R2 multipart parts anywhere
// and resumes from the last part safely in R2; a reader jumps to any member it knows the offset of.
//
//   member 0          {"format":"clinic-inventory-backup","formatVersion":1,"backupId":…}
//   per table         {"table":"items","columns":[…],"primaryKey":[…]}    (a member of its own)
//                     [row as a JSON array, columns in order]              (members of ≤ PAGE_ROWS rows)
//   manifest          {"manifest":{…}}                                     (one member)
//   trailer           {"manifest":[offset,bytes]}                          (fixed size, uncompressed)
//
// Each member's gzip header carries its own length (extra field "CI", 4 bytes little-endian), so a
// reader walks members without inflating them; the trailer is a fixed-size member at the very end
// that says where the manifest is, so the manifest is read first, without reading the rows.

export const FORMAT = "clinic-inventory-backup";
export const FORMAT_VERSION = 1;

/** Rows per page: the writer's read, one gzip member, and one link of a table's checksum chain. */
export const PAGE_ROWS = 1000;

/** R2's multipart rule: every part but the last the same size, at least 5 MiB. */
export const PART_BYTES = 5 * 1024 * 1024;

export interface ColumnShape {
  name: string;
  /** The declared type, as SQLite keeps it (its affinity decides how a value is stored). */
  type: string;
}

export interface TableShape {
  name: string;
  columns: ColumnShape[];
  /** The primary key's columns in key order: pages and checksums follow it. */
  primaryKey: string[];
}

export interface ManifestTable extends TableShape {
  rows: number;
  /** sha256 chain over the table's pages of PAGE_ROWS rows, in primary key order (checksum.ts). */
  checksum: string;
  /** Byte offset of the table's first member (its header line) in the file. */
  offset: number;
}

export interface SchemaVersion {
  /** The newest applied migration's tag, e.g. "0017_backups". */
  tag: string;
  /** Its journal time (drizzle's `created_at` in __drizzle_migrations): migrations apply in this order. */
  when: number;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  backupId: string;
  organizationId: string;
  /** Who or what made it: the schedule, or the user who asked. */
  origin: "schedule" | "user";
  requestedBy: string | null;
  /** When the rows were frozen (the snapshot's instant), ISO 8601. */
  takenAt: string;
  finishedAt: string;
  schemaVersion: SchemaVersion;
  checksum: { algorithm: "sha256-chain"; pageRows: number };
  tables: ManifestTable[];
  rows: number;
  /** Bytes of the file before the manifest (the rows). */
  dataBytes: number;
}

export interface FileHeader {
  format: typeof FORMAT;
  formatVersion: number;
  backupId: string;
  organizationId: string;
  takenAt: string;
}
