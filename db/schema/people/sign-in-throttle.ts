import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";

/**
 * Failed sign-ins counted per account ("account:<email>") and per client ("client:<ip>") within a
 * window; past the limit the key is locked for a while. Updated by one atomic upsert per failure.
 */
export const signInThrottle = sqliteTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: instant("window_started_at").notNull(),
  lockedUntil: instant("locked_until"),
});
