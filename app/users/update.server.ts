// Renaming a user: guarded by who may manage the account, logged with the names before and after.
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { changeWithActivity } from "~/activity/change.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { manageableBy } from "./access.server";
import { type Outcome, refuse } from "./outcome";

export async function updateUserNames(
  db: Database,
  actor: Actor,
  input: { userId: string; firstName: string; lastName: string },
): Promise<Outcome<{ changed: boolean }>> {
  const { userId, firstName, lastName } = input;
  const guard = and(eq(schema.users.id, userId), manageableBy(actor));
  const differs = sql`(first_name IS NOT ${firstName} OR last_name IS NOT ${lastName})`;
  const { updated, current } = await changeWithActivity(db, {
    from: schema.users,
    guard: and(guard, differs),
    activity: {
      userId: actor.id,
      action: "update_user",
      entity: "user",
      entityId: userId,
      summary: sql`json_object(
        'before', json_object('firstName', first_name, 'lastName', last_name),
        'after', json_object('firstName', ${firstName}, 'lastName', ${lastName}))`,
    },
    update: db
      .update(schema.users)
      .set({ firstName, lastName, updatedAt: new Date() })
      .where(and(guard, differs))
      .returning({ id: schema.users.id }),
    // Tells "nothing to change" from a refusal.
    readBack: db.all<{ manageable: number }>(
      sql`SELECT ${guard} AS manageable FROM users WHERE id = ${userId} AND organization_id = ${organizationOf(actor)}`,
    ),
  });
  if (updated.length === 1) return { ok: true, changed: true };
  if (!current[0]) return refuse("not_found");
  if (!current[0].manageable) return refuse("forbidden");
  return { ok: true, changed: false };
}
