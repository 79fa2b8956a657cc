// Approving a submitted count (WRITE_AUDITS at its location): what the review reads
// (./report.server) is booked in ONE batch, as of each line's count (ADR 0031):
// - a vial counted with a difference: a COUNT movement of (counted + its movements since) − units
//   now, the vial set to that; a count sets the quantity, it never adds on top;
// - a bulk variation: a COUNT movement of the sum counted − (on hand now − movements since);
// - a vial expected and not counted: discarded with the reason missing_in_count (a DISCARD of its units);
// - a vial found here that the system had elsewhere: a COUNT out where the system had it (its
//   units there, if any) and a COUNT in here of what was counted, the vial moved here and on the
//   shelf (sealed if never started, else in use). A found vial the system has as emptied or
//   discarded stays so: a finished vial never changes again (items_ended_frozen); one it has on the
//   road arrives through its transfer's receipt (ADR 0031); the review shows both. Each vial's units stay the sum of its movements, each level the sum of its location's.
// The guard is the session still submitted and reached, the ledger not moved since the report was
// read (its top rowid) and every vial touched exactly as read: any draw meanwhile and the batch
// writes nothing, and the approval reads the report again (a few times, then `changed`).
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import { formatMoney } from "~/catalog/format";
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
import { isNotEnoughStock, isOutsideGuard, type Movement, recordMovements } from "~/stock/ledger.server";
import { KeyOnlyBody } from "./forms";
import { type Outcome, refuse } from "./outcome";
import { type CountReport, readReport } from "./report.server";
import { readSession, type SessionRow, sessionReached } from "./session.server";

const ATTEMPTS = 3;

export type Approved = {
  sessionId: string;
  status: "approved";
  /** COUNT movements booked, vials discarded as missing, vials brought here. */
  booked: number;
  discarded: number;
  found: number;
};

/** What approving would book, in words a person confirms first. */
export function approvalQuestion(report: CountReport): string {
  const differences =
    report.vials.filter((v) => !v.found && v.final !== v.unitsNow && !v.movedOn).length +
    report.bulk.filter((b) => b.variance !== 0).length;
  const parts = [
    differences === 0
      ? "no count differences"
      : `${differences} count difference${differences === 1 ? "" : "s"} booked as COUNT movements`,
    report.totals.missingVials === 0
      ? "no vial discarded"
      : `${report.totals.missingVials} missing vial${report.totals.missingVials === 1 ? "" : "s"} discarded (missing in a count)`,
    report.vials.filter((v) => v.found && !v.finished && !v.onTheRoad).length === 0
      ? null
      : `${report.vials.filter((v) => v.found && !v.finished && !v.onTheRoad).length} found vial(s) brought to this location`,
    report.vials.some((v) => v.finished)
      ? "found vials emptied or discarded in the system stay finished (nothing is booked for them)"
      : null,
    report.vials.some((v) => v.onTheRoad)
      ? "found vials on the road in the system arrive through their transfer (receive them there)"
      : null,
  ].filter(Boolean);
  const net = report.totals.varianceCents - report.totals.missingCents + report.totals.foundCents;
  const value = net === 0 ? "" : ` Net change at cost: ${net < 0 ? "−" : "+"}${formatMoney(Math.abs(net))}.`;
  return `Approve this count? ${parts.join(", ")}.${value}`;
}

export async function approveCount(
  db: Database,
  actor: ScopedActor,
  input: { sessionId: string; idempotencyKey?: string | null },
): Promise<Outcome<Approved>> {
  const read = KeyOnlyBody.safeParse({ idempotencyKey: input.idempotencyKey });
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const key = await idempotencyKeyFor(actor.id, read.data.idempotencyKey, `audit_complete:${input.sessionId}`, {});
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const session = await readSession(db, actor, "WRITE_AUDITS", input.sessionId);
    if (!session) return refuse("not_found");
    if (session.status !== "submitted" && !key) return refuse("not_submitted");
    const report = await readReport(db, session);
    const outcome = await book(db, actor, session, report, key);
    if (outcome !== "moved") return outcome;
  }
  return refuse("changed");
}

interface ItemChange {
  itemId: string;
  set: SQL;
}

function plan(session: SessionRow, report: CountReport, actorId: string, now: Date) {
  const here = session.locationId;
  const reference = { type: "audit" as const, id: session.id };
  const movements: Omit<Movement, "locationId">[] = [];
  const locations: string[] = [];
  const changes: ItemChange[] = [];
  const at = now.getTime();
  const move = (location: string, m: Omit<Movement, "locationId" | "userId" | "occurredAt" | "reference">) => {
    movements.push({ ...m, userId: actorId, occurredAt: now, reference });
    locations.push(location);
  };
  let found = 0;
  for (const v of report.vials) {
    if (v.movedOn || v.finished || v.onTheRoad) continue;
    const onShelfHere = v.itemLocationId === here && (v.state === "sealed" || v.state === "in_use");
    if (onShelfHere) {
      const variance = v.final - v.unitsNow;
      if (variance === 0) continue;
      move(here, { variationId: v.variationId, itemId: v.itemId, lot: v.lot, quantity: variance, type: "COUNT" });
      changes.push({ itemId: v.itemId, set: sql`units_remaining = ${v.final}` });
      continue;
    }
    // Found: out where the system had it, in here; back on the shelf.
    found++;
    if (v.unitsNow > 0) {
      move(v.itemLocationId, {
        variationId: v.variationId,
        itemId: v.itemId,
        lot: v.lot,
        quantity: -v.unitsNow,
        type: "COUNT",
      });
    }
    if (v.final > 0) {
      move(here, { variationId: v.variationId, itemId: v.itemId, lot: v.lot, quantity: v.final, type: "COUNT" });
    }
    const state = v.state === "sealed" || v.state === "in_use" ? v.state : v.startedAt === null ? "sealed" : "in_use";
    changes.push({
      itemId: v.itemId,
      set: sql`location_id = ${here}, units_remaining = ${v.final}, state = ${state}, ended_at = NULL,
        discard_reason = NULL, discard_note = NULL`,
    });
  }
  for (const b of report.bulk) {
    if (b.variance === 0) continue;
    const lots = new Set(b.lines.map((l) => l.lot));
    const lot = lots.size === 1 ? ([...lots][0] ?? null) : null;
    move(here, { variationId: b.variationId, lot, quantity: b.variance, type: "COUNT" });
  }
  for (const m of report.missing) {
    if (m.unitsNow > 0) {
      move(here, {
        variationId: m.variationId,
        itemId: m.itemId,
        lot: m.lot,
        quantity: -m.unitsNow,
        type: "DISCARD",
        reason: "missing_in_count",
      });
    }
    changes.push({
      itemId: m.itemId,
      set: sql`state = 'discarded', units_remaining = 0, ended_at = ${at}, discard_reason = 'missing_in_count',
        discard_note = NULL`,
    });
  }
  return { movements, locations, changes, found };
}

async function book(
  db: Database,
  actor: ScopedActor,
  session: SessionRow,
  report: CountReport,
  key: IdempotencyKey | null,
): Promise<Outcome<Approved> | "moved"> {
  const now = new Date();
  const { movements, locations, changes, found } = plan(session, report, actor.id, now);
  const activityId = uuidv7();
  const changed = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
  // Every vial touched, as the report read it: [id, location, state, units].
  const asRead = JSON.stringify(
    [
      ...report.vials.map((v) => [v.itemId, v.itemLocationId, v.state, v.unitsNow]),
      ...report.missing.map((m) => [m.itemId, session.locationId, m.state, m.unitsNow]),
    ].filter((row) => changes.some((c) => c.itemId === row[0])),
  );
  const vialsAsRead = sql`NOT EXISTS (SELECT 1 FROM json_each(${asRead}) AS r
    JOIN items AS x ON x.id = json_extract(r.value, '$[0]')
    WHERE x.location_id IS NOT json_extract(r.value, '$[1]') OR x.state IS NOT json_extract(r.value, '$[2]')
      OR x.units_remaining IS NOT json_extract(r.value, '$[3]'))`;
  const booked = movements.filter((m) => m.type === "COUNT").length;
  const discarded = report.missing.length;
  const answer: Approved = { sessionId: session.id, status: "approved", booked, discarded, found };
  const valueCents = report.totals.varianceCents - report.totals.missingCents + report.totals.foundCents;
  const statements: BatchItem<"sqlite">[] = [
    logActivityWhere(
      db,
      {
        id: activityId,
        userId: actor.id,
        locationId: session.locationId,
        action: "audit_complete",
        entity: "audit_session",
        entityId: session.id,
        summary: sql`json_object('location', l.code, 'booked', ${booked}, 'discarded', ${discarded}, 'found', ${found},
          'valueCents', ${valueCents})`,
      },
      sql`FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
        WHERE s.id = ${session.id} AND s.status = 'submitted' AND ${sessionReached(actor, "WRITE_AUDITS")}
        AND (SELECT coalesce(max(rowid), 0) FROM stock_movements) = ${report.ledgerTop}
        AND ${vialsAsRead} AND ${keyUnused(key)}`,
    ),
    db.run(sql`UPDATE audit_sessions SET status = 'approved', reviewed_by = ${actor.id}, reviewed_at = ${now.getTime()},
        updated_at = ${now.getTime()}
      WHERE id = ${session.id} AND ${changed}`),
  ];
  if (movements.length > 0) {
    statements.push(
      ...recordMovements(
        db,
        movements.map((m, i) => ({
          ...m,
          // NULL unless this approval's activity row is there: a lost race fails the batch here.
          locationId: sql`(SELECT ${locations[i]} WHERE ${changed})`,
        })) as [Movement, ...Movement[]],
      ),
    );
  }
  for (const c of changes) {
    statements.push(
      db.run(sql`UPDATE items SET ${c.set}, updated_at = ${now.getTime()} WHERE id = ${c.itemId} AND ${changed}`),
    );
  }
  statements.push(
    rememberKey(db, key, sql`json(${JSON.stringify({ ok: true, ...answer })})`, sql`WHERE ${changed}`),
    recallKey(db, key),
    db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${activityId}`),
  );
  try {
    const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    const [recalled, written] = results.slice(-2) as [
      { purpose: string; fingerprint: string | null; answer: string }[],
      { id: string }[],
    ];
    if (written.length === 1) return { ok: true, ...answer };
    return explain(db, actor, session.id, recalled, key);
  } catch (error) {
    if (isOutsideGuard(error) || isNotEnoughStock(error)) {
      const recalled = key ? await db.batch([recallKey(db, key)]).then(([r]) => r) : [];
      return explain(db, actor, session.id, recalled, key);
    }
    if (isKeyTaken(error)) return "moved";
    throw error;
  }
}

async function explain(
  db: Database,
  actor: ScopedActor,
  sessionId: string,
  recalled: readonly { purpose: string; fingerprint?: string | null; answer: string }[],
  key: IdempotencyKey | null,
): Promise<Outcome<Approved> | "moved"> {
  const replay = replayOf<Outcome<Approved>>(recalled, key);
  if (replay.replay) return replay.answer;
  if (replay.misused) return refuse("key_misused");
  const session = await readSession(db, actor, "WRITE_AUDITS", sessionId);
  if (!session) return refuse("not_found");
  if (session.status !== "submitted") return refuse("not_submitted");
  // Still submitted: the ledger or a vial moved since the report was read.
  return "moved";
}
