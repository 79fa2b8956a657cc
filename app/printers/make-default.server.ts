// Making a profile the one print-labels uses at its location: the old default is cleared and the
// new one set in the same batch (the partial unique index printer_profiles_one_default allows one
// default per location, so the clear comes first). Logged as an update of the profile.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { changeWithActivity } from "~/activity/change.server";
import { type Database, schema } from "~/db/client.server";
import { type Outcome, refuse } from "./outcome";
import { isDefaultClash } from "./write.server";

export async function makeDefaultPrinterProfile(
  db: Database,
  actor: ScopedActor,
  profileId: string,
): Promise<Outcome<{ name: string; replaced: string | null }>> {
  const where = (table: string) => {
    const t = sql.identifier(table);
    return {
      visible: sql`${t}.id = ${profileId} AND ${locationsFor(actor, "READ_SETTINGS").where(sql`${t}.location_id`)}`,
      writable: locationsFor(actor, "WRITE_SETTINGS").where(sql`${t}.location_id`),
    };
  };
  const profile = where("printer_profiles");
  const target = where("target");
  const guard = sql`${profile.visible} AND ${profile.writable} AND printer_profiles.active = 1 AND printer_profiles.is_default = 0`;
  const targetGuard = sql`${target.visible} AND ${target.writable} AND target.active = 1 AND target.is_default = 0`;
  const previous = sql`(SELECT old.name FROM printer_profiles AS old
    WHERE old.location_id = printer_profiles.location_id AND old.is_default = 1)`;
  const now = Date.now();
  try {
    const targetLocation = sql`(SELECT target.location_id FROM printer_profiles AS target WHERE ${targetGuard})`;
    const { before, updated, current } = await changeWithActivity(db, {
      from: schema.printerProfiles,
      guard,
      activity: {
        userId: actor.id,
        locationId: sql`location_id`,
        action: "update_printer_profile",
        entity: "printer_profile",
        entityId: profileId,
        summary: sql`json_object('name', name, 'before', json_object('isDefault', json('false')),
          'after', json_object('isDefault', json('true')), 'replacedDefault', ${previous})`,
      },
      before: [
        db.all<{ name: string }>(
          sql`SELECT name FROM printer_profiles WHERE is_default = 1 AND location_id = ${targetLocation}`,
        ),
        db.run(sql`UPDATE printer_profiles SET is_default = 0, version = version + 1, updated_at = ${now}
          WHERE is_default = 1 AND location_id = ${targetLocation}`),
      ],
      update: db.all<{ id: string }>(sql`UPDATE printer_profiles SET is_default = 1, version = version + 1,
        updated_at = ${now} WHERE ${guard} RETURNING id`),
      readBack: db.all<{ name: string; writable: number; active: number }>(
        sql`SELECT name, ${profile.writable} AS writable, active FROM printer_profiles WHERE ${profile.visible}`,
      ),
    });
    const [replaced] = before;
    const row = current[0];
    if (!row) return refuse("not_found");
    if (!row.writable) return refuse("forbidden");
    if (updated.length !== 1) return refuse(row.active ? "already_default" : "archived");
    return { ok: true, name: row.name, replaced: replaced[0]?.name ?? null };
  } catch (error) {
    if (isDefaultClash(error)) return refuse("default_changed");
    throw error;
  }
}
