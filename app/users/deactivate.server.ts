// Deactivating and reactivating a user. Deactivation ends every session of theirs in the same
// batch, and the organization is never left without an active organization admin: that rule is
// part of the UPDATE's condition, so two admins deactivating each other cannot both succeed.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { manageableBy, notLastOrganizationAdmin } from "./access.server";
import { type Outcome, refuse } from "./outcome";

interface Snapshot {
  active: number;
  manageable: number;
  notLastAdmin: number;
  email: string;
  name: string;
}

function snapshot(db: Database, actor: Actor, userId: string) {
  return db.all<Snapshot>(sql`SELECT active, ${manageableBy(actor)} AS manageable,
      ${notLastOrganizationAdmin} AS notLastAdmin, email, first_name || ' ' || last_name AS name
    FROM users WHERE id = ${userId} AND organization_id = ${organizationOf(actor)}`);
}

export async function deactivateUser(
  db: Database,
  actor: Actor,
  userId: string,
): Promise<Outcome<{ name: string; sessionsRevoked: number }>> {
  if (userId === actor.id) return refuse("yourself", "You cannot deactivate your own account.");
  const guard = and(
    eq(schema.users.id, userId),
    eq(schema.users.active, true),
    manageableBy(actor),
    notLastOrganizationAdmin,
  );
  const now = new Date();
  const [before, , deactivated, revoked] = await db.batch([
    snapshot(db, actor, userId),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        action: "deactivate_user",
        entity: "user",
        entityId: userId,
        summary: sql`json_object('email', email, 'before', json_object('active', json('true')),
          'after', json_object('active', json('false')))`,
      },
      sql`FROM users WHERE ${guard}`,
    ),
    db.update(schema.users).set({ active: false, updatedAt: now }).where(guard).returning({ id: schema.users.id }),
    // Harmless if nothing changed: an inactive user's sessions are dead either way.
    db
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(schema.sessions.userId, userId),
          isNull(schema.sessions.revokedAt),
          sql`(SELECT active FROM users WHERE users.id = ${userId}) = 0`,
        ),
      )
      .returning({ id: schema.sessions.id }),
  ]);
  const target = before[0];
  if (deactivated.length === 1 && target) return { ok: true, name: target.name, sessionsRevoked: revoked.length };
  if (!target) return refuse("not_found");
  if (!target.manageable) return refuse("forbidden");
  if (!target.active) return refuse("already_inactive");
  if (!target.notLastAdmin) return refuse("last_organization_admin");
  // Only reachable if the row changed between the snapshot and the update, which one transaction rules out.
  throw new Error("deactivateUser: the guard refused for no known reason");
}

export async function reactivateUser(db: Database, actor: Actor, userId: string): Promise<Outcome<{ name: string }>> {
  const guard = and(eq(schema.users.id, userId), eq(schema.users.active, false), manageableBy(actor));
  const [before, , reactivated] = await db.batch([
    snapshot(db, actor, userId),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        action: "reactivate_user",
        entity: "user",
        entityId: userId,
        summary: sql`json_object('email', email, 'before', json_object('active', json('false')),
          'after', json_object('active', json('true')))`,
      },
      sql`FROM users WHERE ${guard}`,
    ),
    db
      .update(schema.users)
      .set({ active: true, updatedAt: new Date() })
      .where(guard)
      .returning({ id: schema.users.id }),
  ]);
  const target = before[0];
  if (reactivated.length === 1 && target) return { ok: true, name: target.name };
  if (!target) return refuse("not_found");
  if (!target.manageable) return refuse("forbidden");
  return refuse("already_active");
}
