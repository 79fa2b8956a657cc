// What the usage log, its CSV and GET /api/usage read: the usage entries (units drawn for a
// treatment) at the locations the reader reaches with READ_INVENTORY (every location of the
// organization in organization mode), filtered, newest first. Pages go by keyset with a capped
// count (ADR 0018): a page and its count are one batch, and the CSV walks the same keyset a page
// at a time, so no page and no export reads more than it shows.
import { type SQL, sql } from "drizzle-orm";
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { ORGANIZATION } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { chosenProduct, productIdsMatching, variationIdsOf } from "~/catalog/search.server";
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
import { anyContains, organizationOf } from "~/db/sql.server";
import { type ReadFilters, readFilters } from "~/http/filters.server";
import type { UsageEntry } from "~/stock/usage-entry";
import { startOfDayIn } from "~/ui/dates";
import { USAGE_INDEX } from "../../db/schema/stock/usage-entries";
import { UsageQuery, type UsageQueryInput } from "./query";

/** The log's query of a request's search parameters, and what is wrong with any filter it cannot use. */
export function readUsageQuery(params: URLSearchParams): ReadFilters<UsageQueryInput> {
  return readFilters(UsageQuery, Object.fromEntries(params));
}

/** One usage entry as the log shows it (a draw's answer, with where, what and who by name). */
export interface UsageLogEntry extends UsageEntry {
  labelCode: string | null;
  locationId: string;
  location: { name: string; code: string; timeZone: string };
  productId: string;
  productName: string;
  variationId: string;
  variationName: string;
  lot: string | null;
  /** The name of who recorded it. */
  recordedBy: string | null;
}

/** A row as read: the location flat, the time in ms, the unit to format with. */
type UsageRow = Omit<UsageLogEntry, "usedAt" | "location" | "unitsText"> & {
  usedAt: number;
  locationName: string;
  locationCode: string;
  timeZone: string;
  baseUnit: string;
  unitScale: number;
};

function entryOf(row: UsageRow): UsageLogEntry {
  const { usedAt, locationName, locationCode, timeZone, unitScale, baseUnit, ...rest } = row;
  return {
    ...rest,
    usedAt: new Date(Number(usedAt)),
    location: { name: locationName, code: locationCode, timeZone },
    units: Number(row.units),
    unitsText: formatQuantity(Number(row.units), Number(unitScale) as UnitScale, baseUnit),
  };
}

const COLUMNS = sql`u.id, u.used_at AS usedAt, u.item_id AS itemId, i.label_code AS labelCode,
  l.id AS locationId, l.name AS locationName, l.code AS locationCode, l.timezone AS timeZone,
  p.id AS productId, p.name AS productName, v.id AS variationId, v.name AS variationName, u.lot, u.units,
  p.base_unit AS baseUnit, p.unit_scale AS unitScale, u.service_id AS serviceId, s.name AS serviceName,
  u.provider, u.patient_ref AS patientRef, u.user_id AS userId,
  CASE WHEN who.id IS NULL THEN NULL ELSE who.first_name || ' ' || who.last_name END AS recordedBy`;

/** The names an entry is shown with, joined to `u` (a page's rows, or a recall's uses). */
const JOINS = sql`JOIN locations AS l ON l.id = u.location_id
  JOIN product_variations AS v ON v.id = u.variation_id
  JOIN products AS p ON p.id = v.product_id
  LEFT JOIN items AS i ON i.id = u.item_id
  LEFT JOIN services AS s ON s.id = u.service_id
  LEFT JOIN users AS who ON who.id = u.user_id`;

/** The log's order, newest first; entries of the same instant by id, so the key is unique. */
const USAGE_KEYS: readonly SortKey[] = [
  { sql: sql`u.used_at`, type: "integer", desc: true },
  { sql: sql`u.id`, type: "text", desc: true },
];

/** The sort key of an entry as read, for the cursors. */
const keyOf = (row: UsageRow) => [Number(row.usedAt), row.id];

const USAGE_PAGES = keysetList(USAGE_KEYS, keyOf);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The WHERE, on the usage table alone, of the entries the actor reaches that match `query`. The
 * locations reached are the organization's, which scopes the rest. The dates are whole days in the
 * zone of the location in scope (UTC in organization mode): from the first instant of `from` to
 * the end of `to`.
 */
function usageWhere(actor: ScopedActor, query: UsageQueryInput): SQL {
  const timeZone = timeZoneHere(actor);
  const from = query.from ? startOfDayIn(query.from, timeZone) : null;
  const toStart = query.to ? startOfDayIn(query.to, timeZone) : null;
  // The day after `to` begins (a whole day later at noon, then back to its midnight: DST-proof).
  const toEnd =
    toStart === null
      ? null
      : startOfDayIn(new Date(toStart + DAY_MS + DAY_MS / 2).toISOString().slice(0, 10), timeZone);
  const filters: SQL[] = [
    locationsFor(actor, "READ_INVENTORY").where(sql`u.location_id`),
    ...(from === null ? [] : [sql`u.used_at >= ${from}`]),
    ...(toEnd === null ? [] : [sql`u.used_at < ${toEnd}`]),
    ...(query.productId ? [sql`u.variation_id IN ${variationIdsOf(query.productId)}`] : []),
    // The variations of the products the search matches, as the catalogue's own search finds them.
    ...(query.product ? [sql`u.variation_id IN ${variationIdsOf(productIdsMatching(actor, query.product))}`] : []),
    ...(query.variationId ? [sql`u.variation_id = ${query.variationId}`] : []),
    ...(query.lot ? [sql`u.lot = ${query.lot}`] : []),
    ...(query.serviceId ? [sql`u.service_id = ${query.serviceId}`] : []),
    // A contains match has no index: it is checked on the entries the other filters leave, in the
    // index they are read by, until a page (or the count's cap) is found; when almost none match,
    // that is every one of them (see usageIndex).
    ...(query.provider ? [anyContains(query.provider, [sql`u.provider`])] : []),
    // A chart number is matched whole, ignoring case: it is an identifier, not text to search.
    ...(query.patientRef ? [sql`lower(u.patient_ref) = lower(${query.patientRef})`] : []),
  ];
  return sql.join(filters, sql` AND `);
}

/**
 * The index the entries matching `query` are read by: the one that leads with its narrowest filter
 * (a patient's few, a lot's hundreds, a variation's or the products', a service's), else the log by
 * time at the location or in the whole organization. Each gives the log's order after its filter,
 * so a page stops at its last row and a count at its cap. Named rather than left to SQLite, which
 * without statistics prefers the index of the order (a walk of the whole location past every row
 * of a rare filter) to the one of the filter.
 */
function usageIndex(actor: ScopedActor, query: UsageQueryInput): string {
  if (query.patientRef) return USAGE_INDEX.patient;
  if (query.lot) return USAGE_INDEX.lot;
  if (query.variationId || query.productId || query.product) return USAGE_INDEX.variation;
  if (query.serviceId) return USAGE_INDEX.service;
  return actor.locationId === ORGANIZATION ? USAGE_INDEX.organization : USAGE_INDEX.location;
}

/** The entries matching `query` that the actor reaches, as `FROM … WHERE …` over its index. */
function usageMatching(actor: ScopedActor, query: UsageQueryInput): SQL {
  const index = sql.identifier(usageIndex(actor, query));
  return sql`FROM usage_entries AS u INDEXED BY ${index} WHERE ${usageWhere(actor, query)}`;
}

/**
 * The entries of the page `keyset` asks for, in its reading order, with their names. The page's
 * ids are found first on the usage table's indexes alone; only those rows are then joined (CROSS
 * JOIN: SQLite keeps that order, rather than walking the table to look each row up in the page).
 */
function pageStatement(db: Database, matching: SQL, keyset: Keyset) {
  const past = USAGE_PAGES.where(keyset);
  const order = USAGE_PAGES.orderBy(keyset);
  return db.all<UsageRow>(sql`SELECT ${COLUMNS}
    FROM (SELECT u.id ${matching}${past ? sql` AND ${past}` : sql``}
      ORDER BY ${order} LIMIT ${USAGE_PAGES.limit(keyset)}) AS hit
    CROSS JOIN usage_entries AS u ON u.id = hit.id ${JOINS}
    ORDER BY ${order}`);
}

/** The page and its capped count, as two statements for the caller's batch. */
function pageStatements(db: Database, matching: SQL, keyset: Keyset) {
  return [pageStatement(db, matching, keyset), db.all<{ total: number }>(cappedCountSql(matching))] as const;
}

/** A page as the log answers it: the entries, the cursors either way, the capped count. */
function usagePage(rows: UsageRow[], totals: { total: number }[], keyset: Keyset) {
  return USAGE_PAGES.page(rows, totals[0]?.total, keyset, entryOf);
}

/** Every use of one lot of a variation the actor reaches, newest first: a recall report's statement. */
export function lotUses(db: Database, actor: ScopedActor, variationId: string, lot: string) {
  const where = usageWhere(actor, { ...UsageQuery.parse({}), variationId, lot });
  return db.all<UsageRow>(
    sql`SELECT ${COLUMNS} FROM usage_entries AS u ${JOINS} WHERE ${where} ORDER BY u.used_at DESC, u.id DESC`,
  );
}

/** A row of `lotUses` as the log shows it. */
export { entryOf as usageEntryOf };

export interface UsagePage extends CursorPage<UsageLogEntry> {
  pageSize: number;
  /** Matching entries, counted up to the cap; `totalExact` is false beyond it ("1,000+"). */
  total: number;
  totalExact: boolean;
}

/**
 * The page `query` asks for (`after` / `before`) as GET /api/usage answers it, {items, next,
 * previous, pageSize, total, totalExact}, in one batch; null when its cursor is not one the log made.
 */
export async function readUsage(db: Database, actor: ScopedActor, query: UsageQueryInput): Promise<UsagePage | null> {
  const keyset = USAGE_PAGES.keyset(query);
  if (!keyset) return null;
  const [rows, totals] = await db.batch(pageStatements(db, usageMatching(actor, query), keyset));
  return usagePage(rows, totals, keyset);
}

/**
 * The /usage-log screen: the page, its count and the services the filter offers (products are
 * searched by name: a select of a chain's thousands would outweigh the page), one batch; the zone
 * the dates are read in comes with the session. A cursor the log did not make (edited, or another
 * list's) shows the first page.
 */
export async function usageScreen(db: Database, actor: ScopedActor, query: UsageQueryInput) {
  const keyset = firstPage(USAGE_PAGES.keyset(query), query.pageSize);
  const [rows, totals, services, chosen] = await db.batch([
    ...pageStatements(db, usageMatching(actor, query), keyset),
    db.all<{ id: string; name: string }>(sql`SELECT id, name FROM services
      WHERE organization_id = ${organizationOf(actor)} ORDER BY active DESC, lower(name), id`),
    chosenProduct(db, actor, query),
  ]);
  return { ...usagePage(rows, totals, keyset), services, chosen: chosen[0] ?? null, timeZone: timeZoneHere(actor) };
}

/** Rows a CSV page reads: large enough to be few round trips, small enough for a Worker's memory. */
export const USAGE_CSV_PAGE = 500;

/**
 * Every entry matching `query`, newest first, a page at a time by the log's own keyset: each page
 * is one query, and a page is read only when the one before has been sent.
 */
export async function* usagePages(
  db: Database,
  actor: ScopedActor,
  query: UsageQueryInput,
  pageSize = USAGE_CSV_PAGE,
): AsyncGenerator<UsageLogEntry[]> {
  const matching = usageMatching(actor, query);
  for await (const rows of keysetWalk((keyset) => pageStatement(db, matching, keyset), keyOf, pageSize)) {
    yield rows.map(entryOf);
  }
}
