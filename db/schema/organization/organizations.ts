import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "../columns";

/** One clinic chain per database: more chains means more databases, the libSQL way to scale out. */
export const organizations = sqliteTable("organizations", {
  id: id(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});
