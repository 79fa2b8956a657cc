import { type SQL, sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, instant } from "../columns";
import { CATALOGUE_ENTITIES, LEGACY_ACTIONS } from "./actions";

/**
 * A row's action by today's name, as SQL over its `action` column: old names mapped (ADR 0027),
 * others as written. The action index is built on this very expression, and SQLite uses it for a
 * query only when the query's expression is the same, literals included (no bound parameters), so
 * the index and the activity log's action filter both take it from here. A new legacy name means
 * a new index (a migration that drops and builds it again).
 */
export function activityActionSql(action: SQL | ReturnType<typeof text>): SQL {
  const cases = Object.entries(LEGACY_ACTIONS).map(([old, now]) => sql.raw(` WHEN '${old}' THEN '${now}'`));
  return sql`(CASE ${action}${sql.join(cases, sql``)} ELSE ${action} END)`;
}

/**
 * The catalogue's rows filed at no location (its changes made in organization mode), as SQL over
 * the row's columns: the condition of their partial index, in literals, which a query repeats word
 * for word so SQLite may use that index (it cannot prove a condition holding bound parameters).
 */
export function catalogueUnplacedSql(row: { locationId: SQL; entity: SQL }): SQL {
  const entities = sql.raw(CATALOGUE_ENTITIES.map((e) => `'${e}'`).join(", "));
  return sql`${row.locationId} IS NULL AND ${row.entity} IN (${entities})`;
}

/**
 * The indexes the activity log's pages are read by (app/activity/list.server.ts names the one a
 * page uses): each leads with a filter and ends with the log's order (at, id), so a page stops at its
 * last row and a capped count at its cap, whatever the filter's size.
 */
export const ACTIVITY_INDEX = {
  location: "activity_log_location_at_idx",
  at: "activity_log_at_idx",
  user: "activity_log_user_at_idx",
  action: "activity_log_action_at_idx",
  entity: "activity_log_entity_at_idx",
  catalogueUnplaced: "activity_log_catalogue_unplaced_idx",
  userUnplaced: "activity_log_user_unplaced_idx",
} as const;

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
    // The activity log at a location (and its rows with no location: location_id IS NULL), newest
    // first, by dates; recent activity per location. Ending with id, the log's whole order (at, id),
    // so a page stops at its last row with no sort of the rows of one instant.
    index(ACTIVITY_INDEX.location).on(t.locationId, t.at, t.id),
    // The activity log in organization mode, newest first, by dates; recent activity there.
    index(ACTIVITY_INDEX.at).on(t.at, t.id),
    // Serves "recent changes" of one record (e.g. a product and its variations, a vial's history),
    // newest first. It ends in id like the list's order, or the planner prefers walking every row of
    // the entity kind through (entity, at, id) to sorting one record's rows (1.5 s on a vial page).
    index("activity_log_entity_idx").on(t.entity, t.entityId, t.at, t.id),
    // The activity log filtered by who did it (?userId=, or the users a name search finds).
    index(ACTIVITY_INDEX.user).on(t.userId, t.at, t.id),
    // The activity log filtered by action (?action=update_vendor): by today's name, so one seek
    // reads old rows (vendor_update) and new ones in the log's order.
    index(ACTIVITY_INDEX.action).on(activityActionSql(sql`${t.action}`), t.at, t.id),
    // The activity log filtered by what it is about (?entity=vendor).
    index(ACTIVITY_INDEX.entity).on(t.entity, t.at, t.id),
    // The organization-wide rows a location's reader sees: the catalogue's (this partial index
    // holds only them, few beside the sign-ins filed at no location) ...
    index(ACTIVITY_INDEX.catalogueUnplaced)
      .on(t.at, t.id)
      .where(catalogueUnplacedSql({ locationId: sql`${t.locationId}`, entity: sql`${t.entity}` })),
    // ... and their own (sign-ins, password changes), by user: each user's few among everyone's
    // sign-ins. Also organization mode's rows at no location filtered by user.
    index(ACTIVITY_INDEX.userUnplaced).on(t.userId, t.at, t.id).where(sql`${t.locationId} IS NULL`),
  ],
);
