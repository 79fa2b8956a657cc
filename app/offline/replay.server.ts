// The server's one door for the offline queue's replays (issue #25, ./contract): what happened at
// the cart is never lost. A command recorded offline is run by its own verb (start, draw, empty,
// discard, count) with the entry's Idempotency-Key, its time defaulting to when it was recorded (a
// draw's usedAt, a start's startedAt), so a start recorded at 10:00 and sent at 14:00 counts its
// deadline from 10:00. Applied: `done` with the verb's answer, as its JSON twin answers it. Refused
// (any refusal, a body its verb does not parse included: it is what happened at the cart): ONE
// batch keeps it as a flag with its activity row, and the answer is `flagged`. The same key sent
// again answers the same and writes nothing: a flag found for (user, key) answers first, so a
// flagged command is never applied later; an applied one replays through the verb's own key.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { ORGANIZATION } from "~/access/permissions";
import { canHere } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import { countStock } from "~/counts/count.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { fingerprintOf } from "~/http/idempotency.server";
import { discardVial } from "~/vials/discard.server";
import { drawUnits } from "~/vials/draw.server";
import { emptyVial } from "~/vials/empty.server";
import { startVial } from "~/vials/start.server";
import type { OfflineFlag, ReplayAnswer } from "./contract";
import { REPLAY_MESSAGES, type ReplayCommand, ReplayEnvelope } from "./forms";
import { type Outcome, refuse } from "./outcome";

/** Fields never kept in a flag's body: a witness's password is not kept on the device, nor here. */
const SECRET = /password|secret|token|apikey/i;

/** `value` with every secret field left out, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name]) => !SECRET.test(name))
        .map(([name, v]) => [name, withoutSecrets(v)]),
    );
  }
  return value;
}

/** "" or missing means "when it was recorded" for a replayed command's time. */
function orRecorded(value: unknown, recordedAt: Date): unknown {
  return value === undefined || value === null || value === "" ? recordedAt.toISOString() : value;
}

type VerbOutcome = { ok: true } | { ok: false; refusal: string; message: string };

/** The command run by its own verb, on its body as sent (the verb parses it with its own schema). */
function runVerb(db: Database, actor: ScopedActor, command: ReplayCommand, key: string): Promise<VerbOutcome> {
  const { body, recordedAt } = command;
  const itemId = command.itemId ?? "";
  // The key is the header's: one in the body is not the entry's.
  const sent = { ...body, idempotencyKey: key };
  switch (command.kind) {
    case "start":
      return startVial(db, actor, { ...sent, startedAt: orRecorded(body.startedAt, recordedAt), itemId } as never);
    case "draw":
      return drawUnits(db, actor, { ...sent, usedAt: orRecorded(body.usedAt, recordedAt), itemId } as never);
    case "empty":
      return emptyVial(db, actor, { ...sent, itemId } as never);
    case "discard":
      return discardVial(db, actor, { ...sent, itemId } as never);
    case "count":
      return countStock(db, actor, { ...sent, sessionId: command.sessionId ?? "" } as never);
  }
}

/** What each command's verb stores its key under (app/vials/change.server vialKey, app/counts/count.server). */
function purposeOf(command: ReplayCommand): string {
  return command.kind === "count"
    ? `count_stock:${command.sessionId ?? ""}`
    : `vial_${command.kind}:${command.itemId ?? ""}`;
}

/**
 * The stored answer when this user's key was already used by this same verb on this same vial (or
 * count), whatever the fields: a form post that was applied before the device lost its answer.
 */
async function appliedAs(db: Database, userId: string, key: string, command: ReplayCommand): Promise<unknown> {
  const [row] = await db.all<{ purpose: string; answer: string }>(
    sql`SELECT purpose, answer FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`,
  );
  return row && row.purpose === purposeOf(command) ? JSON.parse(row.answer) : null;
}

/** The flag kept for this user's key (what it answers, and the fingerprint of the command it keeps). */
const flagOf = (db: Database, userId: string, key: string) =>
  db.all<OfflineFlag & { fingerprint: string }>(
    sql`SELECT id, code, reason, fingerprint FROM offline_flags WHERE user_id = ${userId} AND idempotency_key = ${key}`,
  );

/** A kept flag as the contract answers it, or key_misused when the key was kept with another command. */
function answerFlag(rows: readonly (OfflineFlag & { fingerprint: string })[], fingerprint: string) {
  const row = rows[0];
  if (!row) return null;
  if (row.fingerprint !== fingerprint) return refuse("key_misused");
  const flag: OfflineFlag = { id: row.id, code: row.code, reason: row.reason };
  return { ok: true as const, answer: { status: "flagged" as const, flag } };
}

/**
 * Replays one command recorded offline (`sent`: the OfflineCommand as received) under the entry's
 * `key`, at the location the actor stands at (the one in scope when it was recorded). Refuses
 * `invalid_body` (the envelope, not the command, is wrong: nothing is kept) and `forbidden`.
 */
export async function replayCommand(
  db: Database,
  actor: ScopedActor,
  sent: unknown,
  key: string | null,
  retried = false,
): Promise<Outcome<{ answer: ReplayAnswer }>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const read = ReplayEnvelope.safeParse(sent);
  if (!read.success) {
    return refuse("invalid_body", [...new Set(read.error.issues.map((i) => i.message))].join(" "));
  }
  if (!key) return refuse("invalid_body", REPLAY_MESSAGES.key);
  if (actor.locationId === ORGANIZATION) return refuse("invalid_body", REPLAY_MESSAGES.location);
  const command = read.data;
  // The command as sent, passwords left out: the same key with another command is a mistake to say.
  const fingerprint = await fingerprintOf("offline_replay", command);

  const flagged = answerFlag(await flagOf(db, actor.id, key), fingerprint);
  if (flagged) return flagged;

  const outcome = await runVerb(db, actor, command, key);
  if (outcome.ok) {
    const { ok: _ok, ...result } = outcome;
    return { ok: true, answer: { status: "done", result } };
  }
  if (outcome.refusal === "key_misused") {
    // The form's post took effect but its answer was lost with the connection, so the device kept
    // it and sends it here under the same key, its time now filled in: the same act, already done.
    const applied = await appliedAs(db, actor.id, key, command);
    if (applied !== null) return { ok: true, answer: { status: "done", result: applied } };
    // A key this user already used for another request: the client's mistake, not the cart's.
    return refuse("key_misused");
  }

  const id = uuidv7();
  const now = Date.now();
  const summary = command.summary;
  const [, , rows] = await db.batch([
    // Kept unless the key was meanwhile applied (then the verb replays it) or flagged (the same flag).
    db.run(sql`INSERT INTO offline_flags (id, organization_id, location_id, user_id, kind, item_id, session_id, body,
        summary, recorded_at, flagged_at, code, reason, idempotency_key, fingerprint)
      SELECT ${id}, (${organizationOf(actor)}), ${actor.locationId}, ${actor.id}, ${command.kind},
        ${command.itemId ?? null}, ${command.sessionId ?? null}, ${JSON.stringify(withoutSecrets(command.body))},
        ${summary}, ${command.recordedAt.getTime()}, ${now}, ${outcome.refusal}, ${outcome.message}, ${key}, ${fingerprint}
      WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE user_id = ${actor.id} AND key = ${key})
      ON CONFLICT (user_id, idempotency_key) DO NOTHING`),
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: actor.locationId,
        action: "flag_offline_command",
        entity: "offline_flag",
        entityId: id,
        summary: sql`json_object('kind', f.kind, 'summary', f.summary, 'code', f.code, 'itemId', f.item_id,
          'sessionId', f.session_id, 'recordedAt', f.recorded_at)`,
      },
      sql`FROM offline_flags AS f WHERE f.id = ${id}`,
    ),
    flagOf(db, actor.id, key),
  ]);
  const kept = answerFlag(rows, fingerprint);
  if (kept) return kept;
  // Not kept: the same key was applied meanwhile (a true race); once more, to replay its answer.
  if (!retried) return replayCommand(db, actor, sent, key, true);
  return refuse("key_misused");
}
