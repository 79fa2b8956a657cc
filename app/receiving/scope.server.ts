// Which receipts an actor reaches from where they stand: their organization's, at the location in
// scope (every location in organization mode, which only organization admins have). Every
// receiving read and write goes through it, so a receipt of another location is simply not there
// (a 404), and the permission checked at the location in scope is the one at the receipt's own.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { can, ORGANIZATION, type Permission } from "~/access/permissions";
import { organizationOf, raisedBy } from "~/db/sql.server";

/** The ids of the receipts the actor reaches, as a subquery for `… IN ${receiptsHere(actor)}`. */
export function receiptsHere(actor: ScopedActor): SQL {
  const atScope = actor.locationId === ORGANIZATION ? sql`` : sql`AND here.location_id = ${actor.locationId}`;
  return sql`(SELECT here.id FROM receipts AS here JOIN locations AS here_location ON here_location.id = here.location_id
    WHERE here_location.organization_id = ${organizationOf(actor)} ${atScope})`;
}

/**
 * Whether the actor holds `permission` where they stand. Receipts are reached only at that
 * location (or anywhere, for an organization admin, who holds everything everywhere).
 */
export function canAtScope(actor: ScopedActor, permission: Permission): boolean {
  return actor.locationId !== null && can(actor, permission, actor.locationId);
}

/** Whether a batch failed because the receipt_lines triggers refused a change to a closed receipt. */
export function isReceiptClosed(error: unknown): boolean {
  return raisedBy(error, /receipt is closed/);
}
