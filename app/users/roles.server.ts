// Granting, changing and revoking a user's role at a location. Only someone with WRITE_USERS at
// that location may do it (an organization admin anywhere). Each is one batch: a snapshot read
// for explaining a refusal, the activity row and the change, both under the same SQL condition.
import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { canManageRolesAt } from "~/access/may-change";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import type { LocationRole } from "../../db/schema";
import { type Outcome, refuse } from "./outcome";

export interface RoleChange {
  userId: string;
  name: string;
  location: { name: string; code: string };
}

interface Snapshot {
  userId: string;
  firstName: string;
  lastName: string;
  currentRole: LocationRole | null;
  locationActive: number | null;
  locationName: string | null;
  locationCode: string | null;
}

/** The target user and the location as they stand, read in the command's own transaction. */
function snapshot(db: Database, actor: Actor, who: SQL, locationId: string) {
  return db.all<Snapshot>(sql`SELECT u.id AS userId, u.first_name AS firstName, u.last_name AS lastName,
      r.role AS currentRole, l.active AS locationActive, l.name AS locationName, l.code AS locationCode
    FROM users AS u
    LEFT JOIN locations AS l ON l.id = ${locationId} AND l.organization_id = u.organization_id
    LEFT JOIN user_location_roles AS r ON r.user_id = u.id AND r.location_id = ${locationId}
    WHERE ${who} AND u.organization_id = ${organizationOf(actor)}`);
}

function changed(s: Snapshot): RoleChange {
  return {
    userId: s.userId,
    name: `${s.firstName} ${s.lastName}`,
    location: { name: s.locationName ?? "", code: s.locationCode ?? "" },
  };
}

/** Gives a user (named by id, or by email when adding an existing person) a role at a location. */
export async function grantRole(
  db: Database,
  actor: Actor,
  input: { user: { id: string } | { email: string }; locationId: string; role: LocationRole },
): Promise<Outcome<RoleChange>> {
  if (!canManageRolesAt(actor, input.locationId)) return refuse("forbidden");
  const who = "id" in input.user ? sql`u.id = ${input.user.id}` : sql`u.email = ${input.user.email}`;
  const candidate = sql`FROM users AS u JOIN locations AS l ON l.organization_id = u.organization_id
    WHERE ${who} AND u.organization_id = ${organizationOf(actor)} AND l.id = ${input.locationId} AND l.active = 1
      AND NOT EXISTS (SELECT 1 FROM user_location_roles AS r WHERE r.user_id = u.id AND r.location_id = l.id)`;
  const [before, , granted] = await db.batch([
    snapshot(db, actor, who, input.locationId),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "grant_role",
        entity: "user",
        entityId: sql`u.id`,
        summary: sql`json_object('email', u.email, 'location', l.code, 'after', ${input.role})`,
      },
      candidate,
    ),
    db.all<{ userId: string }>(sql`INSERT INTO user_location_roles (user_id, location_id, role, created_at)
      SELECT u.id, l.id, ${input.role}, ${Date.now()} ${candidate} RETURNING user_id AS userId`),
  ]);
  const target = before[0];
  if (!target) {
    return "email" in input.user
      ? refuse("not_found", `No user with the email ${input.user.email} exists in your organization.`)
      : refuse("not_found");
  }
  if (granted.length === 1) return { ok: true, ...changed(target) };
  if (!target.locationActive) return refuse("location_unavailable");
  return refuse("has_role");
}

/** Changes the role a user already has at a location. Setting the same role again changes nothing. */
export async function changeRole(
  db: Database,
  actor: Actor,
  input: { userId: string; locationId: string; role: LocationRole },
): Promise<Outcome<RoleChange & { changed: boolean }>> {
  if (!canManageRolesAt(actor, input.locationId)) return refuse("forbidden");
  const current = sql`FROM user_location_roles AS r
    JOIN users AS u ON u.id = r.user_id
    JOIN locations AS l ON l.id = r.location_id
    WHERE r.user_id = ${input.userId} AND r.location_id = ${input.locationId}
      AND u.organization_id = ${organizationOf(actor)} AND r.role <> ${input.role}`;
  const [before, , updated] = await db.batch([
    snapshot(db, actor, sql`u.id = ${input.userId}`, input.locationId),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "change_role",
        entity: "user",
        entityId: input.userId,
        summary: sql`json_object('email', u.email, 'location', l.code, 'before', r.role, 'after', ${input.role})`,
      },
      current,
    ),
    db.all<{ role: LocationRole }>(sql`UPDATE user_location_roles SET role = ${input.role}
      WHERE user_id = ${input.userId} AND location_id = ${input.locationId} AND role <> ${input.role}
        AND EXISTS (SELECT 1 FROM users AS u
          WHERE u.id = user_location_roles.user_id AND u.organization_id = ${organizationOf(actor)})
      RETURNING role`),
  ]);
  const target = before[0];
  if (!target) return refuse("not_found");
  if (!target.currentRole) return refuse("no_role");
  return { ok: true, ...changed(target), changed: updated.length === 1 };
}

/** Takes away a user's role at a location (the account stays; roles elsewhere stay). */
export async function revokeRole(
  db: Database,
  actor: Actor,
  input: { userId: string; locationId: string },
): Promise<Outcome<RoleChange>> {
  if (!canManageRolesAt(actor, input.locationId)) return refuse("forbidden");
  const current = sql`FROM user_location_roles AS r
    JOIN users AS u ON u.id = r.user_id
    JOIN locations AS l ON l.id = r.location_id
    WHERE r.user_id = ${input.userId} AND r.location_id = ${input.locationId}
      AND u.organization_id = ${organizationOf(actor)}`;
  const [before, , removed] = await db.batch([
    snapshot(db, actor, sql`u.id = ${input.userId}`, input.locationId),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: input.locationId,
        action: "revoke_role",
        entity: "user",
        entityId: input.userId,
        summary: sql`json_object('email', u.email, 'location', l.code, 'before', r.role)`,
      },
      current,
    ),
    db.all<{ role: LocationRole }>(sql`DELETE FROM user_location_roles
      WHERE user_id = ${input.userId} AND location_id = ${input.locationId}
        AND EXISTS (SELECT 1 FROM users AS u
          WHERE u.id = user_location_roles.user_id AND u.organization_id = ${organizationOf(actor)})
      RETURNING role`),
  ]);
  const target = before[0];
  if (!target) return refuse("not_found");
  if (removed.length === 1) return { ok: true, ...changed(target) };
  return refuse("no_role");
}
