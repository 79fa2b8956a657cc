// Adding a service to the organization's catalogue (WRITE_PRODUCTS at the location in scope).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { activityLocation, type ScopedActor } from "~/access/actor";
import { canWriteCatalog } from "~/access/may-change";
import { logActivity } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { ServiceInput } from "./forms";
import { codeTakenMessage, type Outcome, refuse } from "./outcome";

/** The unique index on (organization, code) is the guard; its failure rolls the batch back. */
export function isServiceCodeClash(error: unknown): boolean {
  return constraintFailed(error, /services\.organization_id, services\.code/);
}

/** The form's fields as the table's columns. */
export function serviceColumns(input: ServiceInput) {
  return {
    name: input.name,
    code: input.code,
    category: input.category,
    priceCents: input.price,
    durationMinutes: input.duration,
  };
}

export async function createService(
  db: Database,
  actor: ScopedActor,
  input: ServiceInput,
): Promise<Outcome<{ serviceId: string }>> {
  if (!canWriteCatalog(actor)) return refuse("forbidden");
  const serviceId = uuidv7();
  const columns = serviceColumns(input);
  try {
    await db.batch([
      db.insert(schema.services).values({ id: serviceId, organizationId: sql`${organizationOf(actor)}`, ...columns }),
      logActivity(db, {
        userId: actor.id,
        locationId: activityLocation(actor),
        action: "create_service",
        entity: "service",
        entityId: serviceId,
        summary: { ...columns, version: 1 },
      }),
    ]);
  } catch (error) {
    if (isServiceCodeClash(error)) return refuse("code_taken", codeTakenMessage(input.code));
    throw error;
  }
  return { ok: true, serviceId };
}
