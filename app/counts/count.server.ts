// Counting stock in an open count (WRITE_INVENTORY at its location): a vial's label scanned (with
// the units left for a started one), or a bulk quantity of a variation and lot on one shelf. Each
// line stores the ledger's position when it was written, read in the same batch (ADR 0031), so what
// moves after it is not a variance. A vial is counted once per count (audit_lines_item_unique): a
// second scan answers `already` and writes nothing, unless it gives the units left, which then
// replace the first ones (a recount of that vial). A vial the system places at another location or
// in another state is counted as `found`; nothing moves until a reviewer approves. Bulk lines add
// up: two people on two shelves each keep their own (after a send-back, counting a product again
// replaces its earlier shelves: ./report.server). Counting a count that was sent back reopens it.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import { parseScaled, type UnitScale } from "~/catalog/format";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { COUNT_MESSAGES } from "./constants";
import { CountBody, type CountInput } from "./forms";
import { closedRefusal, type Outcome, refuse } from "./outcome";
import { IN_SCOPE, LEDGER_POSITION, OPEN, type SessionRow, sessionQuery, sessionReached } from "./session.server";

const DECIMALS: Record<UnitScale, number> = { 1: 0, 10: 1, 100: 2, 1000: 3 };

export type Counted = {
  lineId: string;
  /** The vial was already counted in this count: nothing was written. */
  already: boolean;
  /** The vial is placed elsewhere or in another state by the system. */
  found: boolean;
  /** Base units counted on this line. */
  quantity: number;
  label: string;
};

interface Target {
  variationId: string;
  itemId: string | null;
  lot: string | null;
  labelCode: string | null;
  product: string;
  variation: string;
  tracking: "serialized" | "bulk";
  unitScale: UnitScale;
  baseUnit: string;
  unitsPerPackage: number;
  inScope: number;
  state: string | null;
  locationId: string | null;
  unitsRemaining: number | null;
  counted: string | null;
}

export async function countStock(
  db: Database,
  actor: ScopedActor,
  input: CountInput & { sessionId: string },
  retried = false,
): Promise<Outcome<Counted>> {
  const read = CountBody.safeParse(input);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const body = read.data;
  const { sessionId } = input;
  if (!sessionId || sessionId.length > 100) return refuse("not_found");
  const organization = organizationOf(actor);
  const vial = "labelCode" in body;
  const targetColumns = sql`v.id AS variationId, v.name AS variation, p.name AS product, p.tracking,
    p.unit_scale AS unitScale, p.base_unit AS baseUnit, v.units_per_package AS unitsPerPackage, ${IN_SCOPE} AS inScope`;
  const targetQuery = vial
    ? sql`SELECT ${targetColumns}, i.id AS itemId, i.lot, i.label_code AS labelCode, i.state,
          i.location_id AS locationId, i.units_remaining AS unitsRemaining,
          (SELECT a.id FROM audit_lines AS a WHERE a.session_id = s.id AND a.item_id = i.id) AS counted
        FROM audit_sessions AS s, items AS i JOIN product_variations AS v ON v.id = i.variation_id
          JOIN products AS p ON p.id = v.product_id
        WHERE s.id = ${sessionId} AND i.label_code = ${body.labelCode.toUpperCase()} AND p.organization_id = ${organization}`
    : sql`SELECT ${targetColumns}, NULL AS itemId, ${body.lot} AS lot, NULL AS labelCode, NULL AS state,
          NULL AS locationId, NULL AS unitsRemaining, NULL AS counted
        FROM audit_sessions AS s, product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE s.id = ${sessionId} AND v.id = ${body.variationId} AND p.organization_id = ${organization}`;
  const [sessions, targets] = await db.batch([
    sessionQuery(db, actor, "WRITE_INVENTORY", sessionId),
    db.all<Target>(targetQuery),
  ]);
  const session = sessions[0];
  if (!session) return refuse("not_found");
  if (session.status !== "in_progress" && session.status !== "rejected") return closedRefusal(session.status);
  const target = targets[0];
  if (!target) return vial ? refuse("unknown_label") : refuse("variation_unavailable");
  if (!target.inScope) return refuse("out_of_scope");
  const scale = Number(target.unitScale) as UnitScale;
  const typed = vial ? body.unitsRemaining : body.quantity;
  let quantity: number | null = null;
  if (typed !== null) {
    quantity = parseScaled(typed, scale);
    if (quantity === null || quantity < 0 || !Number.isSafeInteger(quantity)) {
      return refuse("invalid", COUNT_MESSAGES.quantityScale(DECIMALS[scale], target.baseUnit));
    }
  }
  let found = false;
  if (vial) {
    found = target.locationId !== session.locationId || !["sealed", "in_use"].includes(target.state ?? "");
    if (target.counted && quantity === null) {
      return {
        ok: true,
        lineId: target.counted,
        already: true,
        found,
        quantity: 0,
        label: `${target.product} · ${target.variation}`,
      };
    }
    if (quantity === null) {
      if (target.state === "sealed") quantity = Number(target.unitsRemaining);
      else if (target.state === "in_transit") quantity = Number(target.unitsPerPackage);
      else return refuse("units_needed");
    }
    if (quantity > Number(target.unitsPerPackage)) return refuse("too_many_units");
  } else if (target.tracking !== "bulk") {
    return refuse("bulk_only");
  }
  if (quantity === null) return refuse("invalid", COUNT_MESSAGES.quantity);
  return write(db, actor, session, target, { quantity, found, key: body.idempotencyKey, body }, retried, input);
}

async function write(
  db: Database,
  actor: ScopedActor,
  session: SessionRow,
  target: Target,
  line: { quantity: number; found: boolean; key: string | null; body: object },
  retried: boolean,
  input: CountInput & { sessionId: string },
): Promise<Outcome<Counted>> {
  const { idempotencyKey: _key, ...request } = line.body as { idempotencyKey?: string | null };
  const key = await idempotencyKeyFor(actor.id, line.key, `count_stock:${session.id}`, request);
  const activityId = uuidv7();
  const lineId = target.counted ?? uuidv7();
  const now = Date.now();
  const changed = sql`EXISTS (SELECT 1 FROM activity_log WHERE id = ${activityId})`;
  const label = `${target.product} · ${target.variation}`;
  const itemId = target.itemId;
  // The vial exactly as read (where the system has it, its state and units): what `found` says.
  const vialAsRead = itemId
    ? sql`EXISTS (SELECT 1 FROM items AS i WHERE i.id = ${itemId} AND i.location_id = ${target.locationId}
        AND i.state = ${target.state} AND i.units_remaining = ${target.unitsRemaining})
      AND ${target.counted === null ? sql`NOT EXISTS (SELECT 1 FROM audit_lines AS a WHERE a.session_id = s.id AND a.item_id = ${itemId})` : sql`1`}`
    : sql`1`;
  try {
    const results = await db.batch([
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: session.locationId,
          action: "count_stock",
          entity: "audit_session",
          entityId: session.id,
          summary: sql`json_object('location', l.code, 'item', ${target.labelCode}, 'product', ${label},
            'lot', ${target.lot}, 'quantity', ${line.quantity}, 'found', json(${line.found ? "true" : "false"}))`,
        },
        sql`FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id
          WHERE s.id = ${session.id} AND ${OPEN} AND ${sessionReached(actor, "WRITE_INVENTORY")}
          AND ${vialAsRead} AND ${keyUnused(key)}`,
      ),
      // Counting again what was sent back reopens it; the reviewer's note stays for the counters.
      db.run(sql`UPDATE audit_sessions SET status = 'in_progress', reviewed_by = NULL, reviewed_at = NULL,
          updated_at = ${now}
        WHERE id = ${session.id} AND status = 'rejected' AND ${changed}`),
      db.run(sql`INSERT INTO audit_lines (id, session_id, variation_id, item_id, lot, quantity, ledger_position, found,
          counted_by, counted_at)
        SELECT ${lineId}, ${session.id}, ${target.variationId}, ${itemId}, ${target.lot}, ${line.quantity},
          ${LEDGER_POSITION}, ${line.found ? 1 : 0}, ${actor.id}, ${now}
        WHERE ${changed}
        ON CONFLICT (session_id, item_id) WHERE item_id IS NOT NULL DO UPDATE SET quantity = excluded.quantity,
          ledger_position = excluded.ledger_position, found = excluded.found, counted_by = excluded.counted_by,
          counted_at = excluded.counted_at`),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'lineId', ${lineId}, 'already', json('false'),
          'found', json(${line.found ? "true" : "false"}), 'quantity', ${line.quantity}, 'label', ${label})`,
        sql`WHERE ${changed}`,
      ),
      recallKey(db, key),
      db.all<{ id: string }>(sql`SELECT id FROM activity_log WHERE id = ${activityId}`),
    ]);
    const [recalled, written] = results.slice(-2) as [
      { purpose: string; fingerprint: string | null; answer: string }[],
      { id: string }[],
    ];
    if (written.length === 1) {
      return { ok: true, lineId, already: false, found: line.found, quantity: line.quantity, label };
    }
    const replay = replayOf<Outcome<Counted>>(recalled, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    // The session closed, or the vial changed or was counted by someone else meanwhile: read again.
    if (!retried) return countStock(db, actor, input, true);
    return refuse("already_counted");
  } catch (error) {
    if (isKeyTaken(error) && !retried) return countStock(db, actor, input, true);
    throw error;
  }
}
