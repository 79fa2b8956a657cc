// What the users screens read: one page of the people visible in the scope with their roles, and
// one person with theirs. Each is a single batch (one round trip).

import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Scope } from "~/access/location-choice.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { anyContains } from "~/db/sql.server";
import { numberedPage, pageOffset } from "~/ui/page-count";
import type { LocationRole } from "../../db/schema";
import { visibleIn } from "./access.server";

export const USERS_PAGE_SIZE = 25;

export interface UserRoleRow {
  locationId: string;
  role: LocationRole;
  name: string;
  code: string;
  active: boolean;
}

export interface UserRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organizationRole: "ORGANIZATION_ADMIN" | null;
  active: boolean;
  mustChangePassword: boolean;
  lastLoginAt: Date | null;
  roles: UserRoleRow[];
}

const u = schema.users;
const r = schema.userLocationRoles;
const l = schema.locations;

const userColumns = {
  id: u.id,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  organizationRole: u.organizationRole,
  active: u.active,
  mustChangePassword: u.mustChangePassword,
  lastLoginAt: u.lastLoginAt,
};

const roleColumns = {
  userId: r.userId,
  locationId: r.locationId,
  role: r.role,
  name: l.name,
  code: l.code,
  active: l.active,
};

const byName = [asc(sql`lower(${u.lastName})`), asc(sql`lower(${u.firstName})`), asc(u.id)];

/** Name or email containing `q`, ignoring case; LIKE's wildcards in `q` match only themselves. */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  return anyContains(q, [sql`${u.firstName} || ' ' || ${u.lastName}`, u.email]);
}

function withRoles<T extends { id: string }>(
  users: T[],
  roles: ({ userId: string } & UserRoleRow)[],
): (T & { roles: UserRoleRow[] })[] {
  return users.map((user) => ({
    ...user,
    roles: roles.filter((x) => x.userId === user.id).map(({ userId: _, ...role }) => role),
  }));
}

export async function listUsers(
  db: Database,
  viewer: { user: Actor; scope: Scope },
  query: { q: string; page: number },
) {
  const where = and(visibleIn(viewer.user, viewer.scope), matching(query.q));
  const offset = pageOffset(query.page, USERS_PAGE_SIZE);
  const pageOfIds = db
    .select({ id: u.id })
    .from(u)
    .where(where)
    .orderBy(...byName)
    .limit(USERS_PAGE_SIZE)
    .offset(offset);
  const [users, roles, totals, zone] = await db.batch([
    db
      .select(userColumns)
      .from(u)
      .where(where)
      .orderBy(...byName)
      .limit(USERS_PAGE_SIZE)
      .offset(offset),
    db
      .select(roleColumns)
      .from(r)
      .innerJoin(l, eq(l.id, r.locationId))
      .where(inArray(r.userId, pageOfIds))
      .orderBy(asc(l.name)),
    db.select({ total: count() }).from(u).where(where),
    // Last sign-in times are shown in the location's time zone (UTC in organization mode).
    db
      .select({ timezone: l.timezone })
      .from(l)
      .where(eq(l.id, viewer.scope.kind === "location" ? viewer.scope.locationId : "")),
  ]);
  return {
    users: withRoles(users, roles),
    ...numberedPage(totals, query.page, USERS_PAGE_SIZE),
    timezone: zone[0]?.timezone ?? "UTC",
  };
}

/** One user visible in the viewer's scope, with every role they hold; null when not visible. */
export async function userDetail(
  db: Database,
  viewer: { user: Actor; scope: Scope },
  userId: string,
): Promise<{ user: UserRow; timezone: string } | null> {
  const [users, roles, zone] = await db.batch([
    db
      .select(userColumns)
      .from(u)
      .where(and(eq(u.id, userId), visibleIn(viewer.user, viewer.scope))),
    db
      .select(roleColumns)
      .from(r)
      .innerJoin(l, eq(l.id, r.locationId))
      .where(eq(r.userId, userId))
      .orderBy(asc(l.name)),
    db
      .select({ timezone: l.timezone })
      .from(l)
      .where(eq(l.id, viewer.scope.kind === "location" ? viewer.scope.locationId : "")),
  ]);
  const [user] = withRoles(users, roles);
  if (!user) return null;
  return { user: { ...user, organizationRole: user.organizationRole ?? null }, timezone: zone[0]?.timezone ?? "UTC" };
}
