// Signing in and out: the domain verbs behind the login form, /api/auth/login and logout.
import { eq } from "drizzle-orm";
import { logActivity } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { hashPassword, needsRehash } from "./password.server";
import { highestRole } from "./roles";
import { newSessionToken, openSession, revokeSession, type SessionUser, sessionIdOf } from "./session.server";
import { checkPasswordThrottled, lockedMessage, throttleKeys } from "./throttle.server";
import type { CurrentUser } from "./user";

export type SignInResult =
  | { ok: true; user: Omit<CurrentUser, "locationRoles">; token: string; mustChangePassword: boolean }
  | { ok: false; status: 401 | 403 | 429; message: string };

// The spec's login message for a refused sign-in; the same words whether the email or the
// password was wrong, so the form does not reveal which accounts exist.
export const INVALID_CREDENTIALS = "Invalid credentials";
export const ACCOUNT_DEACTIVATED = "This account has been deactivated. Ask your administrator to reactivate it.";

export async function signIn(
  db: Database,
  input: { email: string; password: string; userAgent: string | null; clientIp?: string | null },
  { sleep }: { sleep?: (ms: number) => Promise<unknown> } = {},
): Promise<SignInResult> {
  const keys = throttleKeys(input.email, input.clientIp);
  // One round trip: the account and its roles, read beside the place this attempt holds while its
  // password is checked (a refused attempt counts nothing).
  const check = await checkPasswordThrottled(db, keys, {
    password: input.password,
    read: () =>
      [
        db.select().from(schema.users).where(eq(schema.users.email, input.email)).limit(1),
        db
          .select({ role: schema.userLocationRoles.role })
          .from(schema.userLocationRoles)
          .innerJoin(schema.users, eq(schema.users.id, schema.userLocationRoles.userId))
          .where(eq(schema.users.email, input.email)),
      ] as const,
    hashOf: ([found]) => found[0]?.passwordHash ?? null,
    onWrong: ([found]) => [
      logActivity(db, {
        userId: found[0]?.id ?? null,
        action: "sign_in_failed",
        entity: "user",
        entityId: found[0]?.id ?? null,
        summary: { email: input.email },
      }),
    ],
    sleep,
  });
  const [found, roles] = check.found;
  const account = found[0];

  if (check.password === "locked") {
    await logActivity(db, {
      userId: account?.id ?? null,
      action: "sign_in_refused",
      entity: "user",
      entityId: account?.id ?? null,
      summary: { email: input.email, reason: "too many failed attempts" },
    });
    return { ok: false, status: 429, message: lockedMessage(check.lockedForMs) };
  }
  if (check.password !== "right" || !account) return { ok: false, status: 401, message: INVALID_CREDENTIALS };
  if (!account.active) {
    // The password was right: the attempt is given back, the account stays closed.
    await db.batch(check.release);
    return { ok: false, status: 403, message: ACCOUNT_DEACTIVATED };
  }

  const token = newSessionToken();
  const sessionId = await sessionIdOf(token);
  const rehashed = needsRehash(account.passwordHash) ? await hashPassword(input.password) : undefined;
  await db.batch([
    openSession(db, account.id, sessionId, input.userAgent),
    db
      .update(schema.users)
      .set({ lastLoginAt: new Date(), ...(rehashed ? { passwordHash: rehashed } : {}) })
      .where(eq(schema.users.id, account.id)),
    logActivity(db, { userId: account.id, action: "sign_in", entity: "session", entityId: sessionId }),
    ...check.release,
  ]);

  return {
    ok: true,
    token,
    mustChangePassword: account.mustChangePassword,
    user: {
      id: account.id,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      organizationRole: account.organizationRole ?? null,
      role: highestRole(account.organizationRole ?? null, roles),
    },
  };
}

/** Ends the session server-side, so the cookie is worthless even if it was copied. */
export async function signOut(db: Database, user: SessionUser): Promise<void> {
  await db.batch([
    revokeSession(db, user.sessionId),
    logActivity(db, { userId: user.id, action: "sign_out", entity: "session", entityId: user.sessionId }),
  ]);
}
