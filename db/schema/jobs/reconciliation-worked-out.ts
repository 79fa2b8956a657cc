import { sql } from "drizzle-orm";
import { check, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";
import { organizations } from "../organization/organizations";

/** The periods worked out ahead: the screen's default (the last 30 days) and the last year, both ending today. */
export const RECONCILIATION_WORKED_OUT_DAYS = [30, 365] as const;

/**
 * The reconciliation's rows worked out by the jobs worker (ADR 0030's pattern) for each location and
 * for the whole organization (`place` 'all'), over the last 30 and 365 days (up to `period_to`, in
 * the place's zone), in the screen's order at the default threshold (`rank` from 1). On the large
 * data set a year of a location's ledger is 115,000 movements and the organization's 1.1 million:
 * summing them on each view costs far more than a page may, so those views read a page of these
 * rows (by the primary key), joined to the names, and say the instant they are true of. Replaced
 * whole for a place and period by each run. Derived data: never backed up, emptied by a restore.
 */
export const reconciliationWorkedOut = sqliteTable(
  "reconciliation_worked_out",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** A location id, or 'all' (every location of the organization). */
    place: text("place").notNull(),
    days: integer("days").notNull(),
    /** The period's first and last days, "YYYY-MM-DD" in the place's zone (UTC for 'all'). */
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    computedAt: instant("computed_at").notNull(),
    rank: integer("rank").notNull(),
    variationId: text("variation_id").notNull(),
    expectedServices: integer("expected_services").notNull(),
    expectedRetail: integer("expected_retail").notNull(),
    drawn: integer("drawn").notNull(),
    wasted: integer("wasted").notNull(),
    missing: integer("missing").notNull(),
    adjustedOut: integer("adjusted_out").notNull(),
    countedOut: integer("counted_out").notNull(),
    sold: integer("sold").notNull(),
    change: integer("change").notNull(),
    /** In a recipe or sold as retail (a variation sales should explain). */
    tracked: integer("tracked").notNull(),
    /** Flagged at the default threshold. */
    flagged: integer("flagged").notNull(),
    varianceCents: integer("variance_cents").notNull(),
    /**
     * The whole set's summary (its rows, flagged rows, variance at cost), the same on every row of
     * it: the screen reads it from the set's first row by the primary key, not by counting the
     * set's rows (a chain's year at a location is 4,700).
     */
    setRows: integer("set_rows").notNull().default(0),
    setFlagged: integer("set_flagged").notNull().default(0),
    setVarianceCents: integer("set_variance_cents").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.place, t.days, t.rank] }),
    check("reconciliation_worked_out_days", sql`${t.days} IN (30, 365)`),
  ],
);
