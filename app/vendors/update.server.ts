// Editing a vendor under optimistic concurrency (as products): the form carries the `version` it
// was loaded with, and the UPDATE only applies to that version (and bumps it). A stale save
// changes nothing and is refused, so one person's edit never silently overwrites another's.
import { sql } from "drizzle-orm";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteVendors } from "~/access/may-change";
import { changedFields, changeWithActivity } from "~/activity/change.server";
import { type Database, schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { VENDOR_FIELDS } from "./constants";
import { nameClash } from "./create.server";
import type { VendorEditInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { isNameClash, nameTaken } from "./write.server";

export async function updateVendor(
  db: Database,
  actor: ScopedActor,
  input: VendorEditInput & { vendorId: string },
): Promise<Outcome<{ changed: boolean; version: number }>> {
  if (!canWriteVendors(actor)) return refuse("forbidden");
  const { vendorId, version, ...values } = input;
  const found = sql`vendors.id = ${vendorId} AND vendors.organization_id = ${organizationOf(actor)}`;
  const { differs, before, after } = changedFields(schema.vendors, VENDOR_FIELDS, values);
  const nameFree = sql`NOT ${nameTaken(actor, values.name, vendorId)}`;
  const guard = sql`${found} AND vendors.version = ${version} AND ${differs} AND ${nameFree}`;

  try {
    const { updated, current } = await changeWithActivity(db, {
      from: schema.vendors,
      guard,
      activity: {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "update_vendor",
        entity: "vendor",
        entityId: vendorId,
        summary: sql`json_object('name', ${values.name}, 'before', ${before}, 'after', ${after})`,
      },
      update: db.all<{
        version: number;
      }>(sql`UPDATE vendors SET name = ${values.name}, account_number = ${values.accountNumber},
          contact_name = ${values.contactName}, email = ${values.email}, phone = ${values.phone},
          lead_time_days = ${values.leadTimeDays}, notes = ${values.notes},
          version = version + 1, updated_at = ${Date.now()}
        WHERE ${guard} RETURNING version`),
      readBack: db.all<{ version: number; differs: number; nameFree: number }>(
        sql`SELECT version, ${differs} AS differs, ${nameFree} AS nameFree FROM vendors WHERE ${found}`,
      ),
    });
    const saved = updated[0];
    if (saved) return { ok: true, changed: true, version: Number(saved.version) };
    const row = current[0];
    if (!row) return refuse("not_found");
    if (!row.differs) return { ok: true, changed: false, version: Number(row.version) };
    if (Number(row.version) !== version) return refuse("stale");
    if (!row.nameFree) return nameClash(values.name);
    return { ok: true, changed: false, version: Number(row.version) };
  } catch (error) {
    if (isNameClash(error)) return nameClash(values.name);
    throw error;
  }
}
