// Adding a printer profile at the location in scope (organization mode: any): WRITE_SETTINGS there; the name is unique at the
// location. A location's first profile (while it has no default) becomes its default, so
// print-labels uses what the clinic just set up.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { recordedFields } from "~/activity/change.server";
import { logActivityWhere } from "~/activity/log.server";
import { type Database, schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { PrinterProfileInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { isDefaultClash, isNameClash, nameTaken, PROFILE_FIELDS } from "./write.server";

export async function createPrinterProfile(
  db: Database,
  actor: ScopedActor,
  input: PrinterProfileInput & { locationId: string },
): Promise<Outcome<{ profileId: string; isDefault: boolean }>> {
  const { locationId, ...values } = input;
  if (!reachesAt(actor, "WRITE_SETTINGS", locationId)) return refuse("forbidden");
  const profileId = uuidv7();
  const locationOpen = sql`EXISTS (SELECT 1 FROM locations
    WHERE id = ${locationId} AND organization_id = ${organizationOf(actor)} AND active = 1)`;
  const noDefault = sql`NOT EXISTS (SELECT 1 FROM printer_profiles WHERE location_id = ${locationId} AND is_default = 1)`;
  try {
    const [created, , current] = await db.batch([
      db.all<{ id: string; isDefault: number }>(sql`INSERT INTO printer_profiles (id, location_id, name, output,
          zpl_delivery, width_tenth_mm, height_tenth_mm, dpi, symbology, fields, copies, offset_x_tenth_mm,
          offset_y_tenth_mm, is_default, active, version, created_at)
        SELECT ${profileId}, ${locationId}, ${values.name}, ${values.output}, ${values.zplDelivery},
          ${values.widthTenthMm}, ${values.heightTenthMm}, ${values.dpi}, ${values.symbology},
          ${JSON.stringify(values.fields)}, ${values.copies}, ${values.offsetXTenthMm}, ${values.offsetYTenthMm},
          ${noDefault}, 1, 1, ${Date.now()}
        WHERE ${locationOpen} AND NOT ${nameTaken(locationId, values.name)}
        RETURNING id, is_default AS isDefault`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId,
          action: "create_printer_profile",
          entity: "printer_profile",
          entityId: profileId,
          summary: sql`json_set(${recordedFields(schema.printerProfiles, PROFILE_FIELDS)}, '$.isDefault', json(CASE WHEN is_default THEN 'true' ELSE 'false' END))`,
        },
        sql`FROM printer_profiles WHERE id = ${profileId}`,
      ),
      db.all<{ locationOpen: number }>(sql`SELECT ${locationOpen} AS locationOpen`),
    ]);
    const row = created[0];
    if (row) return { ok: true, profileId, isDefault: Boolean(row.isDefault) };
    if (!current[0]?.locationOpen) return refuse("location_unavailable");
    return nameClash(values.name);
  } catch (error) {
    if (isNameClash(error)) return nameClash(values.name);
    if (isDefaultClash(error)) return refuse("default_changed");
    throw error;
  }
}

export function nameClash(name: string) {
  return refuse(
    "name_taken",
    `A printer profile named ${name} already exists at this location. Choose a different name, or edit that profile.`,
  );
}
