import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, instant } from "../columns";
import { users } from "./users";

/**
 * Server side of a signed-in browser. The cookie carries a random token; only its SHA-256 is
 * stored, so a leaked database cannot be replayed as sessions. Revoking sets revoked_at.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: instant("expires_at").notNull(),
    lastSeenAt: instant("last_seen_at").notNull(),
    userAgent: text("user_agent"),
    revokedAt: instant("revoked_at"),
  },
  (t) => [
    // Serves revoking every session of a user (logout everywhere, deactivation, password change).
    index("sessions_user_idx").on(t.userId),
  ],
);
