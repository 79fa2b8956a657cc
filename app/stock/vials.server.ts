// What GET /api/vials reads, in one batch: a page of the serialized items (vials, syringes, kits)
// at the locations in scope, soonest expiry first, with whether each is expired right now.
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { UnitScale } from "~/products/format";
import { lotRecalled } from "~/recalls/quarantine.server";
import { type DiscardReason, ITEM_STATES, type ItemState } from "../../db/schema/stock/constants";
import { isExpired } from "./expiry";

const i = schema.items;
const v = schema.productVariations;
const p = schema.products;
const l = schema.locations;
const line = schema.receiptLines;

/** What a vial list shows unless asked otherwise: what is on the shelf or open. */
export const DEFAULT_VIAL_STATES: readonly ItemState[] = ["sealed", "in_use"];
export const VIALS_PAGE_SIZE = 25;

const states = z.preprocess(
  (value) =>
    String(value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  z.array(z.enum(ITEM_STATES)).min(1),
);

export const VialQuery = z.object({
  /** One or more states, comma-separated (or the parameter repeated). */
  state: states.catch([...DEFAULT_VIAL_STATES]),
  productId: z.string().trim().max(100).catch(""),
  variationId: z.string().trim().max(100).catch(""),
  lot: z.string().trim().max(100).catch(""),
  /** true: only vials of a recalled lot; false: none of them; null (absent): either. */
  recalled: z
    .preprocess(
      (v) => (v === "true" || v === "1" || v === "on" ? true : v === "false" || v === "0" ? false : v),
      z.boolean(),
    )
    .nullable()
    .catch(null),
  /** Deadline within this many days from today (UTC), the already expired included. */
  expiringWithinDays: z.coerce.number().int().min(0).max(3650).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(1).max(100).catch(VIALS_PAGE_SIZE),
});
export type VialQueryInput = z.output<typeof VialQuery>;

/** The query of a request's search parameters (`state` may repeat). */
export function vialQueryOf(params: URLSearchParams): VialQueryInput {
  const fields: Record<string, string> = Object.fromEntries(params);
  if (params.has("state")) fields.state = params.getAll("state").join(",");
  if (!params.get("expiringWithinDays")) delete fields.expiringWithinDays;
  if (!params.get("recalled")) delete fields.recalled;
  return VialQuery.parse(fields);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Items whose deadline (an in-use item's expiresAt, else its expiration date) is within `days`. */
function expiringWithin(days: number, now: Date): SQL {
  const lastDate = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS,
  ).toISOString();
  return sql`(CASE WHEN ${i.state} = 'in_use' THEN ${i.expiresAt} <= ${now.getTime() + days * DAY_MS}
    ELSE ${i.expirationDate} <= ${lastDate.slice(0, 10)} END)`;
}

export interface Vial {
  id: string;
  labelCode: string;
  locationId: string;
  location: { name: string; code: string; timeZone: string };
  productId: string;
  productName: string;
  /** A controlled substance: wasting units needs a witness. */
  controlled: boolean;
  variationId: string;
  variationName: string;
  lot: string | null;
  serial: string | null;
  expirationDate: string | null;
  state: ItemState;
  /** Base units left, at the product's unit scale. */
  unitsRemaining: number;
  /** Base units a full package holds (a sealed vial's units). */
  unitsPerPackage: number;
  baseUnit: string;
  unitScale: UnitScale;
  beyondUseHours: number | null;
  startedAt: Date | null;
  expiresAt: Date | null;
  /** When it was emptied or discarded. */
  endedAt: Date | null;
  discardReason: DiscardReason | null;
  /** Its lot is under a recall in force: quarantined, no start, no draw. */
  recalled: boolean;
  isExpired: boolean;
  receivedAt: Date;
  receiptId: string | null;
}

/** The columns of a Vial as read (isExpired is added after). */
function vialColumns() {
  return {
    id: i.id,
    labelCode: i.labelCode,
    locationId: i.locationId,
    location: { name: l.name, code: l.code, timeZone: l.timezone },
    productId: p.id,
    productName: p.name,
    controlled: p.controlled,
    variationId: i.variationId,
    variationName: v.name,
    lot: i.lot,
    serial: i.serial,
    expirationDate: i.expirationDate,
    state: i.state,
    unitsRemaining: i.unitsRemaining,
    unitsPerPackage: v.unitsPerPackage,
    baseUnit: p.baseUnit,
    unitScale: sql<UnitScale>`${p.unitScale}`.mapWith((n) => Number(n) as UnitScale),
    beyondUseHours: p.beyondUseHours,
    startedAt: i.startedAt,
    expiresAt: i.expiresAt,
    endedAt: i.endedAt,
    discardReason: i.discardReason,
    recalled: sql<boolean>`${lotRecalled("items")}`.mapWith(Boolean),
    receivedAt: i.receivedAt,
    receiptId: line.receiptId,
  };
}

/** The vials matching `where`, as a query (joins included) to order, page or batch. */
function vialRows(db: Database, where: SQL | undefined) {
  return db
    .select(vialColumns())
    .from(i)
    .innerJoin(l, eq(l.id, i.locationId))
    .innerJoin(v, eq(v.id, i.variationId))
    .innerJoin(p, eq(p.id, v.productId))
    .leftJoin(line, eq(line.id, i.receiptLineId))
    .where(where);
}

type VialRow = Awaited<ReturnType<typeof vialRows>>[number];

/** A row as read, with whether it is expired at `now`. */
export function vialOf(row: VialRow, now: Date): Vial {
  return { ...row, isExpired: isExpired(row, now) };
}

/** The page of items at `locationIds` matching `query`, and their total: two statements for the caller's batch. */
export function vialListQueries(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: VialQueryInput,
  now = new Date(),
) {
  const where = and(
    locationIds.length ? inArray(i.locationId, [...locationIds]) : sql`0`,
    inArray(i.state, query.state),
    sql`${p.organizationId} = ${organizationOf(actor)}`,
    query.productId ? eq(v.productId, query.productId) : undefined,
    query.variationId ? eq(i.variationId, query.variationId) : undefined,
    query.lot ? eq(i.lot, query.lot) : undefined,
    query.expiringWithinDays === null ? undefined : expiringWithin(query.expiringWithinDays, now),
    query.recalled === null ? undefined : query.recalled ? lotRecalled("items") : sql`NOT ${lotRecalled("items")}`,
  );
  return [
    vialRows(db, where)
      // Soonest expiry first (first expired, first out), undated last.
      .orderBy(sql`${i.expirationDate} IS NULL`, asc(i.expirationDate), asc(i.receivedAt), asc(i.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ total: count() })
      .from(i)
      .innerJoin(v, eq(v.id, i.variationId))
      .innerJoin(p, eq(p.id, v.productId))
      .where(where),
  ] as const;
}

/** A page of items, {items, page, pageSize, total}, at `locationIds`. One round trip. */
export async function readVials(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: VialQueryInput,
  now = new Date(),
) {
  const [rows, totals] = await db.batch(vialListQueries(db, actor, locationIds, query, now));
  const items = rows.map((row) => vialOf(row, now));
  return { items, page: query.page, pageSize: query.pageSize, total: totals[0]?.total ?? 0 };
}

/**
 * One vial, in any state, if it is at a location `reach` (scope.server's `locationsFor(...).where`)
 * lets the reader see; the query alone, so a verb can read it in its own batch (map with `vialOf`).
 * `itemId` may be a subquery (the scan finds a vial by its label code or GS1 serial).
 */
export function vialQuery(db: Database, itemId: string | SQL, reach: (column: SQLiteColumn) => SQL) {
  return vialRows(db, and(eq(i.id, itemId), reach(i.locationId))).limit(1);
}

/** One vial as GET /api/vials shows it, or null when it is not there for the reader. */
export async function readVial(
  db: Database,
  itemId: string,
  reach: (column: SQLiteColumn) => SQL,
  now = new Date(),
): Promise<Vial | null> {
  const [row] = await vialQuery(db, itemId, reach);
  return row ? vialOf(row, now) : null;
}
