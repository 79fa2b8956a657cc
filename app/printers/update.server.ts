// Editing a printer profile under optimistic concurrency (as vendors): the form carries the
// `version` it was loaded with; the UPDATE applies only to that version and bumps it. WRITE_SETTINGS
// at the location in scope (every location in organization mode); a profile elsewhere is not found.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { nameClash } from "./create.server";
import type { PrinterProfileEditInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { changedFields, differsFrom, isNameClash, nameTaken, setFields } from "./write.server";

export async function updatePrinterProfile(
  db: Database,
  actor: ScopedActor,
  input: PrinterProfileEditInput & { profileId: string },
): Promise<Outcome<{ changed: boolean; version: number }>> {
  const { profileId, version, ...values } = input;
  const visible = sql`printer_profiles.id = ${profileId}
    AND ${locationsFor(actor, "READ_SETTINGS").where(sql`printer_profiles.location_id`)}`;
  const writable = sql`${locationsFor(actor, "WRITE_SETTINGS").where(sql`printer_profiles.location_id`)}`;
  const differs = differsFrom(values);
  const nameFree = sql`NOT ${nameTaken(sql`printer_profiles.location_id`, values.name, profileId)}`;
  const guard = sql`${visible} AND ${writable} AND printer_profiles.version = ${version} AND ${differs} AND ${nameFree}`;
  const { before, after } = changedFields(values);

  try {
    const [, updated, current] = await db.batch([
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: sql`location_id`,
          action: "printer_profile_update",
          entity: "printer_profile",
          entityId: profileId,
          summary: sql`json_object('name', ${values.name}, 'before', ${before}, 'after', ${after})`,
        },
        sql`FROM printer_profiles WHERE ${guard}`,
      ),
      db.all<{ version: number }>(sql`UPDATE printer_profiles SET ${setFields(values)},
          version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING version`),
      // Read in the same transaction, after the change: tells a refusal's reason apart.
      db.all<{ version: number; writable: number; differs: number; nameFree: number }>(
        sql`SELECT version, ${writable} AS writable, ${differs} AS differs, ${nameFree} AS nameFree
          FROM printer_profiles WHERE ${visible}`,
      ),
    ]);
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
