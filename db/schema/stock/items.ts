import { sql } from "drizzle-orm";
import { check, index, integer, type SQLiteColumn, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { createdAt, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { DISCARD_REASONS, ITEM_STATES } from "./constants";
import { receiptLines } from "./receipt-lines";

/**
 * The vial list's expressions, written here as app/stock/vials.server writes them: SQLite uses an
 * index on an expression only for the same expression. On the shelf: sealed or in use (1 or 0);
 * the expiry as one text key, undated last ('undated' sorts after every YYYY-MM-DD).
 */
export const onShelf = (t: { state: SQLiteColumn }) => sql`(${t.state} = 'sealed' OR ${t.state} = 'in_use')`;
export const expiryKey = (t: { expirationDate: SQLiteColumn }) =>
  sql`(CASE WHEN ${t.expirationDate} IS NULL THEN 'undated' ELSE ${t.expirationDate} END)`;

/**
 * One serialized unit (a vial, syringe or kit) with its own label code: made sealed by a completed
 * receipt, then started (in use until `expires_at`), emptied or discarded. Its stock is also in
 * stock_levels (base units), moved by the ledger in the same batch as every state change.
 */
export const items = sqliteTable(
  "items",
  {
    id: id(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    receiptLineId: text("receipt_line_id").references(() => receiptLines.id),
    /** Printed on the item's label; also a row of `barcodes`, so one scan lookup finds it. */
    labelCode: text("label_code").notNull().unique(),
    lot: text("lot"),
    serial: text("serial"),
    /** YYYY-MM-DD, the manufacturer's expiry, treated as the end of that day in UTC. */
    expirationDate: text("expiration_date"),
    state: text("state", { enum: ITEM_STATES }).notNull().default("sealed"),
    /** Base units left in it (e.g. 100 for a sealed 100 U vial). */
    unitsRemaining: integer("units_remaining").notNull(),
    startedAt: instant("started_at"),
    /** Use-by deadline once started: min(expiry end of day, started + beyond-use hours). */
    expiresAt: instant("expires_at"),
    costCents: integer("cost_cents"),
    discardReason: text("discard_reason", { enum: DISCARD_REASONS }),
    discardNote: text("discard_note"),
    /** When it was emptied or discarded. */
    endedAt: instant("ended_at"),
    /**
     * The second person who confirmed, with their own password, that a controlled product's units
     * left were wasted (an empty or discard with units in it); no foreign key, like activity_log.
     */
    witnessUserId: text("witness_user_id"),
    receivedAt: instant("received_at").notNull(),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    check("items_state", sql`${t.state} IN (${quotedList(ITEM_STATES)})`),
    check(
      "items_discard_reason",
      sql`${t.discardReason} IS NULL OR ${t.discardReason} IN (${quotedList(DISCARD_REASONS)})`,
    ),
    check("items_units_remaining", sql`typeof(${t.unitsRemaining}) = 'integer' AND ${t.unitsRemaining} >= 0`),
    check(
      "items_expiration_date",
      sql`${t.expirationDate} IS NULL OR date(${t.expirationDate}) IS ${t.expirationDate}`,
    ),
    // A serial names a unit of one lot; with the lot always there, the unique index below covers every serial.
    check("items_serial_has_lot", sql`${t.serial} IS NULL OR ${t.lot} IS NOT NULL`),
    check("items_ended", sql`(${t.state} IN ('empty', 'discarded')) = (${t.endedAt} IS NOT NULL)`),
    check("items_discarded_reason", sql`(${t.state} = 'discarded') = (${t.discardReason} IS NOT NULL)`),
    check("items_started", sql`${t.state} <> 'in_use' OR (${t.startedAt} IS NOT NULL AND ${t.expiresAt} IS NOT NULL)`),
    check("items_cost", sql`${t.costCents} IS NULL OR (typeof(${t.costCents}) = 'integer' AND ${t.costCents} >= 0)`),
    // The vial list's order (inventory, /api/vials: soonest expiry, undated last, received, id),
    // behind the equalities of each filter, so a page walks one index in order and stops at its
    // LIMIT; the text key ifnull(…, 'undated') lets a later page seek straight to its date (ADR 0018).
    // Serves the shelf (sealed or in use, the default) at one location.
    index("items_location_shelf_order_idx").on(t.locationId, onShelf(t), expiryKey(t), t.receivedAt, t.id),
    // Serves the shelf at several locations (organization mode).
    index("items_shelf_order_idx").on(onShelf(t), expiryKey(t), t.receivedAt, t.id),
    // Serves one state at one location; its prefix, the items of a location in a state (stock levels' expired units).
    index("items_location_state_order_idx").on(t.locationId, t.state, expiryKey(t), t.receivedAt, t.id),
    // Serves one state at several locations (organization mode).
    index("items_state_order_idx").on(t.state, expiryKey(t), t.receivedAt, t.id),
    // Serves every state at one location.
    index("items_location_order_idx").on(t.locationId, expiryKey(t), t.receivedAt, t.id),
    // Serves every state at several locations (organization mode).
    index("items_order_idx").on(expiryKey(t), t.receivedAt, t.id),
    // Serves the stock levels of a pair (location × variation): its expired units and nearest expiry.
    index("items_variation_location_state_idx").on(t.variationId, t.locationId, t.state),
    // Serves the vial list filtered by lot alone, without a variation (inventory, /api/vials).
    index("items_lot_idx").on(t.lot),
    // Serves the labels of a receipt (print-labels).
    index("items_receipt_line_idx").on(t.receiptLineId),
    // Serves a variation's items and one lot of it (recall report, quarantine checks, inventory's lot filter).
    index("items_variation_lot_idx").on(t.variationId, t.lot),
    // Serves the waste job: in-use vials whose use-by deadline has passed.
    index("items_state_expires_idx").on(t.state, t.expiresAt),
    // Serves the dashboard's stock figures (app/dashboard/stats.server.ts): the shelf (sealed or in
    // use) at the locations in scope, with what each figure reads, so no item row is visited.
    index("items_dashboard_shelf_idx")
      .on(t.locationId, t.state, t.variationId, t.unitsRemaining, t.costCents, t.expirationDate, t.expiresAt, t.lot)
      .where(sql`${t.state} IN ('sealed', 'in_use')`),
    // Serves the dashboard's waste at cost: a wasted vial's own cost by its id, from the index alone.
    index("items_cost_idx").on(t.id, t.costCents),
    // A manufacturer's serial is one unit of a variation and lot: never two items with it (ADR 0013).
    // Also serves adding a receipt line, which looks for the serial among received items.
    uniqueIndex("items_serial_unique").on(t.variationId, t.lot, t.serial).where(sql`${t.serial} IS NOT NULL`),
  ],
);
