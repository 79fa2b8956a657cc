// Creating a user: an account with an initial password they must change at first sign-in, and
// (usually) a role at one location, written with its activity row in one batch.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Actor } from "~/access/actor";
import { canManageRolesAt } from "~/access/may-change";
import { isOrganizationAdmin } from "~/access/permissions";
import { logActivity } from "~/activity/log.server";
import { hashPassword } from "~/auth/password.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { LocationRole } from "../../db/schema";
import { type Outcome, refuse } from "./outcome";

export interface NewUser {
  /** Already trimmed and lower-cased (CreateUserForm). */
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** Null: no location yet, which only an organization admin may choose. */
  role: { locationId: string; role: LocationRole } | null;
}

/** Who opens an account: its owner's details, the organization (a value or a guarding subquery), and its role there. */
export interface NewAccount {
  userId: string;
  organizationId: SQL;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  organizationRole?: "ORGANIZATION_ADMIN";
  mustChangePassword: boolean;
  now: Date;
}

/**
 * The account and its `user_create` activity row, for the caller's batch: the Users screen and
 * `npm run admin:create` (the first organization admin) open accounts the same way.
 */
export async function accountStatements(
  db: Database,
  account: NewAccount,
  activity: { userId: string | null; locationId: string | null; summary: Record<string, unknown> },
) {
  const { userId, email, firstName, lastName } = account;
  return [
    db.insert(schema.users).values({
      id: userId,
      organizationId: account.organizationId,
      email,
      firstName,
      lastName,
      passwordHash: await hashPassword(account.password),
      organizationRole: account.organizationRole ?? null,
      mustChangePassword: account.mustChangePassword,
      createdAt: account.now,
    }),
    logActivity(db, {
      userId: activity.userId,
      locationId: activity.locationId,
      action: "create_user",
      entity: "user",
      entityId: userId,
      summary: { email, firstName, lastName, ...activity.summary },
    }),
  ] as const;
}

export async function createUser(db: Database, actor: Actor, input: NewUser): Promise<Outcome<{ userId: string }>> {
  const allowed = input.role ? canManageRolesAt(actor, input.role.locationId) : isOrganizationAdmin(actor);
  if (!allowed) return refuse("forbidden");

  const userId = uuidv7();
  const now = new Date();
  const organizationId = organizationOf(actor);
  const [createAccount, record] = await accountStatements(
    db,
    { ...input, userId, organizationId: sql`${organizationId}`, mustChangePassword: true, now },
    {
      userId: actor.id,
      locationId: input.role?.locationId ?? null,
      summary: input.role ? { role: input.role.role } : {},
    },
  );

  try {
    if (input.role) {
      // An archived (or foreign) location makes the subquery NULL: the NOT NULL constraint then
      // rolls the whole batch back, account included.
      const location = sql`(SELECT id FROM locations
        WHERE id = ${input.role.locationId} AND active = 1 AND organization_id = ${organizationId})`;
      await db.batch([
        createAccount,
        db
          .insert(schema.userLocationRoles)
          .values({ userId, locationId: sql`${location}`, role: input.role.role, createdAt: now }),
        record,
      ]);
    } else {
      await db.batch([createAccount, record]);
    }
  } catch (error) {
    // The unique index on the lower-cased email is the guard: no read-then-insert race.
    if (constraintFailed(error, /users\.email/)) {
      return refuse("email_taken", `A user with the email ${input.email} already exists.`);
    }
    if (constraintFailed(error, /user_location_roles\.location_id|FOREIGN KEY/)) return refuse("location_unavailable");
    throw error;
  }
  return { ok: true, userId };
}
