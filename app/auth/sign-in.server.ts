// Signing in and out: the domain verbs behind the login form, /api/auth/login and logout.
import { eq } from "drizzle-orm";
import { logActivity } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import type { LocationRole } from "../../db/schema";
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from "./password.server";
import { highestRole } from "./roles";
import { newSessionToken, openSession, revokeSession, type SessionUser, sessionIdOf } from "./session.server";
import {
  admission,
  admit,
  lockedMessage,
  readThrottle,
  recordFailure,
  releaseAttempt,
  reserveAttempt,
  throttleKeys,
} from "./throttle.server";

/** The user as the login answer and /api/auth/me describe them (spec section 7). */
export interface SignedInUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Highest role anywhere, for display: an organization admin counts as ADMIN. */
  role: LocationRole | null;
  organizationRole: "ORGANIZATION_ADMIN" | null;
}

export type SignInResult =
  | { ok: true; user: SignedInUser; token: string; mustChangePassword: boolean }
  | { ok: false; status: 401 | 403 | 429; message: string };

// The spec's login message for a refused sign-in; the same words whether the email or the
// password was wrong, so the form does not reveal which accounts exist.
export const INVALID_CREDENTIALS = "Invalid credentials";
export const ACCOUNT_DEACTIVATED = "This account has been deactivated. Ask your administrator to reactivate it.";

export async function signIn(
  db: Database,
  input: { email: string; password: string; userAgent: string | null; clientIp?: string | null },
  { sleep = wait }: { sleep?: (ms: number) => Promise<unknown> } = {},
): Promise<SignInResult> {
  const keys = throttleKeys(input.email, input.clientIp);
  // One round trip: the account, its roles, and a place for this attempt taken before the
  // password is checked (a refused reservation counts nothing). Only while every place is held
  // by attempts still being checked does it look again.
  const { found, roles, attempt } = await admit(async () => {
    const now = new Date();
    const [found, roles, , reserved, counts] = await db.batch([
      db.select().from(schema.users).where(eq(schema.users.email, input.email)).limit(1),
      db
        .select({ role: schema.userLocationRoles.role })
        .from(schema.userLocationRoles)
        .innerJoin(schema.users, eq(schema.users.id, schema.userLocationRoles.userId))
        .where(eq(schema.users.email, input.email)),
      ...reserveAttempt(db, keys, now),
      readThrottle(db, keys),
    ]);
    return { found, roles, attempt: admission(keys, reserved, counts, now) };
  });
  const account = found[0];

  if (!attempt.admitted) {
    await logActivity(db, {
      userId: account?.id ?? null,
      action: "sign_in_refused",
      entity: "user",
      entityId: account?.id ?? null,
      summary: { email: input.email, reason: "too many failed attempts" },
    });
    return { ok: false, status: 429, message: lockedMessage(attempt.lockedForMs) };
  }

  const passwordOk = account
    ? await verifyPassword(input.password, account.passwordHash)
    : await verifyAgainstNothing(input.password);

  if (!account || !passwordOk) {
    // The attempt's place becomes this failure, in the batch that logs it.
    await db.batch([
      logActivity(db, {
        userId: account?.id ?? null,
        action: "sign_in_failed",
        entity: "user",
        entityId: account?.id ?? null,
        summary: { email: input.email },
      }),
      ...recordFailure(db, keys, new Date()),
    ]);
    // Each further failure answers a little later: cheap for a person, costly for a guesser.
    if (attempt.slowdownMs > 0) await sleep(attempt.slowdownMs);
    return { ok: false, status: 401, message: INVALID_CREDENTIALS };
  }
  if (!account.active) {
    // The password was right: the attempt is given back, the account stays closed.
    await db.batch(releaseAttempt(db, keys));
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
    ...releaseAttempt(db, keys),
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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends the session server-side, so the cookie is worthless even if it was copied. */
export async function signOut(db: Database, user: SessionUser): Promise<void> {
  await db.batch([
    revokeSession(db, user.sessionId),
    logActivity(db, { userId: user.id, action: "sign_out", entity: "session", entityId: user.sessionId }),
  ]);
}
