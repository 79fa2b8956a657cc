// The activity log as a screen reads it (its own folder, on the domain floor: reading the log needs
// the reader's scope, app/access, which records sign-ins in app/activity below it). What the
// activity log screen and its CSV read: every recorded action the reader may see, newest
// first, filtered by location, user, action, entity and dates, by keyset pages with a capped count
// (ADR 0018): a page and its count are one batch, and the CSV walks the same keyset.
//
// Who sees which rows (ADR 0027). The log is READ_ACTIVITY (location admins and managers, and
// organization admins); a row filed at a location is seen where the reader has it, by the house's
// scope (ADR 0014): the location in scope, or every location in organization mode. A row filed at
// no location is organization-wide:
// - in organization mode (organization admins only) every such row: sign-ins and their failures,
//   users, the catalogue, backups and the jobs worker's own rows;
// - at a location, only the catalogue's (products, variations, vendors, services, lot recalls: every
//   location stocks from them, and a location's manager may edit the catalogue) and the reader's
//   own (their sign-ins, their password change). Not other people's sign-ins, failed sign-ins or
//   accounts: who may sign in is the organization admins' business, and a failed sign-in names the
//   address typed.
// A location reader's page is then up to three keyset reads (the location's rows, the catalogue's
// and their own at no location), each by its own index in the log's order and each stopped at the
// page's size, merged.
import { type SQL, sql } from "drizzle-orm";
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { isOrganizationAdmin, ORGANIZATION } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import type { ActivityAction } from "~/activity/actions";
import type { Database } from "~/db/client.server";
import {
  type CursorPage,
  cappedCountSql,
  firstPage,
  type Keyset,
  keysetList,
  keysetWalk,
  type SortKey,
} from "~/db/keyset.server";
import { anyContains, jsonObjectOf, organizationOf } from "~/db/sql.server";
import { type ReadFilters, readFilters } from "~/http/filters.server";
import { startOfDayIn } from "~/ui/dates";
import { ACTIVITY_INDEX, activityActionSql, catalogueUnplacedSql } from "../../db/schema/activity/activity-log";
import { CATALOGUE_ENTITIES, LOCATED_ENTITIES, NO_LOCATION, USER_CHOICES } from "./entities";
import { ActivityQuery, type ActivityQueryInput } from "./query";

/** The log's query of a request's search parameters, and what is wrong with any filter it cannot use. */
export function readActivityQuery(params: URLSearchParams): ReadFilters<ActivityQueryInput> {
  return readFilters(ActivityQuery, Object.fromEntries(params));
}

/** One activity row as the log shows it: who by name, where by code and zone. */
export interface ActivityLogEntry {
  id: string;
  at: Date;
  action: string;
  entity: string;
  entityId: string | null;
  summary: Record<string, unknown> | null;
  userId: string | null;
  userName: string | null;
  locationId: string | null;
  location: { name: string; code: string; timeZone: string } | null;
}

interface ActivityRow {
  id: string;
  at: number;
  action: string;
  entity: string;
  entityId: string | null;
  summary: string | null;
  userId: string | null;
  userName: string | null;
  locationId: string | null;
  locationName: string | null;
  locationCode: string | null;
  timeZone: string | null;
}

function entryOf(row: ActivityRow): ActivityLogEntry {
  return {
    id: row.id,
    at: new Date(Number(row.at)),
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    summary: jsonObjectOf(row.summary),
    userId: row.userId,
    userName: row.userName,
    locationId: row.locationId,
    location:
      row.locationId && row.locationCode
        ? { name: row.locationName ?? "", code: row.locationCode, timeZone: row.timeZone ?? "UTC" }
        : null,
  };
}

/** The log's order, newest first; rows of one instant by id, so the key is unique. */
const KEYS: readonly SortKey[] = [
  { sql: sql`a.at`, type: "integer", desc: true },
  { sql: sql`a.id`, type: "text", desc: true },
];
/** The same order over the merged page's ids (`hit`). */
const HIT_KEYS: readonly SortKey[] = [
  { sql: sql`hit.at`, type: "integer", desc: true },
  { sql: sql`hit.id`, type: "text", desc: true },
];

const keyOf = (row: { at: number; id: string }) => [Number(row.at), row.id];
const PAGES = keysetList<ActivityRow>(KEYS, keyOf);
const HIT_PAGES = keysetList<ActivityRow>(HIT_KEYS, keyOf);

const DAY_MS = 24 * 60 * 60 * 1000;

/** One keyset read: the rows of one part of the reader's scope, by the index that serves its filters. */
interface Part {
  index: string;
  where: SQL;
}

/** The users of the reader's organization whose name or email contains `q`, as `FROM … WHERE …`. */
function usersMatching(actor: ScopedActor, q: string): SQL {
  return sql`FROM users WHERE organization_id = ${organizationOf(actor)}
    AND ${anyContains(q, [sql`first_name || ' ' || last_name`, sql`email`])}`;
}

/**
 * A name search lists the rows of the one user it finds: one seek of the user index. When it
 * finds several, nothing is listed and the screen offers them to choose (one user's rows can be
 * read in the log's order; several users' rows would have to be sorted, all of them). The count
 * is a constant of the statement, so SQLite checks it once, before reading any row.
 */
function oneUserMatching(actor: ScopedActor, q: string): SQL {
  const matching = usersMatching(actor, q);
  return sql`a.user_id = (SELECT id ${matching} LIMIT 1) AND (SELECT count(*) FROM (SELECT 1 ${matching} LIMIT 2)) = 1`;
}

/** The filters other than where: dates (whole days in the zone of the location in scope), who, what, about what. */
function filterTerms(actor: ScopedActor, query: ActivityQueryInput): SQL[] {
  const timeZone = timeZoneHere(actor);
  const from = query.from ? startOfDayIn(query.from, timeZone) : null;
  const toStart = query.to ? startOfDayIn(query.to, timeZone) : null;
  // The day after `to` begins (a whole day later at noon, then back to its midnight: DST-proof).
  const toEnd =
    toStart === null
      ? null
      : startOfDayIn(new Date(toStart + DAY_MS + DAY_MS / 2).toISOString().slice(0, 10), timeZone);
  return [
    ...(from === null ? [] : [sql`a.at >= ${from}`]),
    ...(toEnd === null ? [] : [sql`a.at < ${toEnd}`]),
    ...(query.userId ? [sql`a.user_id = ${query.userId}`] : []),
    // A chosen user wins over the search that offered them.
    ...(query.user && !query.userId ? [oneUserMatching(actor, query.user)] : []),
    // Today's name of the row's action, as the action index holds it: old and new rows in one seek.
    ...(query.action ? [sql`${activityActionSql(sql`a.action`)} = ${sql.raw(`'${query.action}'`)}`] : []),
    ...(query.entity ? [sql`a.entity = ${query.entity}`] : []),
  ];
}

/**
 * The index a part is read by: the one that leads with its narrowest filter (who, then what, then
 * about what), else the log by time at its location, or in the whole organization. Each gives the
 * log's order after its filter. Named rather than left to SQLite, which without statistics prefers
 * the index of the order to the one of a rare filter.
 */
function indexOf(query: ActivityQueryInput, byLocation: boolean): string {
  if (query.userId || query.user) return ACTIVITY_INDEX.user;
  if (query.action) return ACTIVITY_INDEX.action;
  if (query.entity) return ACTIVITY_INDEX.entity;
  return byLocation ? ACTIVITY_INDEX.location : ACTIVITY_INDEX.at;
}

/** The organization's users, or none (a jobs worker's row, a sign-in at an address no account has). */
function organizationRow(actor: ScopedActor): SQL {
  return sql`(a.user_id IS NULL OR a.user_id IN (SELECT id FROM users WHERE organization_id = ${organizationOf(actor)}))`;
}

/**
 * Actions always filed at a location, though about something that is not (a stock adjustment or a
 * par level of a variation, a role at a location): with LOCATED_ENTITIES, what tells a filter that
 * cannot match a row filed at no location.
 */
const LOCATED_ACTIONS: ReadonlySet<ActivityAction> = new Set<ActivityAction>([
  "receive_vials",
  "start_vial",
  "draw_units",
  "empty_vial",
  "discard_vial",
  "adjust_stock",
  "set_par_level",
  "clear_par_level",
  "open_receipt",
  "add_receipt_line",
  "remove_receipt_line",
  "cancel_receipt",
  "grant_role",
  "change_role",
  "revoke_role",
  "create_location",
  "update_location",
  "archive_location",
  "restore_location",
  "create_printer_profile",
  "update_printer_profile",
  "archive_printer_profile",
  "restore_printer_profile",
  "audit_complete",
  "transfer_complete",
  "flag_offline_command",
  "resolve_offline_flag",
]);

/** Whether `query` can match a row filed at no location (else its part is not read at all). */
function mayBeOrganizationWide(query: ActivityQueryInput): boolean {
  if (query.entity && LOCATED_ENTITIES.includes(query.entity)) return false;
  return !(query.action && LOCATED_ACTIONS.has(query.action));
}

/**
 * The parts of what the reader may see that match `query` (see the head of this file), each a
 * WHERE over `a` with its index. None: the reader sees nothing here (no READ_ACTIVITY where they stand).
 */
function partsOf(actor: ScopedActor, query: ActivityQueryInput): Part[] {
  const reach = locationsFor(actor, "READ_ACTIVITY");
  // Organization mode is the organization admins' only (whatever a cookie says).
  const organizationMode = actor.locationId === ORGANIZATION && isOrganizationAdmin(actor);
  if (reach.ids.length === 0 && !organizationMode) return [];
  const terms = filterTerms(actor, query);
  const part = (scope: SQL, index?: string): Part => ({
    index: index ?? indexOf(query, true),
    where: sql.join([scope, ...terms], sql` AND `),
  });
  const unplaced = sql`a.location_id IS NULL`;
  const byUser = Boolean(query.userId || query.user);

  if (organizationMode) {
    if (query.locationId === NO_LOCATION) {
      if (!mayBeOrganizationWide(query)) return [];
      // By user: their rows at no location (a partial index of only those); else by the filter's
      // index, or the location index at NULL.
      return [part(sql`${unplaced} AND ${organizationRow(actor)}`, byUser ? ACTIVITY_INDEX.userUnplaced : undefined)];
    }
    if (query.locationId)
      return [part(sql`a.location_id = ${query.locationId} AND ${reach.where(sql`a.location_id`)}`)];
    // Every row of the organization: read in the log's order (or its filter's), each row's place
    // checked as it comes (the unary plus keeps the planner off the location index, whose IN would
    // sort every match).
    return [
      part(
        sql`(+a.location_id IN (SELECT id FROM locations WHERE organization_id = ${organizationOf(actor)})
          OR (${unplaced} AND ${organizationRow(actor)}))`,
        indexOf(query, false),
      ),
    ];
  }
  const here = reach.ids[0] as string;
  // Another location's rows are not there from here (switch location, ADR 0014).
  if (query.locationId && query.locationId !== here && query.locationId !== NO_LOCATION) return [];
  const located = query.locationId === NO_LOCATION ? [] : [part(sql`a.location_id = ${here}`)];
  if (query.locationId === here || !mayBeOrganizationWide(query)) return located;
  // The organization-wide rows a location's reader sees, each kind by a partial index holding only
  // it, so neither walks everyone's sign-ins: the catalogue's, and the reader's own (their
  // catalogue changes are the first kind's).
  const catalogue = catalogueUnplacedSql({ locationId: sql`a.location_id`, entity: sql`a.entity` });
  const aboutCatalogue = !query.entity || CATALOGUE_ENTITIES.includes(query.entity);
  const mine = !query.userId || query.userId === actor.id;
  return [
    ...located,
    ...(aboutCatalogue ? [part(catalogue, ACTIVITY_INDEX.catalogueUnplaced)] : []),
    ...(mine
      ? [part(sql`${unplaced} AND a.user_id = ${actor.id} AND NOT (${catalogue})`, ACTIVITY_INDEX.userUnplaced)]
      : []),
  ];
}

/** The ids and sort keys of one part's rows on the page `keyset` asks for, by its index alone. */
function partPage(part: Part, keyset: Keyset): SQL {
  const past = PAGES.where(keyset);
  return sql`SELECT * FROM (SELECT a.id, a.at FROM activity_log AS a INDEXED BY ${sql.identifier(part.index)}
    WHERE ${part.where}${past ? sql` AND ${past}` : sql``}
    ORDER BY ${PAGES.orderBy(keyset)} LIMIT ${PAGES.limit(keyset)})`;
}

const COLUMNS = sql`a.id, a.at, a.action, a.entity, a.entity_id AS entityId, a.summary, a.user_id AS userId,
  CASE WHEN who.id IS NULL THEN NULL ELSE who.first_name || ' ' || who.last_name END AS userName,
  a.location_id AS locationId, l.name AS locationName, l.code AS locationCode, l.timezone AS timeZone`;

/**
 * The rows of the page `keyset` asks for, in its reading order, with their names: each part's page
 * of ids by its index, merged and cut to the page, and only those rows joined (CROSS JOIN keeps
 * that order). No parts: no rows.
 */
function pageStatement(db: Database, parts: readonly Part[], keyset: Keyset) {
  if (parts.length === 0)
    return db.all<ActivityRow>(sql`SELECT ${COLUMNS} FROM activity_log AS a
    LEFT JOIN users AS who ON who.id = a.user_id LEFT JOIN locations AS l ON l.id = a.location_id WHERE 0`);
  const merged = sql.join(
    parts.map((part) => partPage(part, keyset)),
    sql` UNION ALL `,
  );
  const hitOrder = HIT_PAGES.orderBy(keyset);
  return db.all<ActivityRow>(sql`SELECT ${COLUMNS}
    FROM (SELECT id, at FROM (${merged}) AS hit ORDER BY ${hitOrder} LIMIT ${PAGES.limit(keyset)}) AS hit
    CROSS JOIN activity_log AS a ON a.id = hit.id
    LEFT JOIN users AS who ON who.id = a.user_id
    LEFT JOIN locations AS l ON l.id = a.location_id
    ORDER BY ${hitOrder}`);
}

/** The capped count of the rows the parts match: at most COUNT_CAP + 1 read, over the parts' indexes. */
function countStatement(db: Database, parts: readonly Part[]) {
  const union =
    parts.length === 0
      ? sql`SELECT 1 WHERE 0`
      : sql.join(
          parts.map(
            (part) => sql`SELECT 1 FROM activity_log AS a INDEXED BY ${sql.identifier(part.index)} WHERE ${part.where}`,
          ),
          sql` UNION ALL `,
        );
  return db.all<{ total: number }>(cappedCountSql(sql`FROM (${union})`));
}

export interface ActivityPage extends CursorPage<ActivityLogEntry> {
  pageSize: number;
  /** Matching rows, counted up to the cap; `totalExact` is false beyond it ("1,000+"). */
  total: number;
  totalExact: boolean;
}

/**
 * The /activity-log screen: the page, its count, the locations the filter offers (organization
 * mode) and the user a `userId` names, one batch. A cursor the log did not make shows the first page.
 */
export async function activityScreen(db: Database, actor: ScopedActor, query: ActivityQueryInput) {
  const keyset = firstPage(PAGES.keyset(query), query.pageSize);
  const parts = partsOf(actor, query);
  const organization = organizationOf(actor);
  const [rows, totals, locations, chosen, matched] = await db.batch([
    pageStatement(db, parts, keyset),
    countStatement(db, parts),
    db.all<{ id: string; name: string; code: string }>(
      actor.locationId === ORGANIZATION && isOrganizationAdmin(actor)
        ? sql`SELECT id, name, code FROM locations WHERE organization_id = ${organization} ORDER BY active DESC, code, id`
        : sql`SELECT id, name, code FROM locations WHERE id = ${actor.locationId ?? ""}`,
    ),
    db.all<{ id: string; label: string }>(sql`SELECT id, first_name || ' ' || last_name || ' (' || email || ')' AS label
      FROM users WHERE id = ${query.userId || ""} AND organization_id = ${organization}`),
    // The users a name search finds, to choose from when it finds more than one.
    db.all<{ id: string; label: string }>(
      query.user && !query.userId
        ? sql`SELECT id, first_name || ' ' || last_name || ' (' || email || ')' AS label ${usersMatching(actor, query.user)}
            ORDER BY lower(first_name), lower(last_name), id LIMIT ${USER_CHOICES + 1}`
        : sql`SELECT NULL AS id, NULL AS label WHERE 0`,
    ),
  ]);
  const page = PAGES.page(rows, totals[0]?.total, keyset, entryOf);
  return {
    ...page,
    locations,
    chosenUser: chosen[0] ?? null,
    // More than one user found: the list is empty until one is chosen.
    userChoices: matched.length > 1 ? matched : [],
    timeZone: timeZoneHere(actor),
  };
}

/** Rows a CSV page reads: large enough to be few round trips, small enough for a Worker's memory. */
export const ACTIVITY_CSV_PAGE = 500;

/**
 * Every row matching `query` the reader may see, newest first, a page at a time by the log's own
 * keyset: each page is one query, read only when the one before has been sent.
 */
export async function* activityPages(
  db: Database,
  actor: ScopedActor,
  query: ActivityQueryInput,
  pageSize = ACTIVITY_CSV_PAGE,
): AsyncGenerator<ActivityLogEntry[]> {
  const parts = partsOf(actor, query);
  for await (const rows of keysetWalk((keyset) => pageStatement(db, parts, keyset), keyOf, pageSize)) {
    yield rows.map(entryOf);
  }
}

/**
 * The newest `limit` rows the reader may see, unfiltered: the log's first page as one statement for
 * a caller's batch (the dashboard's recent activity), and the entries of its rows. Same rule of who
 * sees which rows as the log itself.
 */
export function recentActivityQuery(db: Database, actor: ScopedActor, limit: number) {
  const keyset: Keyset = { direction: null, key: null, pageSize: limit };
  return {
    statement: pageStatement(db, partsOf(actor, ActivityQuery.parse({ pageSize: limit })), keyset),
    entries: (rows: readonly ActivityRow[]) => rows.slice(0, limit).map(entryOf),
  };
}
