// What the transfers verbs and screens read: a transfer with its lines, if the reader reaches it
// (READ_TRANSFERS at its sending or receiving location), and a keyset page of the transfers from or
// to the locations in scope. Also the reach the verbs' SQL guards use: a permission at the
// transfer's sending or receiving location, from where the actor stands (ADR 0014).
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Permission } from "~/access/permissions";
import { locationsFor, reachesAt } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { cappedCountSql, type KeyValue, keysetList, type SortKey } from "~/db/keyset.server";
import { inTransitLinesSql } from "~/stock/in-transit.server";
import { lotRecalled } from "~/stock/quarantine.server";
import { pastDeadline } from "~/stock/usable.server";
import type { TransferLineStatus, TransferStatus } from "./constants";

/** SQL: the location column is one where the actor holds `permission` from where they stand. */
export function reached(actor: ScopedActor, permission: Permission, column: SQL): SQL {
  return locationsFor(actor, permission).where(column);
}

/** SQL: the transfer aliased `t` is reached for `permission` at its sender or its destination. */
export function eitherSide(actor: ScopedActor, permission: Permission, t = "t"): SQL {
  const alias = sql.raw(t);
  return sql`(${reached(actor, permission, sql`${alias}.from_location_id`)} OR ${reached(actor, permission, sql`${alias}.to_location_id`)})`;
}

/** SQL: the activity row `id` was written in this batch (the guarded change happened). */
export function happened(activityId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
}

export interface TransferLine {
  id: string;
  variationId: string;
  itemId: string | null;
  labelCode: string | null;
  product: string;
  variation: string;
  lot: string | null;
  expirationDate: string | null;
  quantity: number;
  status: TransferLineStatus;
  quantityReceived: number | null;
  reason: string | null;
  receivedBy: string | null;
  receivedAt: number | null;
  resolvedBy: string | null;
  resolvedAt: number | null;
  resolutionNote: string | null;
  /** The vial as it is now (null for a bulk line). */
  itemState: string | null;
  itemLocationId: string | null;
  itemUnits: number | null;
  recalled: boolean;
  /** A vial past its expiration date as read (a sealed one cannot be sent). */
  expired: boolean;
  unitScale: UnitScale;
  baseUnit: string;
  unitsPerPackage: number;
}

export interface Transfer {
  id: string;
  status: TransferStatus;
  fromLocationId: string;
  fromName: string;
  fromCode: string;
  toLocationId: string;
  toName: string;
  toCode: string;
  timezone: string;
  note: string | null;
  createdBy: string | null;
  createdAt: number;
  requestedBy: string | null;
  requestedAt: number | null;
  sentBy: string | null;
  sentAt: number | null;
  receivedAt: number | null;
  cancelledBy: string | null;
  cancelledAt: number | null;
  cancelReason: string | null;
  recalledAt: number | null;
  lines: TransferLine[];
}

const person = (column: string) =>
  sql.raw(`(SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = ${column})`);

const HEAD_COLUMNS = sql`t.id, t.status, t.from_location_id AS fromLocationId, f.name AS fromName, f.code AS fromCode,
  t.to_location_id AS toLocationId, d.name AS toName, d.code AS toCode, f.timezone, t.note,
  ${person("t.created_by")} AS createdBy, t.created_at AS createdAt, ${person("t.requested_by")} AS requestedBy,
  t.requested_at AS requestedAt, ${person("t.sent_by")} AS sentBy, t.sent_at AS sentAt, t.received_at AS receivedAt,
  ${person("t.cancelled_by")} AS cancelledBy, t.cancelled_at AS cancelledAt, t.cancel_reason AS cancelReason,
  t.recalled_at AS recalledAt`;

const HEAD_FROM = sql`FROM transfers AS t JOIN locations AS f ON f.id = t.from_location_id
  JOIN locations AS d ON d.id = t.to_location_id`;

/** The lines of transfer `transferId`, oldest first, with what each carries and the vial as it is now. */
export function linesQuery(db: Database, transferId: string, now = new Date()) {
  return db.all<
    Omit<TransferLine, "recalled" | "expired"> & { recalled: number; expired: number }
  >(sql`SELECT l.id, l.variation_id AS variationId,
      l.item_id AS itemId, i.label_code AS labelCode, p.name AS product, v.name AS variation, l.lot,
      i.expiration_date AS expirationDate, l.quantity, l.status, l.quantity_received AS quantityReceived, l.reason,
      ${person("l.received_by")} AS receivedBy, l.received_at AS receivedAt, ${person("l.resolved_by")} AS resolvedBy,
      l.resolved_at AS resolvedAt, l.resolution_note AS resolutionNote, i.state AS itemState,
      i.location_id AS itemLocationId, i.units_remaining AS itemUnits,
      CASE WHEN i.id IS NULL THEN 0 ELSE ${lotRecalled("i")} END AS recalled,
      CASE WHEN i.id IS NULL THEN 0 ELSE ${pastDeadline("i", now)} END AS expired,
      p.unit_scale AS unitScale, p.base_unit AS baseUnit, v.units_per_package AS unitsPerPackage
    FROM transfer_lines AS l JOIN product_variations AS v ON v.id = l.variation_id
    JOIN products AS p ON p.id = v.product_id LEFT JOIN items AS i ON i.id = l.item_id
    WHERE l.transfer_id = ${transferId} ORDER BY l.created_at, l.id`);
}

/** One transfer with its lines, if the actor reaches it (READ_TRANSFERS at either end); else null. */
export async function readTransfer(db: Database, actor: ScopedActor, transferId: string): Promise<Transfer | null> {
  const [heads, lines] = await db.batch([
    db.all<Omit<Transfer, "lines">>(sql`SELECT ${HEAD_COLUMNS} ${HEAD_FROM}
      WHERE t.id = ${transferId} AND ${eitherSide(actor, "READ_TRANSFERS")}`),
    linesQuery(db, transferId),
  ]);
  const head = heads[0];
  if (!head) return null;
  return { ...head, lines: lines.map((l) => ({ ...l, recalled: Boolean(l.recalled), expired: Boolean(l.expired) })) };
}

/** What the reader may do on a transfer, each with why not (shown where the action would have been). */
export interface TransferMay {
  fill: boolean;
  send: boolean;
  receive: boolean;
  resolve: boolean;
  cancel: boolean;
  recall: boolean;
}

export function mayOn(actor: ScopedActor, t: Pick<Transfer, "fromLocationId" | "toLocationId">): TransferMay {
  const atSender = reachesAt(actor, "WRITE_TRANSFERS", t.fromLocationId);
  const atDestination = reachesAt(actor, "WRITE_TRANSFERS", t.toLocationId);
  return {
    fill: atSender,
    send: atSender,
    receive: reachesAt(actor, "WRITE_INVENTORY", t.toLocationId),
    resolve: atSender || atDestination,
    cancel: atSender || atDestination,
    recall: atSender,
  };
}

/** A transfer as its list shows it: its head, and what its lines carry, counted. */
export interface TransferListRow
  extends Pick<
    Transfer,
    | "id"
    | "status"
    | "fromLocationId"
    | "fromName"
    | "fromCode"
    | "toLocationId"
    | "toName"
    | "toCode"
    | "timezone"
    | "note"
    | "createdBy"
    | "requestedBy"
    | "sentBy"
    | "createdAt"
    | "sentAt"
    | "receivedAt"
  > {
  vials: number;
  bulkLines: number;
  pending: number;
  openDiscrepancies: number;
}

const LIST_KEYS: readonly SortKey[] = [
  { sql: sql`t.created_at`, type: "integer", desc: true },
  { sql: sql`t.id`, type: "text", desc: true },
];

export const transferList = keysetList<TransferListRow>(LIST_KEYS, (r) => [r.createdAt, r.id] as KeyValue[]);

export interface TransferListQuery {
  /** The locations whose transfers are listed (sent from or coming to them). */
  locationIds: readonly string[];
  status: TransferStatus | null;
  /** "from": sent from them; "to": coming to them; null: both. */
  direction?: "from" | "to" | null;
  after?: string;
  before?: string;
  pageSize: number;
}

/**
 * The statements of a keyset page of the transfers from or to `locationIds` (newest first), for the
 * caller's batch (`transferPageOf` reads them); null for a cursor this list did not make.
 */
export function transferListQueries(db: Database, query: TransferListQuery) {
  const keyset = transferList.keyset(query);
  if (!keyset) return null;
  const ids = query.locationIds.length ? query.locationIds : ["-"];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const sides =
    query.direction === "from"
      ? sql`t.from_location_id IN (${list})`
      : query.direction === "to"
        ? sql`t.to_location_id IN (${list})`
        : sql`(t.from_location_id IN (${list}) OR t.to_location_id IN (${list}))`;
  const where = sql`${sides} ${query.status ? sql`AND t.status = ${query.status}` : sql``}`;
  const order = transferList.orderBy(keyset);
  return {
    keyset,
    statements: [
      db.all<TransferListRow>(sql`${transferList.pageFirst(keyset, sql`t.id`, sql`FROM transfers AS t WHERE ${where}`)}
        SELECT t.id, t.status, t.from_location_id AS fromLocationId, f.name AS fromName,
        f.code AS fromCode, t.to_location_id AS toLocationId, d.name AS toName, d.code AS toCode, f.timezone, t.note,
        ${person("t.created_by")} AS createdBy, ${person("t.requested_by")} AS requestedBy,
        ${person("t.sent_by")} AS sentBy, t.created_at AS createdAt, t.sent_at AS sentAt, t.received_at AS receivedAt,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.item_id IS NOT NULL) AS vials,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.item_id IS NULL) AS bulkLines,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id AND l.status = 'pending') AS pending,
        (SELECT count(*) FROM transfer_lines AS l WHERE l.transfer_id = t.id
          AND l.status IN ('missing', 'damaged', 'short') AND l.resolved_at IS NULL) AS openDiscrepancies
      FROM page CROSS JOIN transfers AS t ON t.id = page.id JOIN locations AS f ON f.id = t.from_location_id
        JOIN locations AS d ON d.id = t.to_location_id
      ORDER BY ${order}`),
      db.all<{ total: number }>(cappedCountSql(sql`FROM transfers AS t WHERE ${where}`)),
    ] as const,
  };
}

/** The page read by `transferListQueries`' statements (their results, in order). */
export function transferPageOf(
  results: readonly unknown[],
  keyset: NonNullable<ReturnType<typeof transferListQueries>>["keyset"],
) {
  const [rows, counted] = results as [TransferListRow[], { total: number }[]];
  return transferList.page(rows, counted[0]?.total, keyset, (r) => ({
    ...r,
    vials: Number(r.vials),
    bulkLines: Number(r.bulkLines),
    pending: Number(r.pending),
    openDiscrepancies: Number(r.openDiscrepancies),
  }));
}

/** A keyset page of the transfers from or to `locationIds` (newest first); null for a cursor it did not make. */
export async function listTransfers(db: Database, query: TransferListQuery) {
  const read = transferListQueries(db, query);
  if (!read) return null;
  return transferPageOf(await db.batch(read.statements), read.keyset);
}

/** The active locations of the actor's organization, by name: where a transfer may go or come from. */
export function activeLocations(db: Database, actor: ScopedActor) {
  return db.all<{ id: string; name: string; code: string }>(sql`SELECT id, name, code FROM locations
    WHERE organization_id = (SELECT organization_id FROM users WHERE id = ${actor.id}) AND active = 1
    ORDER BY name, id`);
}

/**
 * The statements of what is on the way to `locationIds` (the stock's lines in transit to them,
 * ~/stock/in-transit.server) and the open discrepancies of their transfers (both ends); `onTheWayOf` reads them. The
 * transfers screen and the dashboard's figures read these same two.
 */
export function onTheWayQueries(db: Database, locationIds: readonly string[]) {
  const ids = locationIds.length ? locationIds : ["-"];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  return [
    db.all<{ transfers: number; vials: number; bulkLines: number }>(sql`SELECT count(DISTINCT transferId) AS transfers,
        coalesce(sum(itemId IS NOT NULL), 0) AS vials, coalesce(sum(itemId IS NULL), 0) AS bulkLines
      FROM (${inTransitLinesSql(sql`(${list})`)})`),
    // The open discrepancies are few: led by the partial index that holds only those (CROSS JOIN
    // keeps it outer; else the planner walks every transfer of the locations), each transfer by its key.
    db.all<{
      n: number;
    }>(sql`SELECT count(*) AS n FROM transfer_lines AS l INDEXED BY transfer_lines_open_discrepancy_idx
      CROSS JOIN transfers AS t ON t.id = l.transfer_id
      WHERE l.status IN ('missing', 'damaged', 'short') AND l.resolved_at IS NULL
        AND (t.from_location_id IN (${list}) OR t.to_location_id IN (${list}))`),
  ] as const;
}

export function onTheWayOf(results: readonly unknown[]) {
  const [coming, open] = results as [{ transfers: number; vials: number; bulkLines: number }[], { n: number }[]];
  return {
    transfers: Number(coming[0]?.transfers ?? 0),
    vials: Number(coming[0]?.vials ?? 0),
    bulkLines: Number(coming[0]?.bulkLines ?? 0),
    openDiscrepancies: Number(open[0]?.n ?? 0),
  };
}

/** Bulk variations matching `q` with stock on hand at `locationId`: what a draft may add by quantity. */
export function bulkChoices(db: Database, actor: ScopedActor, locationId: string, q: string) {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.all<{
    variationId: string;
    product: string;
    variation: string;
    onHand: number;
    baseUnit: string;
  }>(sql`SELECT
      v.id AS variationId, p.name AS product, v.name AS variation, s.on_hand AS onHand, p.base_unit AS baseUnit
    FROM stock_levels AS s JOIN product_variations AS v ON v.id = s.variation_id JOIN products AS p ON p.id = v.product_id
    WHERE s.location_id = ${locationId} AND s.on_hand > 0 AND p.tracking = 'bulk' AND v.active = 1 AND p.active = 1
      AND p.organization_id = (SELECT organization_id FROM users WHERE id = ${actor.id})
      AND (p.name LIKE ${like} ESCAPE '\\' OR v.name LIKE ${like} ESCAPE '\\' OR v.sku LIKE ${like} ESCAPE '\\')
    ORDER BY p.name, v.name LIMIT 20`);
}
