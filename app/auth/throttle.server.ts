// Slowing and then refusing repeated password guesses, at sign-in and when changing a password
// (ADR 0011). Each attempt is reserved BEFORE the password is checked, by one conditional upsert
// over all its keys: parallel guesses cannot all slip past a check made before any of them counts.
// A right password releases the reservation; a wrong one leaves it counted as a failure.
//
// Keys (the scope is encoded in the `sign_in_throttle` key):
// - `pair:<email>|<address>` locks after a few failures: the guesser is stopped, while colleagues
//   behind the same clinic address keep signing in to their own accounts.
// - `account:<email>` locks after more failures from anywhere: distributed guessing is bounded.
// - `client:<address>` never locks (a clinic shares one public address); it only slows failures.
import { inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  /** Failures per account from one address before that pair is locked. */
  pairLimit: 5,
  /** Failures per account from all addresses together before the account is locked. */
  accountLimit: 20,
  /** From the third failure on one account each wrong answer waits a little longer, up to 3 s. */
  slowAfter: 2,
  /** A shared clinic address is slowed only after many failures, on any accounts. */
  clientSlowAfter: 10,
  slowStepMs: 500,
  slowMaxMs: 3000,
} as const;

const t = schema.signInThrottle;

export interface ThrottleKeys {
  pair: string;
  account: string;
  /** Null when the client address is unknown (local development): the pair then stands for it. */
  client: string | null;
}

export function throttleKeys(email: string, clientIp: string | null | undefined): ThrottleKeys {
  const account = email.trim().toLowerCase();
  return {
    pair: `pair:${account}|${clientIp || "unknown"}`,
    account: `account:${account}`,
    client: clientIp ? `client:${clientIp}` : null,
  };
}

/** The keys that lock, each with its limit. The client's key has none: it only slows. */
function limits(keys: ThrottleKeys): [string, number][] {
  return [
    [keys.pair, THROTTLE.pairLimit],
    [keys.account, THROTTLE.accountLimit],
  ];
}

const rows = (values: SQL[]) => sql.join(values, sql`, `);

/**
 * One statement that counts this attempt on every key, but only if none of the locking keys is
 * locked or at its limit; otherwise it changes nothing. RETURNING answers the new counts, or no
 * rows when the attempt is refused. The gate reads the table once, before any key is counted, so
 * the attempt is counted on all keys or on none, and concurrent attempts queue on the write.
 */
export function reserveAttempt(db: Database, keys: ThrottleKeys, now: Date) {
  const nowMs = now.getTime();
  const windowStart = nowMs - THROTTLE.windowMs;
  const lockUntil = nowMs + THROTTLE.lockMs;
  const all = keys.client ? [keys.pair, keys.account, keys.client] : [keys.pair, keys.account];
  const limited = limits(keys);
  const limitOf = sql`CASE key ${sql.join(
    limited.map(([key, limit]) => sql`WHEN ${key} THEN ${limit}`),
    sql` `,
  )} END`;
  // A window that is over and not locked starts again from this attempt.
  const fresh = sql`(window_started_at <= ${windowStart} AND coalesce(locked_until, 0) <= ${nowMs})`;
  return db.all<{ key: string; failures: number }>(sql`
    INSERT INTO sign_in_throttle (key, failures, window_started_at, locked_until)
    SELECT k.column1, 1, ${nowMs}, NULL FROM (VALUES ${rows(all.map((key) => sql`(${key})`))}) AS k
    WHERE NOT EXISTS (
      SELECT 1 FROM sign_in_throttle AS b
      JOIN (VALUES ${rows(limited.map(([key, limit]) => sql`(${key}, ${limit})`))}) AS l ON l.column1 = b.key
      WHERE b.locked_until > ${nowMs} OR (b.window_started_at > ${windowStart} AND b.failures >= l.column2)
    )
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN ${fresh} THEN 1 ELSE failures + 1 END,
      window_started_at = CASE WHEN ${fresh} THEN ${nowMs} ELSE window_started_at END,
      locked_until = CASE
        WHEN ${fresh} THEN NULL
        WHEN failures + 1 >= ${limitOf} THEN ${lockUntil}
        ELSE locked_until END
    RETURNING key, failures`);
}

/** The locking keys as they stand, read in the reservation's batch to say how long a lock lasts. */
export function readLocks(db: Database, keys: ThrottleKeys) {
  return db
    .select()
    .from(t)
    .where(
      inArray(
        t.key,
        limits(keys).map(([key]) => key),
      ),
    );
}

type ThrottleRow = typeof t.$inferSelect;

export type Admission =
  /** Admitted: `slowdownMs` is how long to hold back the answer if the password is wrong. */
  | { admitted: true; slowdownMs: number }
  /** Refused: `lockedForMs` is when the longest lock on the attempt's keys ends. */
  | { admitted: false; lockedForMs: number };

/** What the reservation answered: admitted with its slowdown, or refused with the lock's length. */
export function admission(
  keys: ThrottleKeys,
  reserved: readonly { key: string; failures: number }[],
  locks: readonly ThrottleRow[],
  now: Date,
): Admission {
  if (reserved.length === 0) return { admitted: false, lockedForMs: lockedForMs(keys, locks, now) };
  const step = (failures: number, after: number) =>
    Math.min(Math.max(0, failures - after) * THROTTLE.slowStepMs, THROTTLE.slowMaxMs);
  let slowdownMs = 0;
  for (const { key, failures } of reserved) {
    slowdownMs = Math.max(
      slowdownMs,
      step(failures, key === keys.client ? THROTTLE.clientSlowAfter : THROTTLE.slowAfter),
    );
  }
  return { admitted: true, slowdownMs };
}

function lockedForMs(keys: ThrottleKeys, locks: readonly ThrottleRow[], now: Date): number {
  const limitOf = new Map(limits(keys));
  let longest = 0;
  for (const row of locks) {
    const windowEnd = row.windowStartedAt.getTime() + THROTTLE.windowMs;
    const atLimit = row.failures >= (limitOf.get(row.key) ?? Number.POSITIVE_INFINITY) ? windowEnd : 0;
    longest = Math.max(longest, (row.lockedUntil?.getTime() ?? 0) - now.getTime(), atLimit - now.getTime());
  }
  // A parallel attempt that took its clock a moment before the one that set the lock would read
  // "16 minutes"; no lock or window lasts longer than its length from now.
  return Math.min(longest, Math.max(THROTTLE.lockMs, THROTTLE.windowMs));
}

/**
 * A right password gives the attempt back: the account's and the pair's counts are cleared (the
 * person has proved who they are), the address's count only loses this attempt, so one good
 * password does not reset a client that is guessing other accounts.
 */
export function releaseAttempt(db: Database, keys: ThrottleKeys) {
  return [
    db.delete(t).where(inArray(t.key, [keys.pair, keys.account])),
    db
      .update(t)
      .set({ failures: sql`max(${t.failures} - 1, 0)` })
      .where(inArray(t.key, keys.client ? [keys.client] : [])),
  ] as const;
}

/**
 * Forgets every count and lock on the accounts of the users `usersWhere` selects, from every
 * address: an administrator's password reset lets the person back in even while someone else
 * keeps guessing their old password. Emails are stored lower-cased, as `throttleKeys` makes them.
 */
export function forgetAccounts(db: Database, usersWhere: SQL) {
  return db.run(sql`DELETE FROM sign_in_throttle WHERE EXISTS (SELECT 1 FROM users WHERE ${usersWhere}
    AND (sign_in_throttle.key = 'account:' || users.email
      OR substr(sign_in_throttle.key, 1, length(users.email) + 6) = 'pair:' || users.email || '|'))`);
}

export function lockedMessage(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again, or ask your administrator to reset your password.`;
}
