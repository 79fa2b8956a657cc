// The services a draw may be recorded against: read by every screen that draws from a vial (the
// vial page, the scan card), so it lives with the catalogue rather than inside the services screens.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";

const s = schema.services;

/** The organization's active services by name, as a query to batch: what a draw may be recorded against. */
export function serviceChoices(db: Database, actor: Actor) {
  // Served by services_org_active_name_idx (organization, active, name).
  return db
    .select({ id: s.id, name: s.name })
    .from(s)
    .where(and(sql`${s.organizationId} = ${organizationOf(actor)}`, eq(s.active, true)))
    .orderBy(asc(s.name));
}
