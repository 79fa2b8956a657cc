// Column helpers shared by every table, so ids and instants are stored one way everywhere.
import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";
import { v7 as uuidv7 } from "uuid";

/** Sortable text primary key (UUIDv7) made by the server unless the caller brings one. */
export const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());

/** A UTC instant, stored as epoch milliseconds. */
export const instant = (name: string) => integer(name, { mode: "timestamp_ms" });

export const createdAt = () =>
  instant("created_at")
    .notNull()
    .$defaultFn(() => new Date());

export const flag = (name: string) => integer(name, { mode: "boolean" });

/** A list of fixed words as SQL literals, for a CHECK of an enumerated column: `'a', 'b'`. */
export const quotedList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
