// Writing the large data set straight through the native libSQL engine: prepared statements,
// one transaction per ~100k rows, fast pragmas for the load only. The big tables' secondary
// indexes are dropped while loading and built again afterwards from their own stored SQL (a
// sorted build is far faster than 2M random B-tree inserts); triggers and CHECKs stay on.
import Database from "libsql";

type Value = string | number | null;
export type Insert = (...values: Value[]) => void;

/** Tables whose secondary indexes are rebuilt after the load (the large ones of issue #12). */
const REBUILT = [
  "items",
  "stock_movements",
  "usage_entries",
  "activity_log",
  "stock_levels",
  "receipt_lines",
  "barcodes",
];

const ROWS_PER_TRANSACTION = 100_000;

export class Writer {
  readonly db: Database.Database;
  private inTransaction = false;
  private pending = 0;
  private readonly statements = new Map<string, Database.Statement>();
  private dropped: { name: string; sql: string }[] = [];
  readonly counts = new Map<string, number>();

  constructor(dbPath: string) {
    this.db = new Database(dbPath);
    // For the load only: the file is thrown away if the run fails, so no journal and no fsync.
    this.db.exec("PRAGMA journal_mode = OFF");
    this.db.exec("PRAGMA synchronous = OFF");
    this.db.exec("PRAGMA cache_size = -1000000");
    this.db.exec("PRAGMA temp_store = MEMORY");
    this.db.exec("PRAGMA foreign_keys = ON");
  }

  /** A prepared INSERT of `columns` (names between spaces) into `table`; every call is one row, counted. */
  insert(table: string, names: string): Insert {
    const columns = names.split(" ");
    const text = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    const statement = this.prepared(text);
    return (...values) => {
      this.begin();
      statement.run(...values);
      this.counts.set(table, (this.counts.get(table) ?? 0) + 1);
      if (++this.pending >= ROWS_PER_TRANSACTION) this.commit();
    };
  }

  /** A prepared statement run inside the load's transactions (updates, e.g. completing a receipt). */
  run(text: string): Insert {
    const statement = this.prepared(text);
    return (...values) => {
      this.begin();
      statement.run(...values);
      if (++this.pending >= ROWS_PER_TRANSACTION) this.commit();
    };
  }

  private prepared(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private begin() {
    if (this.inTransaction) return;
    this.db.exec("BEGIN");
    this.inTransaction = true;
  }

  commit() {
    if (!this.inTransaction) return;
    this.db.exec("COMMIT");
    this.inTransaction = false;
    this.pending = 0;
  }

  dropIndexes() {
    const list = REBUILT.map((t) => `'${t}'`).join(", ");
    this.dropped = this.db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${list})`)
      .all() as { name: string; sql: string }[];
    for (const index of this.dropped) this.db.exec(`DROP INDEX "${index.name}"`);
  }

  rebuildIndexes() {
    this.commit();
    for (const index of this.dropped) this.db.exec(index.sql);
    this.dropped = [];
  }

  /** Leaves the file as the local server expects it (WAL, written through) and closes it. */
  close() {
    this.commit();
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.close();
  }
}
