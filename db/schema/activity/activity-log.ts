import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, instant } from "../columns";

/**
 * Append-only record of who did what where. No foreign keys: it must outlive anything it names.
 * Triggers in the migrations refuse UPDATE and DELETE.
 */
export const activityLog = sqliteTable(
  "activity_log",
  {
    id: id(),
    at: instant("at")
      .notNull()
      .$defaultFn(() => new Date()),
    userId: text("user_id"),
    locationId: text("location_id"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    // Small JSON before/after summary.
    summary: text("summary", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    // Serves the activity log screen and recent-activity per location, newest first.
    index("activity_log_location_at_idx").on(t.locationId, t.at),
    index("activity_log_at_idx").on(t.at),
    // Serves "recent changes" of one record (e.g. a product and its variations), newest first.
    index("activity_log_entity_idx").on(t.entity, t.entityId, t.at),
  ],
);
