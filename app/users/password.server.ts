// Passwords set by someone else (a reset: the user must choose their own at next sign-in) and by
// the user themselves (clears that obligation). Both end sessions in the same batch; neither
// ever logs a password or a hash.
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import { logActivity, logActivityWhere } from "~/activity/log.server";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import { checkPasswordThrottled, forgetAccounts, lockedMessage, throttleKeys } from "~/auth/throttle.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { manageableBy } from "./access.server";
import { type Outcome, refuse, type UserRefusal } from "./outcome";

/** Sets a new initial password for someone else, signs them out everywhere, forces a change. */
export async function resetPassword(
  db: Database,
  actor: Actor,
  input: { userId: string; password: string },
): Promise<Outcome<{ name: string; sessionsRevoked: number }>> {
  if (input.userId === actor.id) {
    return refuse("yourself", "To change your own password, use Change password instead.");
  }
  const passwordHash = await hashPassword(input.password);
  const guard = and(eq(schema.users.id, input.userId), manageableBy(actor));
  const now = new Date();
  const [before, , reset, revoked] = await db.batch([
    db.all<{ manageable: number; name: string }>(sql`SELECT ${manageableBy(actor)} AS manageable,
        first_name || ' ' || last_name AS name
      FROM users WHERE id = ${input.userId} AND organization_id = ${organizationOf(actor)}`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        action: "reset_password",
        entity: "user",
        entityId: input.userId,
        summary: sql`json_object('email', email, 'mustChangePassword', json('true'))`,
      },
      sql`FROM users WHERE ${guard}`,
    ),
    db
      .update(schema.users)
      .set({ passwordHash, mustChangePassword: true, updatedAt: now })
      .where(guard)
      .returning({ id: schema.users.id }),
    // Only if the reset happened: the stored hash is the new one (its salt makes it unique).
    db
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(schema.sessions.userId, input.userId),
          isNull(schema.sessions.revokedAt),
          sql`(SELECT password_hash FROM users WHERE users.id = ${input.userId}) = ${passwordHash}`,
        ),
      )
      .returning({ id: schema.sessions.id }),
    // Only if the reset happened, likewise: the lock message tells a locked-out person to ask for one.
    forgetAccounts(db, sql`users.id = ${input.userId} AND users.password_hash = ${passwordHash}`),
  ]);
  const target = before[0];
  if (reset.length === 1 && target) return { ok: true, name: target.name, sessionsRevoked: revoked.length };
  if (!target) return refuse("not_found");
  return refuse("forbidden");
}

/**
 * The signed-in user replaces their password: the current one must be right and the new one
 * different. Clears "must change password" and ends their other sessions; this one stays.
 * Checking the current password is a guess like a sign-in (a stolen session could otherwise try
 * passwords freely), so it is reserved against the same throttle keys first (ADR 0011).
 * Two round trips: the stored hash and the reservation, then the change.
 */
export async function changeOwnPassword(
  db: Database,
  user: { id: string; sessionId: string; email: string },
  input: { currentPassword: string; newPassword: string },
  { clientIp = null, sleep }: { clientIp?: string | null; sleep?: (ms: number) => Promise<unknown> } = {},
): Promise<Outcome<{ sessionsRevoked: number }, UserRefusal | "too_many_attempts">> {
  const keys = throttleKeys(user.email, clientIp);
  // Guesses are recorded as a sign-in's are: a stolen session guessing shows in the activity log.
  const guess = (action: "change_password_failed" | "change_password_refused", email: string) =>
    logActivity(db, { userId: user.id, action, entity: "user", entityId: user.id, summary: { email } });
  const check = await checkPasswordThrottled(db, keys, {
    password: input.currentPassword,
    read: () =>
      [
        db
          .select({ passwordHash: schema.users.passwordHash, email: schema.users.email })
          .from(schema.users)
          .where(and(eq(schema.users.id, user.id), eq(schema.users.active, true))),
      ] as const,
    hashOf: ([found]) => found[0]?.passwordHash ?? null,
    // Signed in, yet no active account: it was deactivated meanwhile, not guessed at.
    nobody: "gone",
    onWrong: ([found]) => [guess("change_password_failed", found[0]?.email ?? user.email)],
    sleep,
  });
  const account = check.found[0][0];
  if (!account) return refuse("not_found");
  if (check.password === "locked") {
    await guess("change_password_refused", account.email);
    return { ok: false, refusal: "too_many_attempts", message: lockedMessage(check.lockedForMs) };
  }
  if (check.password !== "right") return refuse("wrong_password");
  if (await verifyPassword(input.newPassword, account.passwordHash)) {
    await db.batch(check.release);
    return refuse("same_password");
  }

  const passwordHash = await hashPassword(input.newPassword);
  const now = new Date();
  // Compare-and-swap on the hash just verified: a concurrent change makes this one change nothing.
  const unchanged = and(eq(schema.users.id, user.id), eq(schema.users.passwordHash, account.passwordHash));
  const [, changed, revoked] = await db.batch([
    logActivityWhere(
      db,
      {
        userId: user.id,
        action: "change_password",
        entity: "user",
        entityId: user.id,
        summary: sql`json_object('email', email, 'forced', json(CASE must_change_password WHEN 1 THEN 'true' ELSE 'false' END))`,
      },
      sql`FROM users WHERE ${unchanged}`,
    ),
    db
      .update(schema.users)
      .set({ passwordHash, mustChangePassword: false, updatedAt: now })
      .where(unchanged)
      .returning({ id: schema.users.id }),
    db
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(schema.sessions.userId, user.id),
          ne(schema.sessions.id, user.sessionId),
          isNull(schema.sessions.revokedAt),
          sql`(SELECT password_hash FROM users WHERE users.id = ${user.id}) = ${passwordHash}`,
        ),
      )
      .returning({ id: schema.sessions.id }),
    // The current password was right: the attempt is given back.
    ...check.release,
  ]);
  if (changed.length !== 1) return refuse("changed_meanwhile");
  return { ok: true, sessionsRevoked: revoked.length };
}
