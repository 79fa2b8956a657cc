// What the usage log, its CSV and GET /api/usage read: the usage entries (units drawn for a
// treatment) at the locations the reader reaches with READ_INVENTORY (every location of the
// organization in organization mode), filtered, newest first. A page and its total are one batch;
// the CSV walks the same rows by keyset, a page at a time, so no export holds the whole log.
import { type SQL, sql } from "drizzle-orm";
import { type ScopedActor, timeZoneHere } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { anyContains, organizationOf } from "~/db/sql.server";
import { formatQuantity, type UnitScale } from "~/products/format";
import { serializedVariationChoices } from "~/products/list.server";
import { startOfDayIn } from "~/ui/dates";
import type { UsageEntry } from "~/vials/usage-entry";
import { UsageQuery, type UsageQueryInput } from "./query";

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

const JOINS = sql`FROM usage_entries AS u
  JOIN locations AS l ON l.id = u.location_id
  JOIN product_variations AS v ON v.id = u.variation_id
  JOIN products AS p ON p.id = v.product_id
  LEFT JOIN items AS i ON i.id = u.item_id
  LEFT JOIN services AS s ON s.id = u.service_id
  LEFT JOIN users AS who ON who.id = u.user_id`;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The WHERE of the entries the actor reaches that match `query`. The dates are whole days in the
 * zone of the location in scope (UTC in organization mode): from its first instant to the end of `to`.
 */
function usageWhere(actor: ScopedActor, query: UsageQueryInput): SQL {
  const reach = locationsFor(actor, "READ_INVENTORY");
  const timeZone = timeZoneHere(actor);
  const from = query.from ? startOfDayIn(query.from, timeZone) : null;
  const toStart = query.to ? startOfDayIn(query.to, timeZone) : null;
  // The day after `to` begins (a whole day later at noon, then back to its midnight: DST-proof).
  const toEnd =
    toStart === null
      ? null
      : startOfDayIn(new Date(toStart + DAY_MS + DAY_MS / 2).toISOString().slice(0, 10), timeZone);
  const filters: SQL[] = [
    reach.where(sql`u.location_id`),
    sql`p.organization_id = ${organizationOf(actor)}`,
    ...(from === null ? [] : [sql`u.used_at >= ${from}`]),
    ...(toEnd === null ? [] : [sql`u.used_at < ${toEnd}`]),
    ...(query.productId ? [sql`p.id = ${query.productId}`] : []),
    ...(query.variationId ? [sql`u.variation_id = ${query.variationId}`] : []),
    ...(query.lot ? [sql`u.lot = ${query.lot}`] : []),
    ...(query.serviceId ? [sql`u.service_id = ${query.serviceId}`] : []),
    ...(query.provider ? [anyContains(query.provider, [sql`u.provider`])] : []),
    // A chart number is matched whole, ignoring case: it is an identifier, not text to search.
    ...(query.patientRef ? [sql`lower(u.patient_ref) = lower(${query.patientRef})`] : []),
  ];
  return sql.join(filters, sql` AND `);
}

/** The page of entries and the total matching, as two statements for the caller's batch. */
function pageStatements(db: Database, where: SQL, query: UsageQueryInput) {
  return [
    db.all<UsageRow>(sql`SELECT ${COLUMNS} ${JOINS} WHERE ${where}
      ORDER BY u.used_at DESC, u.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`),
    db.all<{ total: number }>(sql`SELECT count(*) AS total ${JOINS} WHERE ${where}`),
  ] as const;
}

/** Every use of one lot of a variation the actor reaches, newest first: a recall report's statement. */
export function lotUses(db: Database, actor: ScopedActor, variationId: string, lot: string) {
  const where = usageWhere(actor, { ...UsageQuery.parse({}), variationId, lot });
  return db.all<UsageRow>(sql`SELECT ${COLUMNS} ${JOINS} WHERE ${where} ORDER BY u.used_at DESC, u.id DESC`);
}

/** A row of `lotUses` as the log shows it. */
export { entryOf as usageEntryOf };

export interface UsagePage {
  items: UsageLogEntry[];
  page: number;
  pageSize: number;
  total: number;
}

/** A page of the log, {items, page, pageSize, total}: GET /api/usage. One batch. */
export async function readUsage(db: Database, actor: ScopedActor, query: UsageQueryInput): Promise<UsagePage> {
  const where = usageWhere(actor, query);
  const [rows, totals] = await db.batch(pageStatements(db, where, query));
  return { items: rows.map(entryOf), page: query.page, pageSize: query.pageSize, total: Number(totals[0]?.total ?? 0) };
}

/**
 * The /usage-log screen: the page, its total and what the filters offer (the organization's
 * serialized products and their variations, its services; the zone the dates are read in comes
 * with the session), one batch.
 */
export async function usageScreen(db: Database, actor: ScopedActor, query: UsageQueryInput) {
  const organization = organizationOf(actor);
  const where = usageWhere(actor, query);
  const [rows, totals, variations, services] = await db.batch([
    ...pageStatements(db, where, query),
    serializedVariationChoices(db, actor),
    db.all<{ id: string; name: string }>(sql`SELECT id, name FROM services
      WHERE organization_id = ${organization} ORDER BY active DESC, lower(name), id`),
  ]);
  return {
    items: rows.map(entryOf),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(totals[0]?.total ?? 0),
    variations,
    services,
    timeZone: timeZoneHere(actor),
  };
}

/** Rows a CSV page reads: large enough to be few round trips, small enough for a Worker's memory. */
export const USAGE_CSV_PAGE = 500;

/**
 * Every entry matching `query`, newest first, a page at a time by keyset (the last row's time and
 * id): each page is one query, and a page is read only when the one before has been sent.
 */
export async function* usagePages(
  db: Database,
  actor: ScopedActor,
  query: UsageQueryInput,
  pageSize = USAGE_CSV_PAGE,
): AsyncGenerator<UsageLogEntry[]> {
  const where = usageWhere(actor, query);
  let after: { usedAt: number; id: string } | null = null;
  for (;;) {
    const keyset: SQL = after
      ? sql`AND (u.used_at < ${after.usedAt} OR (u.used_at = ${after.usedAt} AND u.id < ${after.id}))`
      : sql``;
    const rows: UsageRow[] = await db.all<UsageRow>(sql`SELECT ${COLUMNS} ${JOINS} WHERE ${where} ${keyset}
      ORDER BY u.used_at DESC, u.id DESC LIMIT ${pageSize}`);
    if (rows.length) yield rows.map(entryOf);
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    after = { usedAt: Number(last.usedAt), id: last.id };
  }
}
