import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { LABEL_OUTPUTS, LABEL_SYMBOLOGIES, type LabelField, ZPL_DELIVERIES } from "./constants";

/**
 * How a location prints item labels: the sticker size, the printer's resolution, what a label
 * shows. Print-labels uses the location's default profile; at most one active default each.
 * Lengths are integers in tenths of a millimetre (57.2 mm is 572), so no floats are stored.
 */
export const printerProfiles = sqliteTable(
  "printer_profiles",
  {
    id: id(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    name: text("name").notNull(),
    output: text("output", { enum: LABEL_OUTPUTS }).notNull().default("browser"),
    zplDelivery: text("zpl_delivery", { enum: ZPL_DELIVERIES }).notNull().default("download"),
    widthTenthMm: integer("width_tenth_mm").notNull(),
    heightTenthMm: integer("height_tenth_mm").notNull(),
    dpi: integer("dpi").notNull().default(203),
    symbology: text("symbology", { enum: LABEL_SYMBOLOGIES }).notNull().default("both"),
    /** Which texts the label shows, in order (LABEL_FIELDS). */
    fields: text("fields", { mode: "json" }).$type<LabelField[]>().notNull(),
    copies: integer("copies").notNull().default(1),
    offsetXTenthMm: integer("offset_x_tenth_mm").notNull().default(0),
    offsetYTenthMm: integer("offset_y_tenth_mm").notNull().default(0),
    isDefault: flag("is_default").notNull().default(false),
    active: flag("active").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    check("printer_profiles_output", sql`${t.output} IN (${quotedList(LABEL_OUTPUTS)})`),
    check("printer_profiles_zpl_delivery", sql`${t.zplDelivery} IN (${quotedList(ZPL_DELIVERIES)})`),
    check("printer_profiles_symbology", sql`${t.symbology} IN (${quotedList(LABEL_SYMBOLOGIES)})`),
    check("printer_profiles_dpi", sql`${t.dpi} IN (203, 300)`),
    // 10 mm to 200 mm each way: from a vial-cap dot to a 4 × 6 in shipping label and a bit more.
    check(
      "printer_profiles_size",
      sql`${t.widthTenthMm} BETWEEN 100 AND 2000 AND ${t.heightTenthMm} BETWEEN 100 AND 2000`,
    ),
    check("printer_profiles_copies", sql`${t.copies} BETWEEN 1 AND 10`),
    check(
      "printer_profiles_offsets",
      sql`${t.offsetXTenthMm} BETWEEN -100 AND 100 AND ${t.offsetYTenthMm} BETWEEN -100 AND 100`,
    ),
    check("printer_profiles_default_active", sql`NOT ${t.isDefault} OR ${t.active}`),
    uniqueIndex("printer_profiles_location_name_unique").on(t.locationId, t.name),
    // At most one default per location; print-labels reads it through this index.
    uniqueIndex("printer_profiles_one_default").on(t.locationId).where(sql`${t.isDefault} = 1`),
    // Serves the profiles of a location on /printer-settings.
    index("printer_profiles_location_active_idx").on(t.locationId, t.active),
  ],
);
