import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { instant } from "../columns";
import { organizations } from "../organization/organizations";

/**
 * The dashboard's stock and waste figures for a whole organization, worked out by the jobs worker
 * every minute (app/dashboard/organization-figures.server.ts). Summing every shelf vial and every
 * waste movement of a chain on each view costs more than a page may; the organization's view reads
 * this row instead, and says how old it is. Derived data: never backed up, cleared by a restore.
 */
export const organizationFigures = sqliteTable("organization_figures", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  /** The instant the figures are true of. */
  computedAt: instant("computed_at").notNull(),
  /** The locations summed (ids in order, comma-separated): figures of another set are not these. */
  locationIds: text("location_ids").notNull(),
  /** The stock figures (StockStats) and the waste (Waste) as JSON. */
  stats: text("stats").notNull(),
  waste: text("waste").notNull(),
});
