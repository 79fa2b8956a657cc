import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { productVariations } from "../catalog/product-variations";
import { services } from "../catalog/services";
import { createdAt, id, instant } from "../columns";
import { locations } from "../organization/locations";
import { PATIENT_REF_MAX } from "./constants";
import { items } from "./items";

/**
 * The usage log's indexes, by the filter each serves (app/usage/list.server.ts names the one a
 * page is read by). Each ends with the log's order (used_at, id), so a page reads only its rows
 * and a count only what matches, whatever the filter's size.
 */
export const USAGE_INDEX = {
  location: "usage_entries_location_used_idx",
  organization: "usage_entries_used_idx",
  variation: "usage_entries_variation_idx",
  lot: "usage_entries_lot_idx",
  service: "usage_entries_service_idx",
  patient: "usage_entries_patient_idx",
} as const;

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
    // The usage log at a location, newest first, by dates; the provider is read from the index, so
    // its contains match walks no table rows.
    index(USAGE_INDEX.location).on(t.locationId, t.usedAt, t.id, t.provider),
    // The usage log in organization mode, newest first, by dates (location and provider read here).
    index(USAGE_INDEX.organization).on(t.usedAt, t.id, t.locationId, t.provider),
    // The usage log by variation, or by product (its variations).
    index(USAGE_INDEX.variation).on(t.variationId, t.locationId, t.usedAt, t.id),
    // The usage log by lot, and the recall report: every use of a lot of a variation.
    index(USAGE_INDEX.lot).on(t.lot, t.variationId, t.locationId, t.usedAt, t.id),
    // The usage log by service.
    index(USAGE_INDEX.service).on(t.serviceId, t.locationId, t.usedAt, t.id),
    // The usage log by patient reference, matched whole ignoring case: lower(patient_ref) = lower(?).
    index(USAGE_INDEX.patient).on(sql`lower(${t.patientRef})`, t.locationId, t.usedAt, t.id),
    // Serves a vial's history.
    index("usage_entries_item_idx").on(t.itemId, t.usedAt),
  ],
);
