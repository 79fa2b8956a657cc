// Completing a receipt: the delivery's stock comes in. One read (the receipt, its version and its
// lines with each product's tracking, and the units per package each line kept when it was added:
// a variation's package size today does not reinterpret a line, ADR 0013), then ONE batch: the receive_vials
// activity row, the receipt marked completed at the version read, one sealed item with its own
// label code (and a barcodes row, so a scan of the label finds it) per package of a serialized
// product, and RECEIVE movements that move the levels (per item, or per line for bulk products).
//
// The guard lives in SQL: the activity row is written only if the receipt is still open at the
// version read, and carries a fresh completion id; every item and movement takes its location from
// a subquery that finds the receipt completed at the next version WITH that activity row. If
// anything changed since the read (another user completed it, a line was added or removed), the
// subquery is NULL, a NOT NULL constraint fails and the whole batch rolls back: nothing is received.
//
// A receipt against a purchase order (receipts.purchase_order_id) also advances the order in the
// same batch (~/stock/order-receiving.server: its lines gain what arrived, its status follows them,
// its receive_purchase_order row), and its guard adds: the order is still at the receipt's location
// and not closed or cancelled, and a receipt that brings more than the order still expects (or a
// variation not on it) carries a reason. Both are read in the batch, after any other completion.
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteInsertValue } from "drizzle-orm/sqlite-core";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { canHere, idsReached } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { constraintFailed } from "~/db/sql.server";
import { newLabelCode } from "~/stock/label-code";
import { type Movement, recordMovements } from "~/stock/ledger.server";
import { advanceOrder, bringsMoreThanExpected, orderStillReceivable } from "~/stock/order-receiving.server";
import { OVER_RECEIPT_REASON_MAX, OVER_RECEIPT_REASON_MIN, RECEIPT_ITEMS_MAX, RECEIPT_LINES_MAX } from "./constants";
import type { CompleteReceiptInput } from "./forms";
import { closedReceipt, type Outcome, refuse, tooManyItems } from "./outcome";
import { receivedSerialOnReceipt } from "./serials.server";

interface ReceiptRow {
  status: string;
  version: number;
  purchaseOrderId: string | null;
  /** Whether its order may still be received against (null without an order). */
  orderOk: number | null;
  /** Whether it brings more than its order still expects. */
  over: number;
  location: string;
  reference: string | null;
  vendor: string | null;
}

interface LineRow {
  id: string;
  variationId: string;
  quantity: number;
  lot: string | null;
  serial: string | null;
  expirationDate: string | null;
  expiryReason: string | null;
  unitCostCents: number | null;
  unitsPerPackage: number;
  tracking: "serialized" | "bulk";
  product: string;
  variation: string;
  baseUnit: string;
}

export interface Received {
  receiptId: string;
  /** Name of the location the stock came in at. */
  location: string;
  lines: number;
  /** Labelled items made (one per package of a serialized product). */
  items: number;
  /** Packages of bulk products, booked as quantities. */
  bulkPackages: number;
}

export interface CompletionOptions {
  /** Makes label codes; tests pass a colliding one to prove the retry. */
  labelCode?: () => string;
}

/** Rows per multi-row INSERT: far below SQLite's limit on bound parameters. */
const ROWS_PER_INSERT = 100;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) out.push(rows.slice(i, i + ROWS_PER_INSERT));
  return out;
}

export async function completeReceipt(
  db: Database,
  actor: ScopedActor,
  input: CompleteReceiptInput,
  options: CompletionOptions = {},
): Promise<Outcome<Received>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const { receiptId } = input;
  const reason = input.overReceiptReason?.trim() || null;
  const here = idsReached("receipts", actor, "WRITE_INVENTORY");
  const [receipts, lines] = await db.batch([
    db.all<ReceiptRow>(sql`SELECT r.status, r.version, loc.name AS location, r.reference,
        r.purchase_order_id AS purchaseOrderId,
        CASE WHEN r.purchase_order_id IS NULL THEN NULL ELSE ${orderStillReceivable(receiptId)} END AS orderOk,
        ${bringsMoreThanExpected(receiptId)} AS over,
        (SELECT name FROM vendors WHERE id = r.vendor_id) AS vendor
      FROM receipts AS r JOIN locations AS loc ON loc.id = r.location_id
      WHERE r.id = ${receiptId} AND r.id IN ${here}`),
    db.all<LineRow>(sql`SELECT l.id, l.variation_id AS variationId, l.quantity, l.lot, l.serial,
        l.expiration_date AS expirationDate, l.expiry_reason AS expiryReason, l.unit_cost_cents AS unitCostCents,
        l.units_per_package AS unitsPerPackage, p.tracking, p.name AS product, v.name AS variation,
        p.base_unit AS baseUnit
      FROM receipt_lines AS l JOIN product_variations AS v ON v.id = l.variation_id
        JOIN products AS p ON p.id = v.product_id
      WHERE l.receipt_id = ${receiptId} AND l.receipt_id IN ${here}
      ORDER BY l.created_at, l.id`),
  ]);
  const receipt = receipts[0];
  if (!receipt) return refuse("not_found");
  if (receipt.status !== "open") return closedReceipt(receipt.status);
  if (lines.length === 0) return refuse("empty");
  if (receipt.purchaseOrderId !== null && !receipt.orderOk) return refuse("order_closed");
  if (receipt.over && !reason) return refuse("over_receipt_reason");
  // The form's rule, for a caller without the form: a reason is a short line.
  if (reason && (reason.length < OVER_RECEIPT_REASON_MIN || reason.length > OVER_RECEIPT_REASON_MAX)) {
    return refuse("over_receipt_reason");
  }
  // Caps that keep one completion inside a Workers request (lines added before the caps existed).
  if (lines.length > RECEIPT_LINES_MAX) return refuse("too_many_lines");
  const itemCount = lines.filter((l) => l.tracking === "serialized").reduce((n, l) => n + Number(l.quantity), 0);
  if (itemCount > RECEIPT_ITEMS_MAX) return tooManyItems({ would: itemCount });

  const labelCode = options.labelCode ?? newLabelCode;
  // A label code that is already taken (items and barcodes are UNIQUE) fails the batch; one retry
  // with fresh codes, then give up without receiving anything.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.batch(receiveStatements(db, actor, receiptId, Number(receipt.version), lines, labelCode, reason));
      break;
    } catch (error) {
      if (isReceiptChanged(error)) return whyUnchanged(db, receiptId, reason);
      // A serial received meanwhile (e.g. on another receipt): the unique index on items refused it.
      if (constraintFailed(error, /items\.variation_id, items\.lot, items\.serial/)) {
        return refuse("serial_taken", (await receivedSerialOnReceipt(db, actor, receiptId)) ?? undefined);
      }
      if (!constraintFailed(error, /items\.label_code|barcodes\.code/)) throw error;
      if (attempt === 2) return refuse("label_codes");
    }
  }
  const serialized = lines.filter((l) => l.tracking === "serialized");
  return {
    ok: true,
    receiptId,
    location: receipt.location,
    lines: lines.length,
    items: serialized.reduce((n, l) => n + l.quantity, 0),
    bulkPackages: lines.filter((l) => l.tracking === "bulk").reduce((n, l) => n + l.quantity, 0),
  };
}

/**
 * Why the guard held a completion of a receipt still open: its order was closed meanwhile, or
 * another receipt against it completed first, so this one now brings more than it expects.
 */
async function whyUnchanged(db: Database, receiptId: string, reason: string | null): Promise<Outcome<Received>> {
  const [row] = await db.all<{ status: string; orderOk: number | null; over: number }>(sql`SELECT r.status,
      CASE WHEN r.purchase_order_id IS NULL THEN NULL ELSE ${orderStillReceivable(receiptId)} END AS orderOk,
      ${bringsMoreThanExpected(receiptId)} AS over
    FROM receipts AS r WHERE r.id = ${receiptId}`);
  if (row?.status === "open" && row.orderOk === 0) return refuse("order_closed");
  if (row?.status === "open" && row.over && !reason) return refuse("over_receipt_reason");
  return refuse("changed");
}

/** Whether the batch failed because the receipt was no longer open at the version read. */
function isReceiptChanged(error: unknown): boolean {
  return constraintFailed(error, /(items|stock_movements|stock_levels)\.location_id/);
}

function receiveStatements(
  db: Database,
  actor: ScopedActor,
  receiptId: string,
  version: number,
  lines: readonly LineRow[],
  labelCode: () => string,
  overReceiptReason: string | null,
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const receivedAt = new Date();
  const completionId = uuidv7();
  // This completion's receipt, as the guard below finds it (then its order, if it has one).
  const thisCompletion = sql`FROM receipts WHERE id = ${receiptId} AND status = 'completed'
    AND version = ${version + 1} AND EXISTS (SELECT 1 FROM activity_log WHERE entity = 'receipt'
      AND entity_id = ${receiptId} AND action = 'receive_vials'
      AND json_extract(summary, '$.completionId') = ${completionId})`;
  // The receipt's location, only if THIS completion is the one that closed it (see the header).
  const location: SQL = sql`(SELECT location_id ${thisCompletion})`;
  const reference = { type: "receipt", id: receiptId } as const;

  const items: (SQLiteInsertValue<typeof schema.items> & { id: string; labelCode: string })[] = [];
  const movements: Movement[] = [];
  for (const line of lines) {
    const base = { occurredAt: receivedAt, variationId: line.variationId, lot: line.lot, reference };
    if (line.tracking === "bulk") {
      movements.push({
        ...base,
        locationId: location,
        quantity: line.quantity * line.unitsPerPackage,
        type: "RECEIVE",
        userId: actor.id,
      });
      continue;
    }
    for (let n = 0; n < line.quantity; n++) {
      const itemId = uuidv7();
      items.push({
        id: itemId,
        locationId: location,
        variationId: line.variationId,
        receiptLineId: line.id,
        labelCode: labelCode(),
        lot: line.lot,
        serial: line.serial,
        expirationDate: line.expirationDate,
        state: "sealed",
        unitsRemaining: line.unitsPerPackage,
        costCents: line.unitCostCents,
        receivedAt,
      });
      movements.push({
        ...base,
        locationId: location,
        itemId,
        quantity: line.unitsPerPackage,
        type: "RECEIVE",
        userId: actor.id,
      });
    }
  }

  const summary = {
    completionId,
    lines: lines.length,
    items: items.length,
    received: lines.map((l) => ({
      variationId: l.variationId,
      product: l.product,
      variation: l.variation,
      tracking: l.tracking,
      packages: l.quantity,
      units: l.quantity * l.unitsPerPackage,
      baseUnit: l.baseUnit,
      lot: l.lot,
      expirationDate: l.expirationDate,
      ...(l.expiryReason ? { expiryReason: l.expiryReason } : {}),
    })),
  };
  return [
    logActivityWhere(
      db,
      {
        userId: actor.id,
        locationId: sql`r.location_id`,
        action: "receive_vials",
        entity: "receipt",
        entityId: receiptId,
        summary: sql`json_patch(json(${JSON.stringify(summary)}), json_object('reference', r.reference,
          'vendor', (SELECT name FROM vendors WHERE id = r.vendor_id)))`,
      },
      // Against an order: still receivable, and a reason for anything more than it expects.
      sql`FROM receipts AS r WHERE r.id = ${receiptId} AND r.status = 'open' AND r.version = ${version}
        AND (r.purchase_order_id IS NULL OR (${orderStillReceivable(receiptId)}
          AND (${overReceiptReason} IS NOT NULL OR NOT ${bringsMoreThanExpected(receiptId)})))`,
    ),
    db
      .update(schema.receipts)
      .set({
        status: "completed",
        completedAt: receivedAt,
        completedBy: actor.id,
        version: version + 1,
        // Kept only when it was needed: the receipt brings more than its order expects.
        overReceiptReason: sql`CASE WHEN ${bringsMoreThanExpected(receiptId)} THEN ${overReceiptReason} END`,
      })
      .where(sql`${schema.receipts.id} = ${receiptId} AND ${schema.receipts.status} = 'open'
        AND ${schema.receipts.version} = ${version}`),
    ...chunks(items).map((rows) => db.insert(schema.items).values(rows)),
    ...chunks(items).map((rows) =>
      db.insert(schema.barcodes).values(rows.map((item) => ({ code: item.labelCode, itemId: item.id }))),
    ),
    ...recordMovements(db, movements as [Movement, ...Movement[]]),
    // Against an order: its lines and status advance by what arrived (nothing matches without one).
    ...advanceOrder(
      db,
      actor,
      receiptId,
      sql`(SELECT purchase_order_id ${thisCompletion})`,
      receivedAt.getTime(),
      uuidv7(),
    ),
  ];
}
