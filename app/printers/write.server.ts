// Shared SQL of the printer profile verbs: the name rule (unique per location, ignoring case) and
// the shape profile fields take in activity summaries (only what changed). Where the actor may
// read or change profiles (the location in scope, with the permission there) is app/access/scope.server.
import { type SQL, sql } from "drizzle-orm";
import { constraintFailed } from "~/db/sql.server";
import type { PrinterProfileInput } from "./forms";

/** Whether another profile at the location already has this name, in any case. Part of the write's own guard. */
export function nameTaken(locationId: SQL | string, name: string, exceptId: string | null = null): SQL {
  return sql`EXISTS (SELECT 1 FROM printer_profiles AS other
    WHERE other.location_id = ${locationId} AND lower(other.name) = lower(${name})
      ${exceptId ? sql`AND other.id <> ${exceptId}` : sql``})`;
}

/** The unique index on (location, name) backs the rule up for names typed in the same case. */
export function isNameClash(error: unknown): boolean {
  return constraintFailed(error, /printer_profiles\.location_id, printer_profiles\.name/);
}

/** The one-default-per-location index refused a second default made at the same moment. */
export function isDefaultClash(error: unknown): boolean {
  return constraintFailed(error, /printer_profiles\.location_id(?!, )/);
}

/** Summary key → column of every field the profile form sets. */
export const PROFILE_COLUMNS = {
  name: "name",
  output: "output",
  zplDelivery: "zpl_delivery",
  widthTenthMm: "width_tenth_mm",
  heightTenthMm: "height_tenth_mm",
  dpi: "dpi",
  symbology: "symbology",
  fields: "fields",
  copies: "copies",
  offsetXTenthMm: "offset_x_tenth_mm",
  offsetYTenthMm: "offset_y_tenth_mm",
} as const satisfies Record<keyof PrinterProfileInput, string>;
const KEYS = Object.keys(PROFILE_COLUMNS) as (keyof PrinterProfileInput)[];
const column = (key: keyof PrinterProfileInput) => sql.identifier(PROFILE_COLUMNS[key]);

/** A field's value as stored: the field list is JSON text. */
function stored(values: PrinterProfileInput, key: keyof PrinterProfileInput): string | number {
  const value = values[key];
  return Array.isArray(value) ? JSON.stringify(value) : (value as string | number);
}

/** The profile's fields as a JSON object, read from the `printer_profiles` row of the statement. */
export const PROFILE_JSON = sql`json_object(${sql.join(
  KEYS.map((k) => (k === "fields" ? sql`${k}, json(${column(k)})` : sql`${k}, ${column(k)}`)),
  sql`, `,
)})`;

/** The SET list that writes every form field. */
export function setFields(values: PrinterProfileInput): SQL {
  return sql.join(
    KEYS.map((k) => sql`${column(k)} = ${stored(values, k)}`),
    sql`, `,
  );
}

/** Whether the `printer_profiles` row of the statement differs from `values` in any field. */
export function differsFrom(values: PrinterProfileInput): SQL {
  return sql`(${sql.join(
    KEYS.map((k) => sql`${column(k)} IS NOT ${stored(values, k)}`),
    sql` OR `,
  )})`;
}

/** `before`/`after` objects holding only the fields that change (json_remove drops the others). */
export function changedFields(values: PrinterProfileInput): { before: SQL; after: SQL } {
  const paths = sql.join(
    KEYS.map((k) => sql`CASE WHEN ${column(k)} IS NOT ${stored(values, k)} THEN '$.__changed' ELSE ${`$.${k}`} END`),
    sql`, `,
  );
  const after = Object.fromEntries(KEYS.map((k) => [k, values[k]]));
  return {
    before: sql`json_remove(${PROFILE_JSON}, ${paths})`,
    after: sql`json_remove(json(${JSON.stringify(after)}), ${paths})`,
  };
}
