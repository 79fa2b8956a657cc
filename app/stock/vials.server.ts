// What GET /api/vials reads, in one batch: a page of the serialized items (vials, syringes, kits)
// at the locations in scope, soonest expiry first, with whether each is expired right now.
import { and, count, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { Actor } from "~/access/actor";
import type { UnitScale } from "~/catalog/format";
import { productIdsMatching, variationIdsOf } from "~/catalog/search.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { COUNT_CAP, CursorParams, firstPage, type Keyset, keysetList, type SortKey } from "~/db/keyset.server";
import { atLocations, organizationOf } from "~/db/sql.server";
import { type ReadFilters, readFilters } from "~/http/filters.server";
import { type DiscardReason, ITEM_STATES, type ItemState } from "../../db/schema/stock/constants";
import { expiryKey, onShelf } from "../../db/schema/stock/items";
import { isExpired } from "./expiry";
import { lotRecalled } from "./quarantine.server";

const i = schema.items;
const v = schema.productVariations;
const p = schema.products;
const l = schema.locations;
const line = schema.receiptLines;

/** What a vial list shows unless asked otherwise: what is on the shelf or open. */
export const DEFAULT_VIAL_STATES: readonly ItemState[] = ["sealed", "in_use"];
export const VIALS_PAGE_SIZE = 25;

/** The filter's messages: what is wrong and what to send instead (issue 18.10). */
export const VIAL_FILTER_MESSAGES = {
  state: `Choose a state from the list (${ITEM_STATES.join(", ")}).`,
  id: "An id is at most 100 characters: choose the product again from its page or the search.",
  product: "Search products with at most 100 characters.",
  lot: "A lot number is at most 100 characters: check the lot on the label.",
  expiringWithinDays: "Enter a whole number of days from 0 to 3650.",
  recalled: "Choose Any, Recalled lots only or Not recalled (true or false).",
} as const;
const M = VIAL_FILTER_MESSAGES;

/** Absent or empty: no filter (undefined, so the default applies). */
const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === "";

const states = z.preprocess(
  (value) =>
    blank(value)
      ? undefined
      : String(value)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
  z
    .array(z.enum(ITEM_STATES, { error: M.state }), { error: M.state })
    .min(1, M.state)
    .default([...DEFAULT_VIAL_STATES]),
);

const text = (message: string) => z.string({ error: message }).trim().max(100, message).default("");

/** A whole number of days written as digits; anything else ("-3", "soon", "1.5") is refused, not dropped. */
const days = z.preprocess(
  (value) => (blank(value) ? null : /^\s*\d{1,6}\s*$/.test(String(value)) ? Number(value) : value),
  z
    .number({ error: M.expiringWithinDays })
    .int(M.expiringWithinDays)
    .min(0, M.expiringWithinDays)
    .max(3650, M.expiringWithinDays)
    .nullable(),
);

/**
 * A list's filters as a URL sends them. A value that cannot be used is refused with its message
 * (`readFilters` sets it aside and says so); an absent or empty one is no filter.
 */
export const VialQuery = z.object({
  /** One or more states, comma-separated (or the parameter repeated). */
  state: states,
  productId: text(M.id),
  /** A product search (name, SKU or code), as the catalogue's search matches it. */
  product: text(M.product),
  variationId: text(M.id),
  lot: text(M.lot),
  /** true: only vials of a recalled lot; false: none of them; null (absent): either. */
  recalled: z.preprocess(
    (v) => (blank(v) ? null : v === "true" || v === "1" || v === "on" ? true : v === "false" || v === "0" ? false : v),
    z.boolean({ error: M.recalled }).nullable(),
  ),
  /** Deadline within this many days from today (UTC), the already expired included. */
  expiringWithinDays: days,
  ...CursorParams,
  pageSize: z.coerce.number().int().min(1).max(100).catch(VIALS_PAGE_SIZE),
});
export type VialQueryInput = z.output<typeof VialQuery>;

/** The fields of a request's search parameters (`state` may repeat). */
function vialFieldsOf(params: URLSearchParams): Record<string, string> {
  const fields: Record<string, string> = Object.fromEntries(params);
  if (params.has("state")) fields.state = params.getAll("state").join(",");
  return fields;
}

/** The query of a request's search parameters, and what is wrong with any filter it cannot use. */
export function readVialQuery(params: URLSearchParams): ReadFilters<VialQueryInput> {
  return readFilters(VialQuery, vialFieldsOf(params));
}

/** The query of a request's search parameters, every filter it cannot use left out (see readVialQuery). */
export function vialQueryOf(params: URLSearchParams): VialQueryInput {
  return readVialQuery(params).query;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Items whose deadline (an in-use item's expiresAt, else its expiration date) is within `days`:
 * two ranges OR'd, each one an index can seek (a CASE over the state could use none).
 */
function expiringWithin(days: number, now: Date): SQL {
  const lastDate = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS,
  ).toISOString();
  const others = sql.raw(
    ITEM_STATES.filter((s) => s !== "in_use")
      .map((s) => `'${s}'`)
      .join(", "),
  );
  return sql`((${i.state} = 'in_use' AND ${i.expiresAt} <= ${now.getTime() + days * DAY_MS})
    OR (${i.state} IN (${others}) AND ${i.expirationDate} <= ${lastDate.slice(0, 10)}))`;
}

/**
 * The states asked for, as SQL literals (a validated enum, so safe). The shelf (sealed or in use,
 * the default) is one equality on the schema's indexed expression `onShelf`, which an IN over the
 * state column, with its sort of every match, could not be; every state is no term.
 * Not `seek`: written as a plain filter (unary plus), so the planner leads with a narrower index.
 */
function inStates(states: readonly ItemState[], seek: boolean): SQL | undefined {
  const asked = ITEM_STATES.filter((s) => states.includes(s));
  const literals = sql.raw(asked.map((s) => `'${s}'`).join(", "));
  const state = seek ? sql`${i.state}` : sql`+${i.state}`;
  if (asked.length === ITEM_STATES.length) return undefined;
  if (asked.length === 1) return sql`${state} = ${literals}`;
  if (seek && asked.join() === DEFAULT_VIAL_STATES.join()) return sql`${onShelf(i)} = 1`;
  return sql`${state} IN (${literals})`;
}

/**
 * The list's order: soonest expiry first (first expired, first out), undated last ('undated'
 * sorts after every YYYY-MM-DD: the schema's `expiryKey`), then received, then the id, which makes
 * it total. One text key for the date, so a later page seeks straight to its date in the index.
 */
const VIAL_ORDER: SortKey[] = [
  { sql: expiryKey(i), type: "text" },
  { sql: sql`${i.receivedAt}`, type: "integer" },
  { sql: sql`${i.id}`, type: "text" },
];
const VIAL_PAGES = keysetList(VIAL_ORDER, (v: VialRow) => [
  v.expirationDate ?? "undated",
  v.receivedAt.getTime(),
  v.id,
]);

/** The keyset page a vial query asks for; null when its cursor is forged or stale. */
export function vialKeyset(query: VialQueryInput): Keyset | null {
  return VIAL_PAGES.keyset(query);
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

/**
 * The page of items at `locationIds` matching `query` (pageSize + 1 rows, in reading order) and
 * their capped count: two statements for the caller's batch; `vialPageOf` makes the page.
 */
export function vialListQueries(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: VialQueryInput,
  keyset: Keyset,
  now = new Date(),
) {
  // A product, variation, lot or recall in force narrows to a few hundred items: their own index
  // leads and the few matches are sorted; otherwise the list walks an index in its order and stops.
  const seek = !(query.productId || query.product || query.variationId || query.lot || query.recalled === true);
  // Every filter is on the items alone, so the count reads no other table: the locations are the
  // reader's (the route's reach), which binds them to its organization; the page checks it again.
  const where = and(
    atLocations(i.locationId, locationIds, seek),
    inStates(query.state, seek),
    query.productId ? sql`${i.variationId} IN ${variationIdsOf(query.productId)}` : undefined,
    query.product ? sql`${i.variationId} IN ${variationIdsOf(productIdsMatching(actor, query.product))}` : undefined,
    query.variationId ? eq(i.variationId, query.variationId) : undefined,
    query.lot ? eq(i.lot, query.lot) : undefined,
    query.expiringWithinDays === null ? undefined : expiringWithin(query.expiringWithinDays, now),
    query.recalled === null
      ? undefined
      : query.recalled
        ? // Led by the recalls in force (a few hundred lots), each found by its lot's index.
          sql`(${i.variationId}, ${i.lot}) IN (SELECT variation_id, lot FROM lot_recalls WHERE lifted_at IS NULL)`
        : sql`NOT ${lotRecalled("items")}`,
  );
  const matching = db
    .select({ one: sql`1` })
    .from(i)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as("matching");
  return [
    vialRows(db, and(where, sql`${p.organizationId} = ${organizationOf(actor)}`, VIAL_PAGES.where(keyset)))
      .orderBy(VIAL_PAGES.orderBy(keyset))
      .limit(VIAL_PAGES.limit(keyset)),
    db.select({ total: count() }).from(matching),
  ] as const;
}

/** The rows read by `vialListQueries` as the page a list answers. */
export function vialPageOf(rows: VialRow[], counted: { total: number }[], keyset: Keyset, now: Date) {
  return VIAL_PAGES.page(rows, counted[0]?.total, keyset, (row) => vialOf(row, now));
}

/** A page of items, {items, pageSize, total, totalExact, next, previous}, at `locationIds`. One round trip. */
export async function readVials(
  db: Database,
  actor: Actor,
  locationIds: readonly string[],
  query: VialQueryInput,
  now = new Date(),
  keyset = firstPage(vialKeyset(query), query.pageSize),
) {
  const [rows, counted] = await db.batch(vialListQueries(db, actor, locationIds, query, keyset, now));
  return vialPageOf(rows, counted, keyset, now);
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
