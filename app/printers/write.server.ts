// Shared SQL of the printer profile verbs: the name rule (unique per location, ignoring case) and
// the fields activity summaries record (app/activity/change.server: an edit records only what changed). Where the actor may
// read or change profiles (the location in scope, with the permission there) is app/access/scope.server.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { schema } from "~/db/client.server";
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

/** The fields the profile form sets, as activity summaries name and order them. */
export const PROFILE_FIELDS = [
  "name",
  "output",
  "zplDelivery",
  "widthTenthMm",
  "heightTenthMm",
  "dpi",
  "symbology",
  "fields",
  "copies",
  "offsetXTenthMm",
  "offsetYTenthMm",
] as const satisfies readonly (keyof PrinterProfileInput)[];

/** The SET list that writes every form field. */
export function setFields(values: PrinterProfileInput): SQL {
  const columns = getTableColumns(schema.printerProfiles);
  return sql.join(
    PROFILE_FIELDS.map((k) => sql`${sql.identifier(columns[k].name)} = ${columns[k].mapToDriverValue(values[k])}`),
    sql`, `,
  );
}
