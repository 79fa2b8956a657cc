// Slowing and then refusing repeated password guesses, at sign-in, when changing a password and
// when a colleague confirms a witness (ADR 0011). Only wrong passwords count. Each attempt holds a
// place BEFORE its password is checked, by one conditional insert over its locking keys: no more
// attempts are checked at once than the failures a key has left, so parallel guesses cannot all
// slip past a check made before any of them failed. A right password gives its place back and
// counts nothing; a wrong one turns its place into a failure. An attempt that finds every place
// taken by attempts still being checked waits for them, rather than being refused for them.
//
// Keys (the scope is encoded in the `sign_in_throttle` key):
// - `pair:<email>|<address>` locks after a few failures: the guesser is stopped, while colleagues
//   behind the same clinic address keep signing in to their own accounts.
// - `account:<email>` locks after more failures from anywhere: distributed guessing is bounded.
// - `client:<address>` never locks (a clinic shares one public address); it only slows failures.
// - `witness:<email>|<actor id>` locks one colleague's guesses at one witness, and nothing else:
//   a witness box is no way to lock someone out of signing in.
// - `held:<key>\u0001<attempt id>` is an attempt being checked, a place taken on `<key>`.
//
// Callers check a password through `checkPasswordThrottled` alone (sign-in, change password, a
// witness): the reserve → verify → count-or-give-back sequence is written once, here.
import { inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { verifyAgainstNothing, verifyPassword } from "./password.server";

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  /** Failures per account from one address (or per witness from one colleague) before that pair is locked. */
  pairLimit: 5,
  /** Failures per account from all addresses together before the account is locked. */
  accountLimit: 20,
  /** From the third failure on one account each wrong answer waits a little longer, up to 3 s. */
  slowAfter: 2,
  /** A shared clinic address is slowed only after many failures, on any accounts. */
  clientSlowAfter: 10,
  slowStepMs: 500,
  slowMaxMs: 3000,
  /** A place held longer than this (its request died before the check ended) is free again. */
  holdMs: 20_000,
  /** How often an attempt that found every place taken looks again, and for how long at most. */
  queueStepMs: 50,
  queueMaxMs: 10_000,
} as const;

const t = schema.signInThrottle;

export interface ThrottleKeys {
  pair: string;
  /** Null for a witness: their guesses never touch the account's own sign-in. */
  account: string | null;
  /** Null when the client address is unknown (local development): the pair then stands for it. */
  client: string | null;
  /** This attempt's own id, naming the place it holds while its password is checked. */
  attempt: string;
}

/** The keys of a sign-in (or a change of one's own password) to `email` from `clientIp`. */
export function throttleKeys(email: string, clientIp: string | null | undefined): ThrottleKeys {
  const account = email.trim().toLowerCase();
  return {
    pair: `pair:${account}|${clientIp || "unknown"}`,
    account: `account:${account}`,
    client: clientIp ? `client:${clientIp}` : null,
    attempt: uuidv7(),
  };
}

/** The keys of `actorId` confirming `email` as their witness: the pair alone. */
export function witnessKeys(email: string, actorId: string): ThrottleKeys {
  return { pair: `witness:${email.trim().toLowerCase()}|${actorId}`, account: null, client: null, attempt: uuidv7() };
}

/** The keys that lock, each with its limit. The client's key has none: it only slows. */
function limits(keys: ThrottleKeys): [string, number][] {
  return keys.account
    ? [
        [keys.pair, THROTTLE.pairLimit],
        [keys.account, THROTTLE.accountLimit],
      ]
    : [[keys.pair, THROTTLE.pairLimit]];
}

/** Every key a failure counts on. */
function counted(keys: ThrottleKeys): string[] {
  return [keys.pair, keys.account, keys.client].filter((key): key is string => key !== null);
}

const rows = (values: SQL[]) => sql.join(values, sql`, `);
const limitRows = (keys: ThrottleKeys) => rows(limits(keys).map(([key, limit]) => sql`(${key}, ${limit})`));

/** The places held on `key` (an SQL text), as a range of the primary key. */
const heldOn = (key: SQL | string, alias: string) =>
  sql`${sql.identifier(alias)}.key > 'held:' || ${key} || char(1) AND ${sql.identifier(alias)}.key < 'held:' || ${key} || char(2)`;

/**
 * Takes this attempt's place on each locking key, but only if none of them is locked, nor has its
 * failures and the places already held reach its limit; otherwise it changes nothing. Places left
 * by requests that died are dropped first. For the caller's batch, before `readThrottle`:
 * RETURNING answers the places taken, or no rows when the attempt must wait or is refused.
 */
function reserveAttempt(db: Database, keys: ThrottleKeys, now: Date) {
  const nowMs = now.getTime();
  const windowStart = nowMs - THROTTLE.windowMs;
  const holdStart = nowMs - THROTTLE.holdMs;
  return [
    db.run(
      sql`DELETE FROM sign_in_throttle WHERE window_started_at <= ${holdStart} AND (${sql.join(
        limits(keys).map(([key]) => sql`(${heldOn(sql`${key}`, "sign_in_throttle")})`),
        sql` OR `,
      )})`,
    ),
    db.all<{ key: string }>(sql`
      INSERT INTO sign_in_throttle (key, failures, window_started_at, locked_until)
      SELECT 'held:' || l.column1 || char(1) || ${keys.attempt}, 0, ${nowMs}, NULL
      FROM (VALUES ${limitRows(keys)}) AS l
      WHERE NOT EXISTS (
        SELECT 1 FROM (VALUES ${limitRows(keys)}) AS g
        LEFT JOIN sign_in_throttle AS b ON b.key = g.column1
        WHERE coalesce(b.locked_until, 0) > ${nowMs}
          OR (CASE WHEN b.window_started_at > ${windowStart} THEN b.failures ELSE 0 END)
            + (SELECT count(*) FROM sign_in_throttle AS h WHERE ${heldOn(sql`g.column1`, "h")}) >= g.column2
      )
      RETURNING key`),
  ] as const;
}

/** The keys' counts as they stand, read in the reservation's batch: how long a lock lasts, how slow a failure. */
function readThrottle(db: Database, keys: ThrottleKeys) {
  return db
    .select()
    .from(t)
    .where(inArray(t.key, counted(keys)));
}

type ThrottleRow = typeof t.$inferSelect;

export type Admission =
  /** Admitted: `slowdownMs` is how long to hold back the answer if the password is wrong. */
  | { admitted: true; slowdownMs: number }
  /**
   * Refused: `lockedForMs` is when the longest lock on the attempt's keys ends; 0 when nothing is
   * locked and every place is held by attempts still being checked (wait for them: `admit`).
   */
  | { admitted: false; lockedForMs: number };

/** What the reservation answered: admitted with its slowdown, or refused with the lock's length. */
export function admission(
  keys: ThrottleKeys,
  reserved: readonly { key: string }[],
  counts: readonly ThrottleRow[],
  now: Date,
): Admission {
  if (reserved.length === 0) return { admitted: false, lockedForMs: lockedForMs(keys, counts, now) };
  const windowStart = now.getTime() - THROTTLE.windowMs;
  const step = (failures: number, after: number) =>
    Math.min(Math.max(0, failures - after) * THROTTLE.slowStepMs, THROTTLE.slowMaxMs);
  let slowdownMs = 0;
  for (const row of counts) {
    // This attempt, if wrong, is the next failure of its window.
    const failures = (row.windowStartedAt.getTime() > windowStart ? row.failures : 0) + 1;
    slowdownMs = Math.max(
      slowdownMs,
      step(failures, row.key === keys.client ? THROTTLE.clientSlowAfter : THROTTLE.slowAfter),
    );
  }
  return { admitted: true, slowdownMs };
}

function lockedForMs(keys: ThrottleKeys, counts: readonly ThrottleRow[], now: Date): number {
  const limitOf = new Map(limits(keys));
  let longest = 0;
  for (const row of counts) {
    const windowEnd = row.windowStartedAt.getTime() + THROTTLE.windowMs;
    const atLimit = row.failures >= (limitOf.get(row.key) ?? Number.POSITIVE_INFINITY) ? windowEnd : 0;
    longest = Math.max(longest, (row.lockedUntil?.getTime() ?? 0) - now.getTime(), atLimit - now.getTime());
  }
  // A parallel attempt that took its clock a moment before the one that set the lock would read
  // "16 minutes"; no lock or window lasts longer than its length from now.
  return Math.min(longest, Math.max(THROTTLE.lockMs, THROTTLE.windowMs));
}

/**
 * Runs `reserve` (a batch holding `reserveAttempt` and `readThrottle`) until it is admitted or
 * refused for a lock. While every place is held by attempts still being checked it looks again
 * shortly: they end within a password check, as failures (then perhaps a lock) or given back.
 * Past `queueMaxMs` it answers as refused for the length of a lock.
 */
export async function admit<R extends { attempt: Admission }>(
  reserve: () => Promise<R>,
  { pause = wait }: { pause?: (ms: number) => Promise<unknown> } = {},
): Promise<R> {
  const deadline = Date.now() + THROTTLE.queueMaxMs;
  for (;;) {
    const answer = await reserve();
    if (answer.attempt.admitted || answer.attempt.lockedForMs > 0) return answer;
    if (Date.now() >= deadline) return { ...answer, attempt: { admitted: false, lockedForMs: THROTTLE.lockMs } };
    await pause(THROTTLE.queueStepMs);
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The places this attempt holds, given up: the check is over. */
function giveBackPlaces(db: Database, keys: ThrottleKeys) {
  return db.delete(t).where(
    inArray(
      t.key,
      limits(keys).map(([key]) => `held:${key}\u0001${keys.attempt}`),
    ),
  );
}

/**
 * A wrong password: the attempt's places become a failure on every key. A key whose window is over
 * starts a new one with it; a locking key that reaches its limit is locked. For the caller's batch.
 */
function recordFailure(db: Database, keys: ThrottleKeys, now: Date) {
  const nowMs = now.getTime();
  const windowStart = nowMs - THROTTLE.windowMs;
  const lockUntil = nowMs + THROTTLE.lockMs;
  const limitOf = sql`CASE key ${sql.join(
    limits(keys).map(([key, limit]) => sql`WHEN ${key} THEN ${limit}`),
    sql` `,
  )} END`;
  // A window that is over and not locked starts again from this failure.
  const fresh = sql`(window_started_at <= ${windowStart} AND coalesce(locked_until, 0) <= ${nowMs})`;
  return [
    giveBackPlaces(db, keys),
    db.run(sql`
      INSERT INTO sign_in_throttle (key, failures, window_started_at, locked_until)
      SELECT k.column1, 1, ${nowMs}, NULL
      FROM (VALUES ${rows(counted(keys).map((key) => sql`(${key})`))}) AS k WHERE true
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN ${fresh} THEN 1 ELSE failures + 1 END,
        window_started_at = CASE WHEN ${fresh} THEN ${nowMs} ELSE window_started_at END,
        locked_until = CASE
          WHEN ${fresh} THEN NULL
          WHEN failures + 1 >= ${limitOf} THEN ${lockUntil}
          ELSE locked_until END`),
  ] as const;
}

/**
 * A right password: the attempt's places are given back and the account's and the pair's counts
 * are cleared (the person has proved who they are). The address's failures stay, so one good
 * password does not reset a client that is guessing other accounts. For the caller's batch.
 */
function releaseAttempt(db: Database, keys: ThrottleKeys) {
  return [
    giveBackPlaces(db, keys),
    db.delete(t).where(
      inArray(
        t.key,
        limits(keys).map(([key]) => key),
      ),
    ),
  ] as const;
}

/**
 * What a throttled password check answered, with what the caller's `read` found beside it:
 * - `locked`: refused before the password was checked (a lock, or the failures a key has left
 *   reached); nothing was counted. `lockedForMs` is for `lockedMessage`.
 * - `wrong`: the password was wrong (or nobody was found): counted as a failure on every key, in
 *   the batch of the caller's `onWrong` statements, and the answer already held back.
 * - `right`: the password was right. Nothing was counted, and the attempt still holds its place:
 *   the caller sends `release` in its next batch (with the sign-in or the change it makes), so a
 *   right password costs no round trip of its own.
 * - `gone`: nobody was found and the caller said a missing account is not a guess; the place was
 *   given back.
 */
type Statements = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

export type PasswordCheck<F> =
  | { password: "locked"; found: F; lockedForMs: number }
  | { password: "wrong"; found: F }
  | { password: "right"; found: F; release: ReturnType<typeof releaseAttempt> }
  | { password: "gone"; found: F };

export interface PasswordCheckInput<R extends readonly BatchItem<"sqlite">[]> {
  /** The password typed. */
  password: string;
  /** What the caller reads in the reservation's round trip (the account and its hash); built anew for each look. */
  read: () => R;
  /** The stored hash of the account `read` found, or null when it found nobody. */
  hashOf: (found: BatchResponse<R>) => string | null;
  /**
   * Nobody found: `"wrong"` (sign-in, a witness) checks the password against nothing and counts a
   * failure, so an unknown email takes as long and answers as a wrong password does; `"gone"` (a
   * signed-in user whose account went away) gives the place back.
   */
  nobody?: "wrong" | "gone";
  /** Statements written in the failure's batch, e.g. the activity row that names the guess. */
  onWrong?: (found: BatchResponse<R>) => BatchItem<"sqlite">[];
  /** How a wrong answer is held back by the keys' slowdown; null: not held back (a witness). */
  sleep?: ((ms: number) => Promise<unknown>) | null;
}

/**
 * The one throttled password check (ADR 0011): holds the attempt's place on `keys` in the batch
 * that reads the account (waiting while every place is held by attempts still being checked), then
 * checks the password, then counts a wrong one as a failure or hands a right one its release.
 * Sign-in stays two round trips: this one, and the caller's own batch that carries `release`.
 */
export async function checkPasswordThrottled<R extends readonly BatchItem<"sqlite">[]>(
  db: Database,
  keys: ThrottleKeys,
  input: PasswordCheckInput<R>,
): Promise<PasswordCheck<BatchResponse<R>>> {
  const { found, attempt } = await admit(async () => {
    const now = new Date();
    const reads = input.read();
    const statements: BatchItem<"sqlite">[] = [...reads, ...reserveAttempt(db, keys, now), readThrottle(db, keys)];
    const results: unknown[] = await db.batch(statements as Statements);
    const [, reserved, counts] = results.slice(reads.length) as [unknown, { key: string }[], ThrottleRow[]];
    const found = results.slice(0, reads.length) as BatchResponse<R>;
    return { found, attempt: admission(keys, reserved, counts, now) };
  });
  if (!attempt.admitted) return { password: "locked", found, lockedForMs: attempt.lockedForMs };
  const hash = input.hashOf(found);
  if (hash === null && input.nobody === "gone") {
    await db.batch(releaseAttempt(db, keys));
    return { password: "gone", found };
  }
  const right = hash === null ? await verifyAgainstNothing(input.password) : await verifyPassword(input.password, hash);
  if (hash === null || !right) {
    // The attempt's place becomes this failure, in the batch of what the caller writes about it.
    const failure: BatchItem<"sqlite">[] = [...(input.onWrong?.(found) ?? []), ...recordFailure(db, keys, new Date())];
    await db.batch(failure as Statements);
    // Each further failure answers a little later: cheap for a person, costly for a guesser.
    const sleep = input.sleep === undefined ? wait : input.sleep;
    if (sleep && attempt.slowdownMs > 0) await sleep(attempt.slowdownMs);
    return { password: "wrong", found };
  }
  return { password: "right", found, release: releaseAttempt(db, keys) };
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
