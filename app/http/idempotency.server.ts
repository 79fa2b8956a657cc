// Idempotency keys (architecture.md "JSON API conventions", ADR 0013): a write sent with a key
// (a form's hidden field made fresh by the server for each form, or an `Idempotency-Key` header)
// is done once. The key, its user and the write's answer are stored by the write's own batch; a
// repeat by the same user finds the key, writes nothing and answers what the first one answered.
//
// A verb uses it in its one batch:
//   1. its guarded write ANDs `keyUnused(key)` into its WHERE,
//   2. `rememberKey(...)` stores the answer, written only if the write happened (its `from` finds it),
//   3. `recallKey(...)` reads the key back; when the write did not happen, `replayOf` says whether
//      this was a repeat (answer the stored answer) or a key used for something else.
// Only writes are remembered: a refusal writes nothing, so sending the same key again, once the
// problem is fixed, is simply tried again.
//
// A key is bound to its request (as Stripe's are): its fingerprint, a SHA-256 of the purpose (verb
// and target) and the request's fields but the key, is stored with it. A repeat with the same
// fingerprint replays; the same key with another request (another lot, other units, another
// vial) is refused as `key_misused`, never answered with the first answer. Keys stored before the
// fingerprint was kept have none and replay by purpose alone.
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { constraintFailed } from "~/db/sql.server";
import { sha256Hex } from "~/sha256";

export interface IdempotencyKey {
  userId: string;
  key: string;
  /** What the key guards, e.g. `receipt_line_add:<receipt id>`: a key cannot replay another write. */
  purpose: string;
  /** The request it was sent with (fingerprintOf): the same key with another request is refused. */
  fingerprint: string;
}

/** Fields never part of a fingerprint: the key itself, and secrets (a witness's password) kept out of the table. */
const UNFINGERPRINTED = /^idempotencyKey$|password/i;

/** `value` as JSON with object keys sorted, undefined dropped and unfingerprinted fields left out. */
export function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value && typeof value === "object") {
    const fields = Object.entries(value)
      .filter(([name, v]) => v !== undefined && !UNFINGERPRINTED.test(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, v]) => `${JSON.stringify(name)}:${canonicalJson(v)}`);
    return `{${fields.join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The fingerprint of a keyed request: SHA-256 (hex) of its purpose and its fields as the verb
 * parsed them (a form's and the API's alike; the key and passwords left out). A double tap of a
 * form, or a client's retry, sends the same fields and gets the same fingerprint.
 */
export async function fingerprintOf(purpose: string, request: object): Promise<string> {
  return sha256Hex(`${purpose}\n${canonicalJson(request)}`);
}

/** The key a verb writes under (null without one): `key` by `userId` for `purpose`, bound to `request`. */
export async function idempotencyKeyFor(
  userId: string,
  key: string | null | undefined,
  purpose: string,
  request: object,
): Promise<IdempotencyKey | null> {
  return key ? { userId, key, purpose, fingerprint: await fingerprintOf(purpose, request) } : null;
}

/** A fresh key for a form to carry in a hidden field (rendered by the loader, one per form shown). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** SQL that is true while this user has not used the key: AND it into the guarded write's WHERE. */
export function keyUnused(k: IdempotencyKey | null): SQL {
  if (!k) return sql`1`;
  return sql`NOT EXISTS (SELECT 1 FROM idempotency_keys AS used WHERE used.user_id = ${k.userId}
    AND used.key = ${k.key})`;
}

/**
 * The insert that remembers the key with `answer` (a SQL JSON expression, e.g. `json_object(...)`),
 * written only where `from` (a `FROM … WHERE …` naming what the write wrote) selects a row. Put it
 * in the batch after the write.
 */
export function rememberKey(db: Database, k: IdempotencyKey | null, answer: SQL, from: SQL) {
  if (!k) return db.run(sql`SELECT 1 WHERE 0`);
  return db.run(sql`INSERT INTO idempotency_keys (user_id, key, purpose, fingerprint, answer, created_at)
    SELECT ${k.userId}, ${k.key}, ${k.purpose}, ${k.fingerprint}, json(${answer}), ${Date.now()} ${from} LIMIT 1`);
}

/** The key's row as stored (none if never used by this user); read in the batch after `rememberKey`. */
export function recallKey(db: Database, k: IdempotencyKey | null) {
  return db.all<StoredKey>(
    k
      ? sql`SELECT purpose, fingerprint, answer FROM idempotency_keys WHERE user_id = ${k.userId} AND key = ${k.key}`
      : sql`SELECT NULL AS purpose, NULL AS fingerprint, NULL AS answer WHERE 0`,
  );
}

/** A key as stored: its purpose, its request's fingerprint (null if stored before it was kept), its answer. */
export interface StoredKey {
  purpose: string;
  fingerprint: string | null;
  answer: string;
}

export type Replay<T> = { replay: true; answer: T } | { replay: false; misused: boolean };

/**
 * For a write that did NOT happen: the first answer if the key was already used for the same
 * request (purpose and fingerprint), or `misused` if it was used for another one. (When the write
 * happened, the row read is the one this batch wrote: answer normally.)
 */
export function replayOf<T>(
  rows: readonly { purpose: string; fingerprint?: string | null; answer: string }[],
  k: IdempotencyKey | null,
): Replay<T> {
  const row = rows[0];
  if (!k || !row) return { replay: false, misused: false };
  if (row.purpose !== k.purpose) return { replay: false, misused: true };
  if (row.fingerprint != null && row.fingerprint !== k.fingerprint) return { replay: false, misused: true };
  return { replay: true, answer: JSON.parse(row.answer) as T };
}

/** Whether a batch failed because another request stored the same key first (a true race): retry to replay it. */
export function isKeyTaken(error: unknown): boolean {
  return constraintFailed(error, /idempotency_keys\.(user_id|key)/);
}
