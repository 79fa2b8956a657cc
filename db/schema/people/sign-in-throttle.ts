import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";

/**
 * Failed password attempts counted per account and address ("pair:<email>|<ip>"), per account
 * ("account:<email>"), per client ("client:<ip>") and per witness and actor
 * ("witness:<email>|<actor id>") within a window; past its limit a key is locked for a while.
 * An attempt being checked holds a place ("held:<key>\x01<attempt id>") taken by one conditional
 * insert before the check (ADR 0011).
 */
export const signInThrottle = sqliteTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: instant("window_started_at").notNull(),
  lockedUntil: instant("locked_until"),
});
