import { sql } from "drizzle-orm";
import { check, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant, quotedList } from "../columns";
import { auditSessions } from "../counts/audit-sessions";
import { AUDIT_STATUSES } from "../counts/constants";

/**
 * A count's review figures as the jobs worker works them out (ADR 0030, extended to counts): every
 * minute while the count awaits review, once after it is approved. The review page reads a page of them in
 * place of the report's live read, which on a large shelf costs more than a page may (every line's
 * expectation, the shelf walked for the vials missing). Derived data: never backed up, emptied by a
 * restore, worked out again from the restored rows.
 */
export const workedOutCounts = sqliteTable(
  "worked_out_counts",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => auditSessions.id),
    /** The count's status the figures were worked out at: figures of another status are not these. */
    status: text("status", { enum: AUDIT_STATUSES }).notNull(),
    /** The instant the figures are true of. */
    computedAt: instant("computed_at").notNull(),
    /** The review's totals, as JSON (app/counts/review.server.ts), with how long each list is. */
    totals: text("totals").notNull(),
    /**
     * Its lists, each a JSON array in the order the page shows it, in a column of its own: a view
     * reads a page of one list, so only that list's text is parsed (the largest count's vials are
     * 400 KB of it).
     */
    vials: text("vials").notNull(),
    bulk: text("bulk").notNull(),
    missing: text("missing").notNull(),
    /** The first products and sizes not counted (the totals count them all). */
    notCounted: text("not_counted").notNull(),
    during: text("during").notNull(),
  },
  (t) => [check("worked_out_counts_status", sql`${t.status} IN (${quotedList(AUDIT_STATUSES)})`)],
);
