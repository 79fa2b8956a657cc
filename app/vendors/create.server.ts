// Adding a vendor: WRITE_VENDORS at the location in scope; the name is unique in the organization.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteVendors } from "~/access/may-change";
import { recordedFields } from "~/activity/change.server";
import { logActivityWhere } from "~/activity/log.server";
import { type Database, schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { VENDOR_FIELDS } from "./constants";
import type { VendorInput } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { isNameClash, nameTaken } from "./write.server";

export async function createVendor(
  db: Database,
  actor: ScopedActor,
  input: VendorInput,
): Promise<Outcome<{ vendorId: string }>> {
  if (!canWriteVendors(actor)) return refuse("forbidden");
  const vendorId = uuidv7();
  try {
    const [created] = await db.batch([
      // Inserted only if no vendor has the name yet; the activity row only if the vendor was.
      db.all<{ id: string }>(sql`INSERT INTO vendors (id, organization_id, name, account_number, contact_name,
          email, phone, lead_time_days, notes, active, version, created_at)
        SELECT ${vendorId}, ${organizationOf(actor)}, ${input.name}, ${input.accountNumber}, ${input.contactName},
          ${input.email}, ${input.phone}, ${input.leadTimeDays}, ${input.notes}, 1, 1, ${Date.now()}
        WHERE NOT ${nameTaken(actor, input.name)}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: activityLocation(actor),
          action: "create_vendor",
          entity: "vendor",
          entityId: vendorId,
          summary: recordedFields(schema.vendors, VENDOR_FIELDS),
        },
        sql`FROM vendors WHERE id = ${vendorId}`,
      ),
    ]);
    if (created.length !== 1) return nameClash(input.name);
  } catch (error) {
    if (isNameClash(error)) return nameClash(input.name);
    throw error;
  }
  return { ok: true, vendorId };
}

export function nameClash(name: string) {
  return refuse("name_taken", `A vendor named ${name} already exists. Choose a different name, or edit that vendor.`);
}
