// The one batch every vial verb writes (ADR 0016): read the vial, check the rules, then ONE batch
// with the guards in SQL. Its first statement is the activity row, written only if the vial still
// passes the verb's guard (state, units, recall, deadline), is at a location the actor reaches with
// WRITE_INVENTORY, and the idempotency key is unused; it carries a fresh id, and every later
// statement (the item update, the movement, the usage entry, the remembered answer) finds the
// change through that row. A request that lost a race writes no activity row, so the update
// matches nothing and the movement's location is NULL: the NOT NULL constraint rolls the whole
// batch back, and the verb reads the vial again to say why (the specific reason, or `changed`).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { canHere, locationsFor } from "~/access/scope.server";
import { type ActivityAction, logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import {
  type IdempotencyKey,
  idempotencyKeyFor,
  isKeyTaken,
  keyUnused,
  recallKey,
  rememberKey,
  replayOf,
} from "~/http/idempotency.server";
import { isOutsideGuard, recordMovements } from "~/stock/ledger.server";
import { lotRecalled } from "~/stock/quarantine.server";
import { type Vial, vialOf, vialQuery } from "~/stock/vials.server";
import type { MovementType } from "../../db/schema/stock/constants";
import { type Outcome, refuse, type VialRefused } from "./outcome";

/** The vial's location reach for a write: the location in scope (every one in organization mode). */

/** What every verb is told beside its schema's fields: the vial (the path's, the scan's) and the request's key. */
export interface VialAddress {
  itemId: string;
  /** From the form's field or the API's header, each checked by its glue. */
  idempotencyKey?: string | null;
}

export type Reach = (column: SQL | SQLiteColumn) => SQL;

/** What one verb changes, given the vial as read (`vial`) and the moment of the change (`now`). */
export interface VialChange {
  action: ActivityAction;
  /** SQL on the item aliased `i` (its product `p`): true while the change still applies. */
  guard: SQL;
  /** The SET list of the item update (columns of `items`, unqualified). */
  set: SQL;
  /** Extra keys of the activity row's JSON summary, beside the vial's own (read from `i`, `v`, `p`). */
  summary?: SQL;
  /** The stock this moves (base units, signed, not zero); none for a start. */
  movement?: {
    type: MovementType;
    quantity: number;
    reason?: string | null;
    reference?: { type: "usage"; id: string };
  };
  /** Statements after the activity row and before the update (they may test `i.state` as it was). */
  before?: (changed: SQL) => BatchItem<"sqlite">[];
  /** Statements after the update and movement (e.g. the usage entry); `changed` finds this change. */
  after?: (changed: SQL) => BatchItem<"sqlite">[];
}

/** Where a verb starts: the actor may write here, and the vial as it stands (one round trip). */
export interface VialContext {
  reach: Reach;
  vial: Vial;
}

export interface ChangeOptions {
  now?: Date;
}

/** The reach of a vial write, or forbidden when the actor may not write inventory where they stand. */
export function writeReach(actor: ScopedActor): Reach | VialRefused {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  return locationsFor(actor, "WRITE_INVENTORY").where;
}

/** What a verb goes on with: where it writes, the vial as it stands, its key and moment. */
export interface Prepared extends VialContext {
  key: IdempotencyKey | null;
  now: Date;
  /** Why the vial does not qualify; with a key the batch still runs (it may be a repeat). */
  refused: VialRefused | null;
}

/**
 * The start every verb but a draw shares: the actor may write here, the vial as it stands (one
 * round trip; not_found when unknown or out of reach), and `rule`'s refusal. A refusal is answered
 * at once unless a key came: then it may be the repeat of a change that happened, and the batch
 * finds its first answer (or refuses, writing nothing).
 */
export async function prepareChange(
  db: Database,
  actor: ScopedActor,
  verb: VialVerb,
  input: VialAddress,
  rule: (vial: Vial, now: Date) => VialRefused | null,
  options: ChangeOptions,
): Promise<Prepared | VialRefused> {
  const reach = writeReach(actor);
  if (typeof reach !== "function") return reach;
  const now = options.now ?? new Date();
  if (!input.itemId || input.itemId.length > 100) return refuse("not_found");
  const [row] = await vialQuery(db, input.itemId, reach);
  if (!row) return refuse("not_found");
  const vial = vialOf(row, now);
  const key = await vialKey(actor, verb, vial.id, input.idempotencyKey, input);
  const refused = rule(vial, now);
  if (refused && !key) return refused;
  return { reach, vial, key, now, refused };
}

export function isPrepared(value: Prepared | VialRefused): value is Prepared {
  return "vial" in value;
}

/** The idempotency key of a verb on one vial: `vial_draw:<itemId>` and so on, bound to the verb's `request`. */
export type VialVerb = "start" | "draw" | "empty" | "discard";

export function vialKey(
  actor: ScopedActor,
  verb: VialVerb,
  itemId: string,
  key: string | null | undefined,
  request: object,
): Promise<IdempotencyKey | null> {
  return idempotencyKeyFor(actor.id, key, `vial_${verb}:${itemId}`, request);
}

/** The fields of a vial the database changes; the rest cannot change while it is being used. */
const CHANGING = sql`json_object('state', i.state, 'unitsRemaining', i.units_remaining, 'startedAt', i.started_at,
  'expiresAt', i.expires_at, 'endedAt', i.ended_at, 'discardReason', i.discard_reason)`;

/** The instants of an answer (the vial's, a usage entry's), which JSON keeps as text. */
const INSTANTS = ["startedAt", "expiresAt", "endedAt", "receivedAt", "usedAt"] as const;

/** An object of a stored answer with its instants as Dates again (and nulls json_patch dropped). */
function reviveInstants<T extends object>(stored: T, nullable: readonly string[] = []): T {
  const copy: Record<string, unknown> = { ...(stored as Record<string, unknown>) };
  for (const field of nullable) copy[field] ??= null;
  for (const field of INSTANTS) {
    const value = copy[field];
    if (typeof value === "string" || typeof value === "number") copy[field] = new Date(value);
  }
  return copy as T;
}

/** A stored answer as the verb first answered it, the vial's expiry as of `now`. */
function revive<T extends { vial: Vial }>(stored: T, now: Date): T {
  const answer: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    answer[name] = value && typeof value === "object" ? reviveInstants(value) : value;
  }
  // json_patch drops the keys its patch sets to null: the changing fields, put back.
  const vial = reviveInstants(stored.vial, ["startedAt", "expiresAt", "endedAt", "discardReason"]);
  return { ...(answer as T), vial: vialOf(vial, now) };
}

export type Changed<T extends object> = Outcome<{ vial: Vial } & T>;

/**
 * Writes `change` to `vial` in one batch (see the header) and answers `{ vial }` read back in it,
 * with `extra(reads)` merged in (e.g. a draw's usage entry, read by `reads`). When nothing was
 * written: the first answer of a repeated key, or `why(vial as it stands now)`, else `changed`.
 */
/** The vial fields a change's statements need: which item, and what its movement books. */
export interface ChangeTarget {
  id: string;
  variationId: string;
  lot: string | null;
}

/**
 * The statements of one change (see the header), for a verb's batch or the waste job's: `userId`
 * null is the system; `where` is the location reach as SQL on `i.location_id`. The change happened
 * exactly when the activity row `activityId` exists.
 */
export function changeStatements(
  db: Database,
  target: ChangeTarget,
  who: { userId: string | null; where: SQL; key: IdempotencyKey | null; now: Date; answer: SQL },
  change: VialChange,
): { activityId: string; statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] } {
  const { key, now } = who;
  const itemId = target.id;
  const activityId = uuidv7();
  const changed = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    logActivityWhere(
      db,
      {
        id: activityId,
        userId: who.userId,
        locationId: sql`i.location_id`,
        action: change.action,
        entity: "item",
        entityId: itemId,
        summary: sql`json_patch(json_object('labelCode', i.label_code, 'product', p.name, 'variation', v.name,
          'lot', i.lot, 'state', i.state, 'unitsRemaining', i.units_remaining), json(${change.summary ?? sql`'{}'`}))`,
      },
      sql`${itemRow(itemId)} AND ${who.where} AND ${change.guard} AND ${keyUnused(key)}`,
    ),
    ...(change.before?.(changed) ?? []),
    db.run(sql`UPDATE items SET ${change.set}, updated_at = ${now.getTime()} WHERE id = ${itemId} AND ${changed}`),
  ];
  if (change.movement) {
    statements.push(
      ...recordMovements(db, [
        {
          ...change.movement,
          occurredAt: now,
          // NULL unless this change's activity row is there: a lost race fails here and rolls back.
          locationId: sql`(SELECT location_id FROM items WHERE id = ${itemId} AND ${changed})`,
          variationId: target.variationId,
          itemId,
          lot: target.lot,
          userId: who.userId,
        },
      ]),
    );
  }
  statements.push(
    ...(change.after?.(changed) ?? []),
    rememberKey(db, key, who.answer, sql`FROM items AS i WHERE i.id = ${itemId} AND ${changed}`),
  );
  return { activityId, statements };
}

/** `FROM` the item aliased `i` with its variation `v` and product `p`, `WHERE` it is `itemId`. */
export function itemRow(itemId: string): SQL {
  return sql`FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id
    JOIN products AS p ON p.id = v.product_id WHERE i.id = ${itemId}`;
}

/**
 * Writes `change` to `vial` in one batch (see the header) and answers `{ vial }` read back in it,
 * with `context.answer` (e.g. a draw's usage entry) beside it. When nothing was written: the first
 * answer of a repeated key, or `why(the vial as it stands now)`, else `changed`.
 */
export async function changeVial<T extends object>(
  db: Database,
  actor: ScopedActor,
  context: VialContext & { key: IdempotencyKey | null; now: Date; answer: T },
  change: VialChange,
  why: (vial: Vial) => VialRefused | null,
  retried = false,
): Promise<Changed<T>> {
  const { vial, reach, key, now } = context;
  // What the verb answers, as the batch writes it: the stored answer of a repeated key.
  const answer = sql`json_patch(json(${JSON.stringify({ ok: true, vial, ...context.answer })}),
    json_object('vial', json(${CHANGING})))`;
  const { activityId, statements } = changeStatements(
    db,
    vial,
    { userId: actor.id, where: reach(sql`i.location_id`), key, now, answer },
    change,
  );
  try {
    const [written, recalled, rows] = (
      await db.batch([
        ...statements,
        db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${activityId}`),
        recallKey(db, key),
        vialQuery(db, vial.id, reach),
      ])
    ).slice(-3) as [{ id: string }[], { purpose: string; answer: string }[], Parameters<typeof vialOf>[0][]];
    const row = rows[0];
    if (!row) return refuse("not_found");
    const after = vialOf(row, now);
    if (written.length === 1) return { ok: true, vial: after, ...context.answer };
    return explain(recalled, key, after, why, now);
  } catch (error) {
    if (isOutsideGuard(error)) {
      const [recalled, rows] = await db.batch([recallKey(db, key), vialQuery(db, vial.id, reach)]);
      const row = rows[0];
      if (!row) return refuse("not_found");
      return explain(recalled, key, vialOf(row, now), why, now);
    }
    // Another request with the same key stored its answer first: once more, to replay it.
    if (isKeyTaken(error) && !retried) return changeVial(db, actor, context, change, why, true);
    throw error;
  }
}

function explain<T extends object>(
  recalled: readonly { purpose: string; answer: string }[],
  key: IdempotencyKey | null,
  vial: Vial,
  why: (vial: Vial) => VialRefused | null,
  now: Date,
): Changed<T> {
  const replay = replayOf<{ ok: true; vial: Vial } & T>(recalled, key);
  if (replay.replay) return revive(replay.answer, now);
  if (replay.misused) return refuse("key_misused");
  return why(vial) ?? refuse("changed");
}

/** SQL: the item aliased `i` is not under a recall in force. */
export const notRecalled = sql`NOT ${lotRecalled("i")}`;
