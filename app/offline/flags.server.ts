// The flagged records of a location (issue #25): commands recorded offline at the cart that the
// server refused when they were replayed (./replay.server). Managers (READ_AUDITS at the location:
// managers, admins) see every one and resolve it with a note, once: a guarded UPDATE ... WHERE
// resolved_at IS NULL in one batch with its activity row. Anyone else with READ_INVENTORY there sees
// only their own: they made them, and must see that they were flagged.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { clockTimeIn } from "~/ui/dates";
import { pageOffset } from "~/ui/page-count";
import { ResolveForm, type ResolveInput } from "./forms";
import { type Outcome, refuse } from "./outcome";

export const FLAGS_PAGE_SIZE = 25;

export interface FlagRow {
  id: string;
  kind: string;
  itemId: string | null;
  /** The vial's label code, when the vial is one of the organization's. */
  labelCode: string | null;
  sessionId: string | null;
  summary: string;
  recordedAt: number;
  flaggedAt: number;
  code: string;
  reason: string;
  userId: string;
  userName: string | null;
  resolvedAt: number | null;
  resolvedByName: string | null;
  resolutionNote: string | null;
}

const userName = (column: string) =>
  sql.raw(`(SELECT u.first_name || ' ' || u.last_name FROM users AS u WHERE u.id = ${column})`);

/** Who may resolve the location's flags: READ_AUDITS there (managers, admins). */
export function mayResolveAt(actor: ScopedActor, locationId: string): boolean {
  return reachesAt(actor, "READ_AUDITS", locationId);
}

/**
 * The flags of `locationId` the actor may see (all with READ_AUDITS there, else their own): open
 * ones first, newest first (by when they happened at the cart), then resolved ones; page `page` of
 * FLAGS_PAGE_SIZE, the total and how many are open.
 */
export async function listFlags(db: Database, actor: ScopedActor, locationId: string, page: number) {
  const all = mayResolveAt(actor, locationId);
  const mine = all ? sql`1` : sql`f.user_id = ${actor.id}`;
  const where = sql`f.location_id = ${locationId} AND f.organization_id = (${organizationOf(actor)}) AND ${mine}`;
  const [rows, totals] = await db.batch([
    db.all<FlagRow>(sql`SELECT f.id, f.kind, f.item_id AS itemId, i.label_code AS labelCode, f.session_id AS sessionId,
        f.summary, f.recorded_at AS recordedAt, f.flagged_at AS flaggedAt, f.code, f.reason, f.user_id AS userId,
        ${userName("f.user_id")} AS userName, f.resolved_at AS resolvedAt, ${userName("f.resolved_by")} AS resolvedByName,
        f.resolution_note AS resolutionNote
      FROM offline_flags AS f LEFT JOIN items AS i ON i.id = f.item_id AND i.location_id = f.location_id
      WHERE ${where}
      ORDER BY f.resolved_at IS NOT NULL, f.recorded_at DESC, f.id DESC
      LIMIT ${FLAGS_PAGE_SIZE} OFFSET ${pageOffset(page, FLAGS_PAGE_SIZE)}`),
    db.all<{ total: number; open: number }>(sql`SELECT count(*) AS total,
        coalesce(sum(f.resolved_at IS NULL), 0) AS open FROM offline_flags AS f WHERE ${where}`),
  ]);
  return {
    rows,
    total: Number(totals[0]?.total ?? 0),
    open: Number(totals[0]?.open ?? 0),
    all,
  };
}

interface Stored {
  id: string;
  locationId: string;
  locationName: string;
  timeZone: string;
  userId: string;
  summary: string;
  resolvedAt: number | null;
  resolvedByName: string | null;
}

function alreadyResolved(flag: Stored) {
  if (flag.resolvedAt === null) return refuse("already_resolved");
  return refuse(
    "already_resolved",
    `Already resolved by ${flag.resolvedByName ?? "someone"} at ${clockTimeIn(flag.resolvedAt, flag.timeZone)}.`,
  );
}

export interface ChangeOptions {
  now?: Date;
}

/**
 * Resolves a flag with a note (required, at most RESOLUTION_NOTE_MAX): READ_AUDITS at the flag's
 * location, once. Refusals: invalid (the note), not_found (not a flag the actor may see),
 * not_manager ("Only a manager at {location} can resolve this."), already_resolved ("Already
 * resolved by X at H:mm"), key_misused. The same form key sent again answers the first answer.
 */
export async function resolveFlag(
  db: Database,
  actor: ScopedActor,
  sent: unknown,
  options: ChangeOptions = {},
  retried = false,
): Promise<Outcome<{ flagId: string }>> {
  const read = ResolveForm.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input: ResolveInput = read.data;
  const stored = await readFlag(db, actor, input.flagId);
  if (!stored) return refuse("not_found");
  const mine = stored.userId === actor.id;
  const manager = mayResolveAt(actor, stored.locationId);
  if (!manager && !(mine && reachesAt(actor, "READ_INVENTORY", stored.locationId))) return refuse("not_found");
  if (!manager) return refuse("not_manager", `Only a manager at ${stored.locationName} can resolve this.`);
  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, `offline_flag_resolve:${stored.id}`, {
    note: input.note,
  });
  if (stored.resolvedAt !== null && !key) return alreadyResolved(stored);

  const now = options.now ?? new Date();
  const activityId = uuidv7();
  const changed = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
  try {
    const results = await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: stored.locationId,
          action: "resolve_offline_flag",
          entity: "offline_flag",
          entityId: stored.id,
          summary: sql`json_object('kind', f.kind, 'summary', f.summary, 'code', f.code, 'note', ${input.note},
            'by', f.user_id)`,
        },
        sql`FROM offline_flags AS f WHERE f.id = ${stored.id} AND f.resolved_at IS NULL AND ${keyUnused(key)}`,
      ),
      db.run(sql`UPDATE offline_flags SET resolved_at = ${now.getTime()}, resolved_by = ${actor.id},
          resolution_note = ${input.note}
        WHERE id = ${stored.id} AND resolved_at IS NULL AND ${changed}`),
      rememberKey(db, key, sql`json_object('ok', json('true'), 'flagId', ${stored.id})`, sql`WHERE ${changed}`),
      db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${activityId}`),
      recallKey(db, key),
    ]);
    const [written, recalled] = results.slice(-2) as [{ id: string }[], Parameters<typeof replayOf>[0]];
    if (written.length === 1) return { ok: true, flagId: stored.id };
    const replay = replayOf<{ ok: true; flagId: string }>(recalled, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    const after = await readFlag(db, actor, stored.id);
    return after ? alreadyResolved(after) : refuse("not_found");
  } catch (error) {
    // Another request with the same key stored its answer first: once more, to replay it.
    if (isKeyTaken(error) && !retried) return resolveFlag(db, actor, sent, options, true);
    throw error;
  }
}

async function readFlag(db: Database, actor: ScopedActor, id: string): Promise<Stored | null> {
  const [row] = await db.all<Stored>(sql`SELECT f.id, f.location_id AS locationId, l.name AS locationName,
      l.timezone AS timeZone, f.user_id AS userId, f.summary, f.resolved_at AS resolvedAt,
      ${userName("f.resolved_by")} AS resolvedByName
    FROM offline_flags AS f JOIN locations AS l ON l.id = f.location_id
    WHERE f.id = ${id} AND f.organization_id = (${organizationOf(actor)})`);
  return row ?? null;
}
