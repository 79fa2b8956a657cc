import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { id, instant } from "../columns";
import { locations } from "../organization/locations";
import { MOVEMENT_REFERENCE_TYPES, MOVEMENT_TYPES } from "./constants";

/**
 * The stock ledger: every change of on-hand stock, appended and never edited (triggers in the
 * migrations refuse UPDATE and DELETE). `stock_levels` is its cached balance, written in the same
 * batch, so a level always equals the sum of its movements. Scoped to an organization through the
 * location.
 */
export const stockMovements = sqliteTable(
  "stock_movements",
  {
    id: id(),
    occurredAt: instant("occurred_at")
      .notNull()
      .$defaultFn(() => new Date()),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    /** The serialized item (vial) moved, if any; no foreign key until items exist. */
    itemId: text("item_id"),
    lot: text("lot"),
    /** Signed, in the variation's base units: positive adds stock, negative takes it away. */
    quantity: integer("quantity").notNull(),
    type: text("type", { enum: MOVEMENT_TYPES }).notNull(),
    reason: text("reason"),
    /** What the person added to the reason (e.g. an adjustment's "other"). */
    note: text("note"),
    /** What the movement belongs to: receipt, transfer, audit, import or usage, and its id. */
    referenceType: text("reference_type", { enum: MOVEMENT_REFERENCE_TYPES }),
    referenceId: text("reference_id"),
    /** Who moved it; no foreign key, like activity_log: history outlives what it names. */
    userId: text("user_id"),
  },
  (t) => [
    check("stock_movements_quantity_not_zero", sql`${t.quantity} <> 0`),
    check("stock_movements_quantity_integer", sql`typeof(${t.quantity}) = 'integer'`),
    check("stock_movements_type", sql`${t.type} IN (${sql.raw(MOVEMENT_TYPES.map((type) => `'${type}'`).join(", "))})`),
    // Serves the history of a variation at a location, by time (stock card, lot trace, invariant).
    index("stock_movements_location_variation_at_idx").on(t.locationId, t.variationId, t.occurredAt),
    // Serves one vial's history (its movements by time) and the ledger check item by item.
    index("stock_movements_item_at_idx").on(t.itemId, t.occurredAt),
    // Serves the dashboard's waste (app/dashboard/waste.server.ts): the WASTE and DISCARD movements
    // of the locations in scope over two months, read from the index alone.
    index("stock_movements_waste_idx")
      .on(t.locationId, t.occurredAt, t.type, t.reason, t.variationId, t.itemId, t.quantity)
      .where(sql`${t.type} IN ('WASTE', 'DISCARD')`),
    // Serves the reconciliation (app/reconciliation/read.server.ts): every movement of a location over
    // a period, with its variation, type, reason and units, summed from the index alone.
    index("stock_movements_reconciliation_idx").on(
      t.locationId,
      t.occurredAt,
      t.variationId,
      t.type,
      t.reason,
      t.quantity,
    ),
    // Serves what moved on a pair after a ledger position (ADR 0031: a count line's position is a
    // rowid, and an index's implicit last column is the rowid, so `rowid > position` is a seek here):
    // a bulk count line's expectation, without walking every movement of the pair.
    index("stock_movements_pair_position_idx").on(t.locationId, t.variationId),
    // The same for one vial: what it moved after a count line's position (a counted vial's
    // expectation on the count review), sought instead of walking each of its movements.
    index("stock_movements_item_position_idx").on(t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    // Serves the movements of one receipt, transfer, audit, import or usage entry.
    index("stock_movements_reference_idx").on(t.referenceType, t.referenceId),
  ],
);
