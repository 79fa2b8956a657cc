// Who may see and manage whom, as SQL conditions over the `users` row being read or changed, so
// the rule is checked in the same statement as the change (no read-then-write race).
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Scope } from "~/access/location-choice.server";
import { userAdminLocationIds } from "~/access/may-change";
import { isOrganizationAdmin } from "~/access/permissions";
import { locationsFor } from "~/access/scope.server";
import { organizationOf, valueList } from "~/db/sql.server";

const NOTHING = sql`0`;

/**
 * Users the screen lists in `scope`: those with a role at the location in scope (READ_USERS there,
 * app/access/scope.server), or in organization mode everyone in the organization, with a location or none yet.
 */
export function visibleIn(actor: Actor, scope: Scope): SQL {
  const sameOrganization = sql`"users"."organization_id" = ${organizationOf(actor)}`;
  if (scope.kind === "organization") return isOrganizationAdmin(actor) ? sameOrganization : NOTHING;
  const here = locationsFor({ ...actor, locationId: scope.locationId }, "READ_USERS");
  if (here.ids.length === 0) return NOTHING;
  return sql`(${sameOrganization} AND EXISTS (SELECT 1 FROM user_location_roles AS here
    WHERE here.user_id = "users"."id" AND ${here.where(sql`here.location_id`)}))`;
}

/**
 * The account rule (see `canManageAccount`): organization admins manage anyone in the
 * organization; a location admin manages someone who is not an organization admin and whose every
 * role (at least one) is at a location that admin administers.
 */
export function manageableBy(actor: Actor): SQL {
  const sameOrganization = sql`"users"."organization_id" = ${organizationOf(actor)}`;
  if (isOrganizationAdmin(actor)) return sameOrganization;
  const administered = userAdminLocationIds(actor);
  if (administered.length === 0) return NOTHING;
  const list = valueList(administered);
  return sql`(${sameOrganization} AND "users"."organization_role" IS NULL
    AND EXISTS (SELECT 1 FROM user_location_roles AS mine
      WHERE mine.user_id = "users"."id" AND mine.location_id IN (${list}))
    AND NOT EXISTS (SELECT 1 FROM user_location_roles AS elsewhere
      WHERE elsewhere.user_id = "users"."id" AND elsewhere.location_id NOT IN (${list})))`;
}

/** False only for the organization's last active organization admin. */
export const notLastOrganizationAdmin = sql`("users"."organization_role" IS NULL OR EXISTS (
  SELECT 1 FROM users AS other
  WHERE other.organization_id = "users"."organization_id" AND other.id <> "users"."id"
    AND other.organization_role = 'ORGANIZATION_ADMIN' AND other.active = 1))`;
