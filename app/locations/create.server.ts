// Opening a new location: organization-level, so organization admins only.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Actor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import { logActivity } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { LocationInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

/** The unique index on (organization, code) is the guard; its failure rolls the batch back. */
export function isCodeClash(error: unknown): boolean {
  return constraintFailed(error, /locations\.organization_id, locations\.code|locations\.code/);
}

export async function createLocation(
  db: Database,
  actor: Actor,
  input: LocationInput,
): Promise<Outcome<{ locationId: string }>> {
  if (!isOrganizationAdmin(actor)) return refuse("forbidden");
  const locationId = uuidv7();
  try {
    await db.batch([
      db.insert(schema.locations).values({ id: locationId, organizationId: sql`${organizationOf(actor)}`, ...input }),
      logActivity(db, {
        userId: actor.id,
        locationId,
        action: "create_location",
        entity: "location",
        entityId: locationId,
        summary: { ...input },
      }),
    ]);
  } catch (error) {
    if (isCodeClash(error)) return refuse("code_taken", `A location with the code ${input.code} already exists.`);
    throw error;
  }
  return { ok: true, locationId };
}
