import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";

/**
 * Password attempts counted per account and address ("pair:<email>|<ip>"), per account
 * ("account:<email>") and per client ("client:<ip>") within a window; past its limit a key is
 * locked for a while. Reserved by one conditional upsert before each check (ADR 0011).
 */
export const signInThrottle = sqliteTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: instant("window_started_at").notNull(),
  lockedUntil: instant("locked_until"),
});
