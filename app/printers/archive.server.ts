// Archiving and restoring a printer profile (never deleting it; the activity log names it).
// Archiving the default clears it: the location's labels then use the built-in default until
// another profile is made the default. Restoring a profile at a location with no default makes it
// the default, as creating one does.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { changeWithActivity } from "~/activity/change.server";
import type { ActivityAction } from "~/activity/log.server";
import { type Database, schema } from "~/db/client.server";
import { type Outcome, refuse } from "./outcome";
import { isDefaultClash } from "./write.server";

async function setActive(
  db: Database,
  actor: ScopedActor,
  profileId: string,
  active: boolean,
): Promise<Outcome<{ name: string; locationId: string; wasDefault: boolean; isDefault: boolean }>> {
  const visible = sql`printer_profiles.id = ${profileId}
    AND ${locationsFor(actor, "READ_SETTINGS").where(sql`printer_profiles.location_id`)}`;
  const writable = locationsFor(actor, "WRITE_SETTINGS").where(sql`printer_profiles.location_id`);
  const guard = sql`${visible} AND ${writable} AND printer_profiles.active = ${!active}`;
  const noDefault = sql`NOT EXISTS (SELECT 1 FROM printer_profiles AS other
    WHERE other.location_id = printer_profiles.location_id AND other.is_default = 1)`;
  const action: ActivityAction = active ? "restore_printer_profile" : "archive_printer_profile";
  try {
    const { before, updated, current } = await changeWithActivity(db, {
      from: schema.printerProfiles,
      guard,
      activity: {
        userId: actor.id,
        locationId: sql`location_id`,
        action,
        entity: "printer_profile",
        entityId: profileId,
        summary: active
          ? sql`json_object('name', name, 'before', json_object('active', json('false')),
              'after', json_object('active', json('true'), 'isDefault', json(CASE WHEN ${noDefault} THEN 'true' ELSE 'false' END)))`
          : sql`json_object('name', name, 'before', json_object('active', json('true'), 'isDefault', json(CASE WHEN is_default THEN 'true' ELSE 'false' END)),
              'after', json_object('active', json('false'), 'isDefault', json('false')))`,
      },
      before: [db.all<{ isDefault: number }>(sql`SELECT is_default AS isDefault FROM printer_profiles WHERE ${guard}`)],
      // The version moves too: an edit form opened before is out of date.
      update: db.all<{ isDefault: number }>(sql`UPDATE printer_profiles
        SET active = ${active}, is_default = ${active ? noDefault : sql`0`}, version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING is_default AS isDefault`),
      readBack: db.all<{ name: string; locationId: string; writable: number }>(
        sql`SELECT name, location_id AS locationId, ${writable} AS writable FROM printer_profiles WHERE ${visible}`,
      ),
    });
    const [wasDefault] = before;
    const profile = current[0];
    if (!profile) return refuse("not_found");
    if (!profile.writable) return refuse("forbidden");
    const row = updated[0];
    if (!row) return refuse(active ? "already_active" : "already_archived");
    return {
      ok: true,
      name: profile.name,
      locationId: profile.locationId,
      wasDefault: Boolean(wasDefault[0]?.isDefault),
      isDefault: Boolean(row.isDefault),
    };
  } catch (error) {
    if (isDefaultClash(error)) return refuse("default_changed");
    throw error;
  }
}

export function archivePrinterProfile(db: Database, actor: ScopedActor, profileId: string) {
  return setActive(db, actor, profileId, false);
}

export function restorePrinterProfile(db: Database, actor: ScopedActor, profileId: string) {
  return setActive(db, actor, profileId, true);
}
