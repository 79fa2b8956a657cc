import { sql } from "drizzle-orm";
import { check, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant, quotedList } from "../columns";
import { organizations } from "../organization/organizations";

/** What the jobs worker works out for each organization (ADR 0030). */
export const WORKED_OUT_KINDS = ["dashboard_figures", "balancing_suggestions"] as const;
export type WorkedOutKind = (typeof WORKED_OUT_KINDS)[number];

/**
 * Figures the jobs worker works out every minute for a whole organization, read where summing
 * them on each view would cost more than a page may (ADR 0030): the dashboard's stock and waste
 * figures in organization mode, the balancing suggestions. One row per organization and kind,
 * replaced by each run. Derived data: never backed up, emptied by a restore.
 */
export const workedOut = sqliteTable(
  "worked_out",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    kind: text("kind", { enum: WORKED_OUT_KINDS }).notNull(),
    /** The instant the figures are true of. */
    computedAt: instant("computed_at").notNull(),
    /** The locations worked out (ids in order, comma-separated): figures of another set are not these. */
    locationIds: text("location_ids").notNull(),
    /** The figures, as JSON. */
    body: text("body").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.kind] }),
    check("worked_out_kind", sql`${t.kind} IN (${quotedList(WORKED_OUT_KINDS)})`),
  ],
);
