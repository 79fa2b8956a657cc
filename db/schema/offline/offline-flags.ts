import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { organizations } from "../organization/organizations";

/** The commands the browser's offline queue replays (app/offline/contract.ts OFFLINE_KINDS). */
export const OFFLINE_FLAG_KINDS = ["start", "draw", "empty", "discard", "count"] as const;

/**
 * A command recorded offline at the cart that the server refused when it was replayed (issue #25:
 * what happened at the cart is never lost). Kept as it was sent, with why it was refused, until a
 * manager of its location resolves it; the resolution is set once (a guarded UPDATE ... WHERE
 * resolved_at IS NULL) and never changed. The replay's Idempotency-Key is unique per user: the same
 * key sent again answers this flag and writes nothing. No foreign keys to users or the vial (it may
 * be unknown: that can be why it was refused), like activity_log.
 */
export const offlineFlags = sqliteTable(
  "offline_flags",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The location in scope when it was recorded (the replay's ?locationId=). */
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** Who recorded it at the cart (and sent it). */
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: OFFLINE_FLAG_KINDS }).notNull(),
    itemId: text("item_id"),
    sessionId: text("session_id"),
    /** The command's body as sent (JSON), passwords removed. */
    body: text("body").notNull(),
    /** What the person saw when they saved it, e.g. "Draw 10 U from Botox 100 U (lot C1234)". */
    summary: text("summary").notNull(),
    /** When it happened at the cart (the device's clock). */
    recordedAt: instant("recorded_at").notNull(),
    /** When the server refused it. */
    flaggedAt: instant("flagged_at").notNull(),
    /** The verb's refusal code ("not_in_use", "recalled", "invalid"...) and its message. */
    code: text("code").notNull(),
    reason: text("reason").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /**
     * SHA-256 (hex) of the command as sent (app/http/idempotency.server.ts fingerprintOf): the same
     * key sent again with another command is refused, never answered with this flag.
     */
    fingerprint: text("fingerprint").notNull(),
    resolvedAt: instant("resolved_at"),
    resolvedBy: text("resolved_by"),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    check("offline_flags_kind", sql`${t.kind} IN (${quotedList(OFFLINE_FLAG_KINDS)})`),
    check(
      "offline_flags_resolution",
      sql`(${t.resolvedAt} IS NULL AND ${t.resolvedBy} IS NULL AND ${t.resolutionNote} IS NULL)
        OR (${t.resolvedAt} IS NOT NULL AND ${t.resolvedBy} IS NOT NULL AND length(${t.resolutionNote}) > 0)`,
    ),
    uniqueIndex("offline_flags_user_key_unique").on(t.userId, t.idempotencyKey),
    // The flagged records screen: a location's flags, open ones first, newest first (and a person's own).
    index("offline_flags_location_idx").on(t.locationId, t.resolvedAt, t.recordedAt),
    index("offline_flags_user_idx").on(t.userId, t.locationId, t.resolvedAt, t.recordedAt),
  ],
);
