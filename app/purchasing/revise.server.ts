// Revising a submitted or partly received order (WRITE_PURCHASING at its location): lines'
// packages or unit costs changed, lines added, lines removed (only those nothing arrived of; a
// line never goes below what arrived), with a reason. Written as ONE batch: the revision row (its
// number, the reason, each line before and after), the line changes, the order's revision bumped
// and its activity row, guarded on the order's version as read, so a receipt completed in between
// (which moves a line's received packages, and so the version) revises nothing.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { ORDER_LINES_MAX } from "./constants";
import { ReviseInput } from "./forms";
import { expectedDate, insertLine, isLineRefused, resolveLines } from "./lines.server";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, refuse } from "./outcome";
import { happened, reached } from "./read.server";

type Revised = { orderId: string; number: string; revision: number; changes: number };

type Terms = { packages: number; unitCostCents: number };

/** One line's change as the revision records it. */
export interface RevisionChange {
  variationId: string;
  product: string;
  what: "changed" | "added" | "removed";
  before: Terms | null;
  after: Terms | null;
}

export async function revisePurchaseOrder(
  db: Database,
  actor: ScopedActor,
  sent: ReviseInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<Revised>> {
  const read = ReviseInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { orderId, idempotencyKey, ...request } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `purchase_order_revise:${orderId}`, request);
  const found = await orderToChange<Revised>(db, actor, orderId, key);
  if ("answer" in found) return found.answer;
  const { order } = found;
  if (order.status !== "submitted" && order.status !== "partially_received") return refuse("not_revisable");
  if (request.version !== undefined && request.version !== order.version) return refuse("changed");

  const named = [...request.lines.map((l) => l.lineId), ...request.remove];
  if (new Set(named).size !== named.length) {
    return refuse("invalid", "Name each line once: a line is either changed or removed.");
  }
  const changes: RevisionChange[] = [];
  const updates: { lineId: string; packages: number; unitCostCents: number; received: number }[] = [];
  for (const change of request.lines) {
    const line = order.lines.find((l) => l.id === change.lineId);
    if (!line) return refuse("line_not_found");
    const product = `${line.product} · ${line.variation}`;
    const after = {
      packages: change.packages ?? line.packagesOrdered,
      unitCostCents: change.unitCostCents ?? line.unitCostCents,
    };
    if (after.packages < line.packagesReceived) {
      return refuse(
        "below_received",
        `${line.packagesReceived} ${line.packagesReceived === 1 ? "package" : "packages"} of ${product} arrived already: order at least that many.`,
      );
    }
    if (after.packages === line.packagesOrdered && after.unitCostCents === line.unitCostCents) continue;
    updates.push({ lineId: line.id, ...after, received: line.packagesReceived });
    changes.push({
      variationId: line.variationId,
      product,
      what: "changed",
      before: { packages: line.packagesOrdered, unitCostCents: line.unitCostCents },
      after,
    });
  }
  const removals: string[] = [];
  for (const lineId of request.remove) {
    const line = order.lines.find((l) => l.id === lineId);
    if (!line) return refuse("line_not_found");
    const product = `${line.product} · ${line.variation}`;
    if (line.packagesReceived > 0) {
      return refuse(
        "line_received",
        `Part of ${product} has arrived: it stays on the order (lower it to what arrived instead).`,
      );
    }
    removals.push(line.id);
    changes.push({
      variationId: line.variationId,
      product,
      what: "removed",
      before: { packages: line.packagesOrdered, unitCostCents: line.unitCostCents },
      after: null,
    });
  }
  if (order.lines.length - removals.length + request.add.length > ORDER_LINES_MAX) return refuse("too_many_lines");
  const now = new Date();
  const resolved = await resolveLines(
    db,
    actor,
    orderId,
    request.add,
    expectedDate(now, order.timezone, order.leadTimeDays),
  );
  if (!resolved.ok) return resolved;
  for (const line of resolved.lines) {
    changes.push({
      variationId: line.variationId,
      product: line.product,
      what: "added",
      before: null,
      after: { packages: line.packages, unitCostCents: line.unitCostCents },
    });
  }
  if (changes.length === 0) return refuse("nothing_changed");

  const activityId = uuidv7();
  const done = happened(activityId);
  const at = now.getTime();
  const revision = order.revision + 1;
  const guard = sql`o.id = ${order.id} AND o.status IN ('submitted', 'partially_received')
    AND o.version = ${order.version} AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)}
    AND ${keyUnused(key)}`;
  try {
    const results: unknown[] = await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: order.locationId,
          action: "revise_purchase_order",
          entity: "purchase_order",
          entityId: order.id,
          summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'revision', o.revision + 1,
            'reason', ${request.reason}, 'changes', ${changes.length})`,
        },
        sql`FROM purchase_orders AS o WHERE ${guard}`,
      ),
      db.run(sql`INSERT INTO purchase_order_revisions (id, order_id, revision, reason, changes, revised_by, created_at)
        SELECT ${uuidv7()}, o.id, o.revision + 1, ${request.reason}, json(${JSON.stringify(changes)}), ${actor.id}, ${at}
        FROM purchase_orders AS o WHERE o.id = ${order.id} AND ${done}`),
      ...updates.map((u) =>
        db.run(sql`UPDATE purchase_order_lines SET packages_ordered = ${u.packages}, unit_cost_cents = ${u.unitCostCents},
            updated_at = ${at}
          WHERE id = ${u.lineId} AND order_id = ${order.id} AND packages_received <= ${u.packages} AND ${done}`),
      ),
      ...removals.map((lineId) =>
        db.run(sql`DELETE FROM purchase_order_lines WHERE id = ${lineId} AND order_id = ${order.id}
          AND packages_received = 0 AND ${done}`),
      ),
      ...resolved.lines.map((line) => insertLine(db, order.id, line, done, at)),
      // Lowered to what arrived, nothing is outstanding any more: a partly received order is received.
      db.run(sql`UPDATE purchase_orders SET revision = revision + 1, updated_at = ${at},
          status = CASE WHEN status = 'partially_received' AND NOT EXISTS (SELECT 1 FROM purchase_order_lines AS x
            WHERE x.order_id = purchase_orders.id AND x.packages_received < x.packages_ordered) THEN 'received'
            ELSE status END
        WHERE id = ${order.id} AND ${done}`),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'orderId', ${order.id}, 'number', ${order.number}, 'revision', ${revision},
          'changes', ${changes.length})`,
        sql`FROM activity_log WHERE id = ${activityId}`,
      ),
      db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_log WHERE id = ${activityId}`),
    ]);
    const [written] = results[results.length - 1] as { n: number }[];
    if (Number(written?.n) === 1) {
      return { ok: true, orderId: order.id, number: order.number, revision, changes: changes.length };
    }
    const replay = replayOf<Outcome<Revised>>(await recallKey(db, key), key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    return refuse("changed");
  } catch (error) {
    if (isLineRefused(error) || isKeyTaken(error)) {
      const replay = replayOf<Outcome<Revised>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      if (!options.retried && !request.version) return revisePurchaseOrder(db, actor, sent, { retried: true });
      return refuse("changed");
    }
    throw error;
  }
}
