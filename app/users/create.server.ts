// Creating a user: an account with an initial password they must change at first sign-in, and
// (usually) a role at one location, written with its activity row in one batch.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Actor } from "~/access/actor";
import { isOrganizationAdmin } from "~/access/permissions";
import { logActivity } from "~/activity/log.server";
import { hashPassword } from "~/auth/password.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import type { LocationRole } from "../../db/schema";
import { canManageRolesAt } from "./actor";
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

export async function createUser(db: Database, actor: Actor, input: NewUser): Promise<Outcome<{ userId: string }>> {
  const allowed = input.role ? canManageRolesAt(actor, input.role.locationId) : isOrganizationAdmin(actor);
  if (!allowed) return refuse("forbidden");

  const userId = uuidv7();
  const now = new Date();
  const organizationId = organizationOf(actor);
  const createAccount = db.insert(schema.users).values({
    id: userId,
    organizationId: sql`${organizationId}`,
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: await hashPassword(input.password),
    mustChangePassword: true,
    createdAt: now,
  });
  const record = logActivity(db, {
    userId: actor.id,
    locationId: input.role?.locationId ?? null,
    action: "user_create",
    entity: "user",
    entityId: userId,
    summary: {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      ...(input.role ? { role: input.role.role } : {}),
    },
  });

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
