import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { services } from "../catalog/services";
import { createdAt, id, instant } from "../columns";
import { locations } from "../organization/locations";
import { PATIENT_REF_MAX } from "./constants";
import { items } from "./items";

/**
 * Units drawn from a vial for a treatment (domain.md "Stock"): appended with the USE movement that
 * books them, never edited (triggers in the migrations). The lot → patient trace of a recall reads
 * here, so the item's location, variation and lot are copied in as they were at the draw.
 */
export const usageEntries = sqliteTable(
  "usage_entries",
  {
    id: id(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    variationId: text("variation_id")
      .notNull()
      .references(() => productVariations.id),
    lot: text("lot"),
    /** Base units drawn (at the product's unit scale), more than zero. */
    units: integer("units").notNull(),
    serviceId: text("service_id").references(() => services.id),
    /** Who treated (free text: the provider may not be a user of the product). */
    provider: text("provider"),
    /** Opaque patient reference (the clinic's chart number), never a name. */
    patientRef: text("patient_ref"),
    /** When the units were used (the treatment), which may be a little before it was recorded. */
    usedAt: instant("used_at").notNull(),
    /** Who recorded it; no foreign key, like activity_log. */
    userId: text("user_id"),
    createdAt: createdAt(),
  },
  (t) => [
    check("usage_entries_units", sql`typeof(${t.units}) = 'integer' AND ${t.units} > 0`),
    check(
      "usage_entries_patient_ref",
      sql`${t.patientRef} IS NULL OR length(${t.patientRef}) BETWEEN 1 AND ${sql.raw(String(PATIENT_REF_MAX))}`,
    ),
    check("usage_entries_provider", sql`${t.provider} IS NULL OR length(${t.provider}) BETWEEN 1 AND 100`),
    // Serves the usage log of a location by date, newest first.
    index("usage_entries_location_used_idx").on(t.locationId, t.usedAt),
    // Serves the recall report: every use of a lot of a variation.
    index("usage_entries_variation_lot_idx").on(t.variationId, t.lot, t.usedAt),
    // Serves a vial's history.
    index("usage_entries_item_idx").on(t.itemId, t.usedAt),
  ],
);
