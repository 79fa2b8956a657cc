// What the printer settings screens read, one query or batch each: the organization's active
// locations (the organization-mode picker) with the profiles of one location, and one profile.
// Profiles are seen at the location in scope with READ_SETTINGS there (every location in organization mode).
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { LabelProfile } from "~/labels/options";

const pp = schema.printerProfiles;
const l = schema.locations;

const profileColumns = {
  id: pp.id,
  locationId: pp.locationId,
  name: pp.name,
  output: pp.output,
  zplDelivery: pp.zplDelivery,
  widthTenthMm: pp.widthTenthMm,
  heightTenthMm: pp.heightTenthMm,
  dpi: pp.dpi,
  symbology: pp.symbology,
  fields: pp.fields,
  copies: pp.copies,
  offsetXTenthMm: pp.offsetXTenthMm,
  offsetYTenthMm: pp.offsetYTenthMm,
  isDefault: pp.isDefault,
  active: pp.active,
  version: pp.version,
};

/** A profile as the screens read it; the schema's CHECK keeps `dpi` to the two resolutions. */
export type PrinterProfileRow = Omit<typeof pp.$inferSelect, "createdAt" | "updatedAt" | "dpi"> & LabelProfile;

const readable = (actor: ScopedActor) => locationsFor(actor, "READ_SETTINGS").where(pp.locationId);

/** A query for the profiles of a location the actor may read, the default first, archived last. */
export function profilesAt(db: Database, actor: ScopedActor, locationId: string) {
  return db
    .select(profileColumns)
    .from(pp)
    .where(and(eq(pp.locationId, locationId), readable(actor)))
    .orderBy(desc(pp.active), desc(pp.isDefault), asc(pp.name), asc(pp.id));
}

export async function printerSettings(db: Database, actor: ScopedActor, locationId: string | null) {
  const locations = db
    .select({ id: l.id, name: l.name, code: l.code })
    .from(l)
    .where(and(sql`${l.organizationId} = ${organizationOf(actor)}`, eq(l.active, true)))
    .orderBy(asc(l.name));
  const [active, profiles] = await db.batch([locations, profilesAt(db, actor, locationId ?? "")]);
  return { locations: active, profiles: profiles as PrinterProfileRow[] };
}

/** One profile the actor may read, with its location's name; null when not there. */
export async function printerProfileDetail(db: Database, actor: ScopedActor, profileId: string) {
  const [profile] = await db
    .select({ ...profileColumns, locationName: l.name, locationCode: l.code })
    .from(pp)
    .innerJoin(l, eq(l.id, pp.locationId))
    .where(and(eq(pp.id, profileId), readable(actor)));
  return (profile as (PrinterProfileRow & { locationName: string; locationCode: string }) | undefined) ?? null;
}
