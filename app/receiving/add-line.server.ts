// Adding what arrived to an open receipt: packages of one active variation of the organization,
// from one lot. The unit cost defaults to the order's for it (a receipt against a purchase order),
// else the variation's cost, and the line keeps the variation's
// units per package as they are now (completion counts with the line's, ADR 0013). A completed or
// cancelled receipt refuses the line in the database (receipt_lines triggers), whatever the page
// showed. A serialized product (a vial) needs its lot and expiration date: recalls trace lots, and
// an item without an expiry counts as expired (spec section 4).
//
// Also guarded in the INSERT's WHERE, and named when refused: a serial already received or on an
// open receipt (unique indexes back it), a receipt already at its line or item cap, and a key
// already used (the form's idempotency key: the repeat answers what the first one did). An
// expired or far-future lot needs a confirmed reason (the receipt_lines CHECK backs it).
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { canHere, idsReached } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf, raisedBy } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { ORDER_UNIT_COST } from "~/stock/order-receiving.server";
import { formatDate } from "~/ui/dates";
import {
  EXPIRY_REASON_MAX,
  EXPIRY_REASON_MIN,
  expiryWarning,
  LINE_MESSAGES,
  RECEIPT_ITEMS_MAX,
  RECEIPT_LINES_MAX,
} from "./constants";
import { expiryCheckOf, lineProblems, type ReceiptLineInput } from "./forms";
import { closedReceipt, type Outcome, refuse, tooManyItems } from "./outcome";
import { serialTakenMessage } from "./serials.server";

export interface AddLineOptions {
  /** The day the lot's expiry is checked against (UTC); tests pass a fixed one. */
  now?: Date;
  /** Set on the one retry after losing a race for the same key or serial. */
  retried?: boolean;
}

type Added = { lineId: string; label: string };

/** Whether a batch failed because the receipt_lines triggers refused a change to a closed receipt. */
export function isReceiptClosed(error: unknown): boolean {
  return raisedBy(error, /receipt is closed/);
}

export async function addReceiptLine(
  db: Database,
  actor: ScopedActor,
  input: ReceiptLineInput & { receiptId: string; idempotencyKey?: string | null },
  options: AddLineOptions = {},
): Promise<Outcome<Added>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const problem = Object.values(lineProblems(input))[0];
  if (problem) return refuse("invalid", problem);
  const now = options.now ?? new Date();

  // An expired or implausibly far-dated lot: only with the box ticked and a reason.
  const check = expiryCheckOf(input.expirationDate, now);
  let expiryReason: string | null = null;
  if (check && input.expirationDate) {
    if (!input.expiryConfirmed) {
      return refuse("expiry_unconfirmed", expiryWarning(check, formatDate(input.expirationDate)));
    }
    expiryReason = input.expiryReason?.trim() ?? "";
    if (expiryReason.length < EXPIRY_REASON_MIN || expiryReason.length > EXPIRY_REASON_MAX) {
      return refuse("expiry_reason", LINE_MESSAGES.expiryReason);
    }
  }

  const key = await idempotencyKeyFor(actor.id, input.idempotencyKey, `receipt_line_add:${input.receiptId}`, input);
  const lineId = uuidv7();
  const traced = input.lot !== null && input.expirationDate !== null;
  const here = idsReached("receipts", actor, "WRITE_INVENTORY");
  const usable = sql`v.id = ${input.variationId} AND v.active = 1 AND p.active = 1
    AND p.organization_id = ${organizationOf(actor)}`;
  // Packages of serialized products already on the receipt: each becomes an item at completion.
  const itemsOn = sql`(SELECT coalesce(sum(x.quantity), 0) FROM receipt_lines AS x
    JOIN product_variations AS xv ON xv.id = x.variation_id JOIN products AS xp ON xp.id = xv.product_id
    WHERE x.receipt_id = r.id AND xp.tracking = 'serialized')`;
  const linesOn = sql`(SELECT count(*) FROM receipt_lines AS x WHERE x.receipt_id = r.id)`;
  const roomFor = sql`${linesOn} < ${RECEIPT_LINES_MAX}
    AND (p.tracking = 'bulk' OR ${itemsOn} + ${input.quantity} <= ${RECEIPT_ITEMS_MAX})`;
  // A serial is one unit of a variation and lot: not if already received, nor on an open receipt.
  const serialFree =
    input.serial === null
      ? sql`1`
      : sql`NOT EXISTS (SELECT 1 FROM items AS i WHERE i.variation_id = v.id AND i.lot IS ${input.lot}
          AND i.serial = ${input.serial})
        AND NOT EXISTS (SELECT 1 FROM receipt_lines AS o JOIN receipts AS o_r ON o_r.id = o.receipt_id
          WHERE o.variation_id = v.id AND o.lot IS ${input.lot} AND o.serial = ${input.serial} AND o_r.status = 'open')`;
  const createdAt = now.getTime();
  try {
    const [added, , , recalled, found] = await db.batch([
      db.all<{ id: string }>(sql`INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, units_per_package,
          lot, serial, expiration_date, unit_cost_cents, expiry_reason, created_at)
        SELECT ${lineId}, r.id, v.id, ${input.quantity}, v.units_per_package, ${input.lot}, ${input.serial},
          ${input.expirationDate}, coalesce(${input.unitCostCents}, ${ORDER_UNIT_COST}, v.cost_cents), ${expiryReason},
          ${createdAt}
        FROM receipts AS r, product_variations AS v JOIN products AS p ON p.id = v.product_id
        WHERE r.id = ${input.receiptId} AND r.id IN ${here} AND ${usable}
          AND (p.tracking = 'bulk' OR ${traced ? 1 : 0}) AND ${keyUnused(key)} AND ${roomFor} AND ${serialFree}
        RETURNING id`),
      logActivityWhere(
        db,
        {
          userId: actor.id,
          locationId: sql`r.location_id`,
          action: "add_receipt_line",
          entity: "receipt",
          entityId: input.receiptId,
          summary: sql`json_object('lineId', l.id, 'variationId', v.id, 'product', p.name, 'variation', v.name,
            'quantity', l.quantity, 'unitsPerPackage', l.units_per_package, 'lot', l.lot, 'serial', l.serial,
            'expirationDate', l.expiration_date, 'expiryReason', l.expiry_reason, 'unitCostCents', l.unit_cost_cents)`,
        },
        sql`FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id
          JOIN product_variations AS v ON v.id = l.variation_id JOIN products AS p ON p.id = v.product_id
          WHERE l.id = ${lineId}`,
      ),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'lineId', l.id, 'label', p.name || ' · ' || v.name)`,
        sql`FROM receipt_lines AS l JOIN product_variations AS v ON v.id = l.variation_id
          JOIN products AS p ON p.id = v.product_id WHERE l.id = ${lineId}`,
      ),
      recallKey(db, key),
      db.all<{
        status: string;
        label: string | null;
        tracking: string | null;
        lines: number;
        items: number;
      }>(sql`SELECT r.status, p.name || ' · ' || v.name AS label, p.tracking, ${linesOn} AS lines,
          ${itemsOn} AS items
        FROM receipts AS r LEFT JOIN (product_variations AS v JOIN products AS p ON p.id = v.product_id) ON ${usable}
        WHERE r.id = ${input.receiptId} AND r.id IN ${here}`),
    ]);
    const receipt = found[0];
    if (!receipt) return refuse("not_found");
    if (added.length === 1) return { ok: true, lineId, label: receipt.label ?? "" };
    // Nothing was written: a repeat of a key answers as the first time; otherwise say why.
    const replay = replayOf<Outcome<Added>>(recalled, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    if (receipt.status !== "open") return closedReceipt(receipt.status);
    if (receipt.label === null) return refuse("variation_unavailable");
    if (receipt.tracking === "serialized" && !traced) return refuse("untraced");
    if (Number(receipt.lines) >= RECEIPT_LINES_MAX) return refuse("too_many_lines");
    if (receipt.tracking === "serialized" && Number(receipt.items) + input.quantity > RECEIPT_ITEMS_MAX) {
      return tooManyItems({ already: Number(receipt.items) });
    }
    if (input.serial !== null) {
      const taken = await serialTakenMessage(db, actor, { ...input, serial: input.serial });
      if (taken) return refuse("serial_taken", taken);
    }
    return refuse("variation_unavailable");
  } catch (error) {
    if (isReceiptClosed(error)) return closedReceipt(await statusOf(db, actor, input.receiptId));
    // Someone else's request with the same key, or the same serial, got in first: try once more to say which.
    const raced = isKeyTaken(error) || constraintFailed(error, /receipt_lines\.variation_id, receipt_lines\.lot/);
    if (raced && !options.retried) return addReceiptLine(db, actor, input, { ...options, retried: true });
    throw error;
  }
}

/** The receipt's status, read again after the triggers refused a change (refusals only). */
export async function statusOf(db: Database, actor: ScopedActor, receiptId: string): Promise<string> {
  const [row] = await db.all<{ status: string }>(
    sql`SELECT status FROM receipts WHERE id = ${receiptId} AND id IN ${idsReached("receipts", actor, "READ_INVENTORY")}`,
  );
  return row?.status ?? "completed";
}
