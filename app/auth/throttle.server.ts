// Slowing and then refusing repeated failed sign-ins, per account and per client address, so a
// password cannot be guessed online. Counting is one atomic upsert per key, in the same batch as
// the failure's activity row.
import { inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  accountLimit: 5,
  clientLimit: 20,
  /** From the third failure in a window each answer waits a little longer, up to 3 s. */
  slowAfter: 2,
  slowStepMs: 500,
  slowMaxMs: 3000,
} as const;

const t = schema.signInThrottle;

export interface ThrottleKeys {
  account: string;
  /** Null when the client address is unknown (local development): only the account counts then. */
  client: string | null;
}

export function throttleKeys(email: string, clientIp: string | null): ThrottleKeys {
  return { account: `account:${email}`, client: clientIp ? `client:${clientIp}` : null };
}

function keyList(keys: ThrottleKeys): string[] {
  return keys.client ? [keys.account, keys.client] : [keys.account];
}

export function readThrottle(db: Database, keys: ThrottleKeys) {
  return db
    .select()
    .from(t)
    .where(inArray(t.key, keyList(keys)));
}

type ThrottleRow = typeof t.$inferSelect;

/** Milliseconds until the lock on any of the keys ends, or 0 when none is locked. */
export function lockedForMs(rows: readonly ThrottleRow[], now: Date): number {
  let longest = 0;
  for (const row of rows) {
    const left = (row.lockedUntil?.getTime() ?? 0) - now.getTime();
    if (left > longest) longest = left;
  }
  return longest;
}

/** How long to hold back the answer to a failed attempt, given the failures counted before it. */
export function slowdownMs(rows: readonly ThrottleRow[], now: Date): number {
  const inWindow = rows.filter((r) => r.windowStartedAt.getTime() > now.getTime() - THROTTLE.windowMs);
  const failures = Math.max(0, ...inWindow.map((r) => r.failures)) + 1;
  const over = failures - THROTTLE.slowAfter;
  return over > 0 ? Math.min(over * THROTTLE.slowStepMs, THROTTLE.slowMaxMs) : 0;
}

/** Upserts counting one more failure per key, locking a key that reaches its limit. */
export function recordFailure(db: Database, keys: ThrottleKeys, now: Date) {
  const nowMs = now.getTime();
  const windowStart = nowMs - THROTTLE.windowMs;
  const lockUntil = nowMs + THROTTLE.lockMs;
  const upsert = (key: string, limit: number) => {
    const fresh = sql`${t.windowStartedAt} <= ${windowStart}`;
    return db
      .insert(t)
      .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limit <= 1 ? new Date(lockUntil) : null })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          failures: sql`CASE WHEN ${fresh} THEN 1 ELSE ${t.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${fresh} THEN ${nowMs} ELSE ${t.windowStartedAt} END`,
          lockedUntil: sql`CASE WHEN NOT (${fresh}) AND ${t.failures} + 1 >= ${limit} THEN ${lockUntil} ELSE ${t.lockedUntil} END`,
        },
      });
  };
  const statements = [upsert(keys.account, THROTTLE.accountLimit)];
  if (keys.client) statements.push(upsert(keys.client, THROTTLE.clientLimit));
  return statements;
}

/** A successful sign-in clears the account's count (not the client's: one good password elsewhere
 * must not reset a guessing client). */
export function clearAccount(db: Database, keys: ThrottleKeys) {
  return db.delete(t).where(inArray(t.key, [keys.account]));
}

export function lockedMessage(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again, or ask your administrator to reset your password.`;
}
