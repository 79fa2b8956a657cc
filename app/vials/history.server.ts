// One vial with its whole history, in one batch: the vial as GET /api/vials shows it, its ledger
// movements (a draw's with its usage entry), its activity rows (entity "item") and who did each,
// reached only where the reader may read inventory (elsewhere: null, a 404). See ./history.ts for
// how the rows become one entry per event.
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { formatQuantity } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { type Vial, vialOf, vialQuery } from "~/stock/vials.server";
import { type HistoryEntry, type HistoryKind, kindOfMovement } from "./history";

const m = schema.stockMovements;
const u = schema.usageEntries;
const s = schema.services;
const a = schema.activityLog;
const i = schema.items;

/** A user's name as history shows it; NULL for the system or a user not found. */
function nameOf(user: { id: SQLiteColumn; firstName: SQLiteColumn; lastName: SQLiteColumn }): SQL<string | null> {
  return sql<
    string | null
  >`CASE WHEN ${user.id} IS NULL THEN NULL ELSE ${user.firstName} || ' ' || ${user.lastName} END`;
}

/** The activity actions that end a vial: each pairs with the one WASTE or DISCARD movement it booked, if any. */
const ENDINGS: Record<string, HistoryKind> = { empty_vial: "emptied", discard_vial: "discarded" };
/** Activity rows a movement already tells (a draw is its USE movement and usage entry). */
const TOLD_BY_MOVEMENT = new Set(["draw_units"]);
const ACTIVITY_KINDS: Record<string, HistoryKind> = { start_vial: "started", receive_vials: "received" };

/** Where each kind of event falls in a vial's life, for events of one instant. */
const LIFE_ORDER: Record<HistoryKind, number> = {
  received: 0,
  transferred: 1,
  started: 2,
  adjusted: 3,
  drawn: 4,
  other: 5,
  emptied: 6,
  wasted: 6,
  discarded: 6,
};

/** What a batch answers for these statements, in order. */
type BatchResults<Q extends readonly unknown[]> = { [K in keyof Q]: Awaited<Q[K]> };

/** The statements of one vial's history, for a page to put in its own batch (read them with `historyOf`). */
export function vialHistoryQueries(db: Database, actor: ScopedActor, itemId: string) {
  const reach = locationsFor(actor, "READ_INVENTORY").where;
  // Every read of the batch is guarded by the vial being reached, so nothing of another's is read.
  const reached = sql`EXISTS (SELECT 1 FROM items AS reached WHERE reached.id = ${itemId} AND ${reach(sql`reached.location_id`)})`;
  const who = alias(schema.users, "who");
  const witness = alias(schema.users, "witness");
  return [
    vialQuery(db, itemId, reach),
    db
      .select({
        id: m.id,
        at: m.occurredAt,
        type: m.type,
        quantity: m.quantity,
        reason: m.reason,
        note: m.note,
        userId: m.userId,
        userName: nameOf(who),
        serviceId: u.serviceId,
        serviceName: s.name,
        provider: u.provider,
        patientRef: u.patientRef,
        usedAt: u.usedAt,
      })
      .from(m)
      .leftJoin(u, and(eq(m.referenceType, "usage"), eq(u.id, m.referenceId)))
      .leftJoin(s, eq(s.id, u.serviceId))
      .leftJoin(who, eq(who.id, m.userId))
      .where(
        and(
          // Served by stock_movements_item_at_idx (migration 0011).
          eq(m.itemId, itemId),
          reached,
        ),
      )
      .orderBy(desc(m.occurredAt), desc(m.id)),
    db
      .select({ id: a.id, at: a.at, action: a.action, summary: a.summary, userId: a.userId, userName: nameOf(who) })
      .from(a)
      .leftJoin(who, eq(who.id, a.userId))
      .where(and(eq(a.entity, "item"), eq(a.entityId, itemId), reached))
      .orderBy(desc(a.at), desc(a.id)),
    db
      .select({ discardNote: i.discardNote, witnessName: nameOf(witness) })
      .from(i)
      .leftJoin(witness, eq(witness.id, i.witnessUserId))
      .where(and(eq(i.id, itemId), reach(i.locationId))),
  ] as const;
}

type HistoryRows = BatchResults<ReturnType<typeof vialHistoryQueries>>;

/** The vial and its history from the rows of `vialHistoryQueries`; null when the vial is not there for the reader. */
export function historyOf(
  [vials, movements, activity, ends]: HistoryRows,
  now: Date,
): { vial: Vial; history: HistoryEntry[] } | null {
  const row = vials[0];
  if (!row) return null;
  const vial = vialOf(row, now);
  const end = ends[0] ?? { discardNote: null, witnessName: null };
  const units = (n: number | null) =>
    n === null ? null : `${n > 0 ? "+" : ""}${formatQuantity(n, vial.unitScale, vial.baseUnit)}`;

  const history: HistoryEntry[] = [];
  // A vial ends once: its one WASTE or DISCARD movement belongs to the activity row that ended it.
  const ending = activity.find((r) => r.action in ENDINGS);
  const endMovement = ending ? movements.find((r) => r.type === "WASTE" || r.type === "DISCARD") : undefined;
  for (const r of movements) {
    if (r === endMovement) continue;
    history.push({
      id: r.id,
      kind: kindOfMovement(r.type),
      source: r.type,
      at: r.at,
      userId: r.userId,
      userName: r.userName,
      units: r.quantity,
      unitsText: units(r.quantity),
      serviceId: r.serviceId,
      serviceName: r.serviceName,
      provider: r.provider,
      patientRef: r.patientRef,
      usedAt: r.usedAt,
      reason: r.reason,
      note: r.note,
      witnessName: null,
    });
  }
  for (const r of activity) {
    if (TOLD_BY_MOVEMENT.has(r.action)) continue;
    const isEnd = r === ending;
    const summary = r.summary ?? {};
    const text = (key: string) => (typeof summary[key] === "string" ? (summary[key] as string) : null);
    const moved = isEnd ? (endMovement?.quantity ?? null) : null;
    // The verbs stamp the vial and its movements with the command's one instant; the activity row
    // is stamped as the batch is built, a moment later. The vial's own times keep the order exact.
    const at = (isEnd ? vial.endedAt : r.action === "start_vial" ? vial.startedAt : null) ?? r.at;
    history.push({
      id: r.id,
      kind: ENDINGS[r.action] ?? ACTIVITY_KINDS[r.action] ?? "other",
      source: r.action,
      at,
      userId: r.userId,
      userName: r.userName,
      units: moved,
      unitsText: units(moved),
      serviceId: null,
      serviceName: null,
      provider: null,
      patientRef: null,
      usedAt: null,
      reason: isEnd ? (vial.discardReason ?? endMovement?.reason ?? text("reason")) : text("reason"),
      note: isEnd ? (end.discardNote ?? endMovement?.note ?? text("note")) : text("note"),
      witnessName: isEnd ? end.witnessName : null,
    });
  }
  // Newest first; one command's events share an instant (a draw that opens a sealed vial), so
  // they follow the vial's life: received, started, drawn, ended.
  history.sort(
    (x, y) =>
      y.at.getTime() - x.at.getTime() ||
      LIFE_ORDER[y.kind] - LIFE_ORDER[x.kind] ||
      (x.id < y.id ? 1 : x.id > y.id ? -1 : 0),
  );
  return { vial, history };
}

/** One vial (at a location the reader reaches with READ_INVENTORY) and its whole history, newest first: one batch. */
export async function readVialHistory(db: Database, actor: ScopedActor, itemId: string, now = new Date()) {
  return historyOf(await db.batch(vialHistoryQueries(db, actor, itemId)), now);
}
