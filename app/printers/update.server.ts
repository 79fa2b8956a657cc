// Editing a printer profile under optimistic concurrency (as vendors): the form carries the
// `version` it was loaded with; the UPDATE applies only to that version and bumps it. WRITE_SETTINGS
// at the location in scope (every location in organization mode); a profile elsewhere is not found.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { changedFields, changeWithActivity } from "~/activity/change.server";
import { type Database, schema } from "~/db/client.server";
import { nameClash } from "./create.server";
import type { PrinterProfileEditInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { isNameClash, nameTaken, PROFILE_FIELDS, setFields } from "./write.server";

export async function updatePrinterProfile(
  db: Database,
  actor: ScopedActor,
  input: PrinterProfileEditInput & { profileId: string },
): Promise<Outcome<{ changed: boolean; version: number }>> {
  const { profileId, version, ...values } = input;
  const visible = sql`printer_profiles.id = ${profileId}
    AND ${locationsFor(actor, "READ_SETTINGS").where(sql`printer_profiles.location_id`)}`;
  const writable = sql`${locationsFor(actor, "WRITE_SETTINGS").where(sql`printer_profiles.location_id`)}`;
  const { differs, before, after } = changedFields(schema.printerProfiles, PROFILE_FIELDS, values);
  const nameFree = sql`NOT ${nameTaken(sql`printer_profiles.location_id`, values.name, profileId)}`;
  const guard = sql`${visible} AND ${writable} AND printer_profiles.version = ${version} AND ${differs} AND ${nameFree}`;

  try {
    const { updated, current } = await changeWithActivity(db, {
      from: schema.printerProfiles,
      guard,
      activity: {
        userId: actor.id,
        locationId: sql`location_id`,
        action: "update_printer_profile",
        entity: "printer_profile",
        entityId: profileId,
        summary: sql`json_object('name', ${values.name}, 'before', ${before}, 'after', ${after})`,
      },
      update: db.all<{ version: number }>(sql`UPDATE printer_profiles SET ${setFields(values)},
          version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING version`),
      readBack: db.all<{ version: number; writable: number; differs: number; nameFree: number }>(
        sql`SELECT version, ${writable} AS writable, ${differs} AS differs, ${nameFree} AS nameFree
          FROM printer_profiles WHERE ${visible}`,
      ),
    });
    const saved = updated[0];
    if (saved) return { ok: true, changed: true, version: Number(saved.version) };
    const row = current[0];
    if (!row) return refuse("not_found");
    if (!row.writable) return refuse("forbidden");
    if (!row.differs) return { ok: true, changed: false, version: Number(row.version) };
    if (Number(row.version) !== version) return refuse("stale");
    if (!row.nameFree) return nameClash(values.name);
    return { ok: true, changed: false, version: Number(row.version) };
  } catch (error) {
    if (isNameClash(error)) return nameClash(values.name);
    throw error;
  }
}
