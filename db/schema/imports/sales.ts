import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { services } from "../catalog/services";
import { instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { organizations } from "../organization/organizations";
import { SALE_ITEM_KINDS } from "./constants";
import { importJobs } from "./import-jobs";

/**
 * A point-of-sale item as the files name it, once per organization, and what it is to the clinic.
 * Sales lines point here, not at a service or variation: mapping an unknown item (or correcting a
 * mapping) is one change to this row, and it applies to every line already imported.
 */
export const saleItems = sqliteTable(
  "sale_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** How lines find the item: its SKU (`sku:…`) or GTIN (`gtin:…`) if the file has one, else its name (`name:…`, lower-cased, spaces folded). */
    itemKey: text("item_key").notNull(),
    /** The name as the file first showed it. */
    name: text("name").notNull(),
    sku: text("sku"),
    gtin: text("gtin"),
    kind: text("kind", { enum: SALE_ITEM_KINDS }).notNull(),
    serviceId: text("service_id").references(() => services.id),
    variationId: text("variation_id").references(() => productVariations.id),
    /** Who mapped it by hand (NULL: recognised by code, SKU, GTIN or name, or not yet mapped). */
    mappedBy: text("mapped_by"),
    mappedAt: instant("mapped_at"),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("sale_items_org_key_unique").on(t.organizationId, t.itemKey),
    check("sale_items_kind", sql`${t.kind} IN (${quotedList(SALE_ITEM_KINDS)})`),
    check(
      "sale_items_target",
      sql`(${t.kind} = 'service' AND ${t.serviceId} IS NOT NULL AND ${t.variationId} IS NULL)
        OR (${t.kind} = 'retail' AND ${t.variationId} IS NOT NULL AND ${t.serviceId} IS NULL)
        OR (${t.kind} IN ('unmapped', 'ignored') AND ${t.serviceId} IS NULL AND ${t.variationId} IS NULL)`,
    ),
    // The unknown items list, and "which sale items are this service / variation".
    index("sale_items_org_kind_idx").on(t.organizationId, t.kind),
    index("sale_items_service_idx").on(t.serviceId).where(sql`${t.serviceId} IS NOT NULL`),
    index("sale_items_variation_idx").on(t.variationId).where(sql`${t.variationId} IS NOT NULL`),
  ],
);

/**
 * One line of a sale as imported: appended, never edited (triggers in the migrations). Keyed by
 * `row_key` (a hash of the line's transaction id, or of its content, and its occurrence number in
 * the file), so the same file or an overlapping export imported again adds nothing. Customer names,
 * notes and card data are never stored. A refund is a line of negative quantity and amount.
 * Integer ids: half a million lines is the large chain's year, and every index carries the key.
 */
export const salesLines = sqliteTable(
  "sales_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    rowKey: text("row_key").notNull(),
    /** The import that first brought the line. */
    jobId: text("job_id")
      .notNull()
      .references(() => importJobs.id),
    rowNumber: integer("row_number").notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    soldAt: instant("sold_at").notNull(),
    saleItemId: integer("sale_item_id")
      .notNull()
      .references(() => saleItems.id),
    /** Signed: a refund is negative. Services performed, or retail packages sold. */
    quantity: integer("quantity").notNull(),
    /** Net sales in cents, signed. */
    netCents: integer("net_cents").notNull(),
    /** The point-of-sale transaction or invoice id, if the file has one. */
    transactionRef: text("transaction_ref"),
    /** Who performed or sold it, if the file says (a staff member, never the customer). */
    provider: text("provider"),
  },
  (t) => [
    uniqueIndex("sales_lines_org_key_unique").on(t.organizationId, t.rowKey),
    check("sales_lines_quantity", sql`typeof(${t.quantity}) = 'integer' AND ${t.quantity} <> 0`),
    check("sales_lines_net", sql`typeof(${t.netCents}) = 'integer'`),
    // Reconciliation: a location's lines of an item over a period (expected usage, drill-down); and
    // each unknown item's lines and units (the quantity is here so neither reads the table).
    index("sales_lines_item_location_sold_idx").on(t.saleItemId, t.locationId, t.soldAt, t.quantity),
    // Reconciliation over a period (app/reconciliation/read.server.ts): a location's lines by time
    // with what they sold and how many, so a year of a location's sales is summed from the index alone.
    index("sales_lines_reconciliation_idx").on(t.locationId, t.soldAt, t.saleItemId, t.quantity),
    // An import's lines in file order (its chunk's SALE movements, its report).
    index("sales_lines_job_row_idx").on(t.jobId, t.rowNumber),
  ],
);

/**
 * What a retail line took from stock: its SALE movement's units, and the units the ledger did not
 * have (sold with none on hand: a finding for reconciliation, never a negative level). One row per
 * line booked, so booking (at import, or when its item is mapped later) happens exactly once.
 */
export const saleBookings = sqliteTable(
  "sale_bookings",
  {
    lineId: integer("line_id")
      .primaryKey()
      .references(() => salesLines.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    /** Base units the SALE movement moved (signed: a refund returns stock); 0 when nothing was on hand. */
    bookedUnits: integer("booked_units").notNull(),
    /** Base units sold beyond what was on hand (0 or more). */
    shortUnits: integer("short_units").notNull(),
    bookedAt: instant("booked_at").notNull(),
  },
  (t) => [check("sale_bookings_short", sql`${t.shortUnits} >= 0`)],
);
