import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { flag, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { AUDIT_SCOPES, AUDIT_STATUSES } from "./constants";

/**
 * A cycle count of one location (domain.md "Flows": audit_session): its scope, blind or not, who
 * started, submitted and reviewed it. Stock is never frozen while it is open: each counted line
 * remembers the ledger's position (./audit-lines), and approval books COUNT movements for the
 * variances as of that moment. No foreign keys to users, like activity_log.
 */
export const auditSessions = sqliteTable(
  "audit_sessions",
  {
    id: id(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    status: text("status", { enum: AUDIT_STATUSES }).notNull().default("in_progress"),
    scope: text("scope", { enum: AUDIT_SCOPES }).notNull(),
    /** The category counted (scope category). */
    scopeCategory: text("scope_category"),
    /** The products counted (scope products), a JSON array of product ids. */
    scopeProductIds: text("scope_product_ids"),
    /** Blind: the counter is not shown the expected quantities. */
    blind: flag("blind").notNull(),
    startedBy: text("started_by"),
    startedAt: instant("started_at")
      .notNull()
      .$defaultFn(() => new Date()),
    submittedBy: text("submitted_by"),
    submittedAt: instant("submitted_at"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: instant("reviewed_at"),
    /** The reviewer's note (required when sent back for a recount). */
    reviewNote: text("review_note"),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    check("audit_sessions_status", sql`${t.status} IN (${quotedList(AUDIT_STATUSES)})`),
    check("audit_sessions_scope", sql`${t.scope} IN (${quotedList(AUDIT_SCOPES)})`),
    check("audit_sessions_scope_category", sql`(${t.scope} = 'category') = (${t.scopeCategory} IS NOT NULL)`),
    check(
      "audit_sessions_scope_products",
      sql`(${t.scope} = 'products') = (${t.scopeProductIds} IS NOT NULL AND json_valid(${t.scopeProductIds}))`,
    ),
    check("audit_sessions_reviewed", sql`(${t.status} IN ('approved', 'rejected')) = (${t.reviewedAt} IS NOT NULL)`),
    check("audit_sessions_rejected_note", sql`${t.status} <> 'rejected' OR ${t.reviewNote} IS NOT NULL`),
    // One count being counted at a location at a time: everyone counting there joins it (a count
    // sent back for a recount is counted again, so it is open too).
    uniqueIndex("audit_sessions_one_open_idx").on(t.locationId).where(sql`${t.status} IN ('in_progress', 'rejected')`),
    // Serves each location's counts by status, newest first, and the review list.
    index("audit_sessions_location_status_idx").on(t.locationId, t.status, t.startedAt, t.id),
    index("audit_sessions_status_idx").on(t.status, t.startedAt, t.id),
  ],
);
