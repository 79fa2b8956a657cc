import { sql } from "drizzle-orm";
import { check, index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../columns";

/**
 * A write that was done under a client's idempotency key (a form's hidden field, or an
 * `Idempotency-Key` header): written in the same batch as the write, with the answer it gave, so a
 * repeat of the key by the same user answers the same and writes nothing (architecture.md, ADR 0013).
 * Keys are per user: the same key from someone else is their own request, never a replay.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** Who sent it; no foreign key, like activity_log. */
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    /** What the key was used for (e.g. "receipt_line_add:<receipt id>"): a key reused elsewhere is refused. */
    purpose: text("purpose").notNull(),
    /**
     * SHA-256 (hex) of what the key was sent with: the purpose (verb and target) and the request's
     * fields but the key (app/http/idempotency.server.ts, fingerprintOf). A repeat must match it to
     * be replayed; a key sent again with another request is refused. NULL on keys stored before it
     * was kept: those replay by purpose alone.
     */
    fingerprint: text("fingerprint"),
    /** The first answer, as JSON. */
    answer: text("answer", { mode: "json" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check("idempotency_keys_key", sql`length(${t.key}) BETWEEN 8 AND 100`),
    // Serves removing keys past their retention.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
