// A line put on a transfer (create with lines, add line): read first, to say in words why a vial
// or a quantity cannot go (a started vial, one at another location or already on its way, a lot
// under recall, more than is on hand), then inserted under the same rules in SQL, so a change in
// between fails the batch (its quantity is NULL outside the guard) instead of sending a wrong line.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { lotRecalled } from "~/stock/quarantine.server";
import { pastDeadline } from "~/stock/usable.server";
import type { LineInput } from "./forms";
import { refuse, type TransferRefused } from "./outcome";

/** A line as it will be written: a vial with its units, or a bulk quantity. */
export interface ResolvedLine {
  id: string;
  variationId: string;
  itemId: string | null;
  lot: string | null;
  quantity: number;
  /** "Botox Cosmetic · 100 U vial, label K7M2Q9" or the bulk product: what a toast and the activity say. */
  label: string;
  labelCode: string | null;
  product: string;
}

/** SQL: the vial aliased `i` is already on a line still on its way, or on an open request or draft. */
export function onOpenTransfer(i = "i"): SQL {
  return sql`EXISTS (SELECT 1 FROM transfer_lines AS open_line JOIN transfers AS open_t ON open_t.id = open_line.transfer_id
    WHERE open_line.item_id = ${sql.raw(i)}.id AND open_line.status = 'pending'
      AND open_t.status IN ('requested', 'draft', 'in_transit'))`;
}

/** Why a sealed vial past its expiration date is not sent, in words. */
export function expiredWords(v: { labelCode: string | null; product: string; expirationDate: string | null }): string {
  const when = v.expirationDate ? `expired on ${v.expirationDate}` : "has no expiration date";
  return `Vial ${v.labelCode} of ${v.product} ${when}: it cannot be sent. Discard it here as expired.`;
}

/** Why the vial `v` (as read) cannot be sent from `fromLocationId`, in words; null when it can. */
function vialProblem(
  v: {
    state: string;
    locationId: string;
    recalled: number;
    expired: number;
    expirationDate: string | null;
    onTransfer: number;
    lot: string | null;
    product: string;
    labelCode: string;
  },
  fromLocationId: string,
): TransferRefused | null {
  if (v.state === "in_transit") return refuse("vial_in_transit");
  if (v.locationId !== fromLocationId) return refuse("vial_elsewhere");
  if (v.state === "in_use") return refuse("vial_started");
  if (v.state !== "sealed") return refuse("vial_ended");
  if (v.recalled) {
    return refuse("lot_recalled", `Lot ${v.lot} of ${v.product} is recalled: a recalled lot cannot be sent.`);
  }
  if (v.expired) return refuse("vial_expired", expiredWords(v));
  if (v.onTransfer) return refuse("vial_on_transfer");
  return null;
}

/**
 * The line `line` would be on a transfer from `fromLocationId` (`transferId` when it exists: its
 * own bulk lines count against what is on hand), or why not. `others` are lines already resolved
 * for the same new transfer (create with several lines).
 */
export async function resolveLine(
  db: Database,
  actor: ScopedActor,
  fromLocationId: string,
  transferId: string | null,
  line: LineInput,
  others: readonly ResolvedLine[] = [],
): Promise<{ ok: true; line: ResolvedLine } | TransferRefused> {
  const organization = organizationOf(actor);
  if ("variationId" in line) {
    const [found] = await db.all<{
      product: string;
      variation: string;
      tracking: string;
      onHand: number | null;
      taken: number;
      baseUnit: string;
    }>(sql`SELECT p.name AS product, v.name AS variation, p.tracking, p.base_unit AS baseUnit,
        (SELECT on_hand FROM stock_levels WHERE location_id = ${fromLocationId} AND variation_id = v.id) AS onHand,
        (SELECT coalesce(sum(x.quantity), 0) FROM transfer_lines AS x WHERE x.transfer_id = ${transferId}
          AND x.variation_id = v.id AND x.item_id IS NULL) AS taken
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.id = ${line.variationId} AND p.organization_id = ${organization} AND v.active = 1 AND p.active = 1`);
    if (found?.tracking !== "bulk") return refuse("variation_unavailable");
    const already =
      Number(found.taken) +
      others.filter((o) => o.variationId === line.variationId && !o.itemId).reduce((n, o) => n + o.quantity, 0);
    const onHand = Number(found.onHand ?? 0);
    if (already + line.quantity > onHand) {
      const left = Math.max(0, onHand - already);
      return refuse(
        "not_enough",
        `Only ${left} ${found.baseUnit} of ${found.product} · ${found.variation} ${already > 0 ? "are left to add" : "are on hand"} at the sending location.`,
      );
    }
    return {
      ok: true,
      line: {
        id: uuidv7(),
        variationId: line.variationId,
        itemId: null,
        lot: null,
        quantity: line.quantity,
        label: `${line.quantity} ${found.baseUnit} of ${found.product} · ${found.variation}`,
        labelCode: null,
        product: found.product,
      },
    };
  }
  // An `itemId` may also be the vial's label code (what a scanner reads).
  const by =
    "itemId" in line
      ? sql`(i.id = ${line.itemId} OR i.label_code = ${line.itemId.toUpperCase()})`
      : sql`i.label_code = ${line.labelCode.toUpperCase()}`;
  const [vial] = await db.all<{
    id: string;
    variationId: string;
    labelCode: string;
    lot: string | null;
    state: string;
    locationId: string;
    units: number;
    recalled: number;
    expired: number;
    expirationDate: string | null;
    onTransfer: number;
    product: string;
    variation: string;
  }>(sql`SELECT i.id, i.variation_id AS variationId, i.label_code AS labelCode, i.lot, i.state,
      i.location_id AS locationId, i.units_remaining AS units, ${lotRecalled("i")} AS recalled,
      ${pastDeadline("i", new Date())} AS expired, i.expiration_date AS expirationDate,
      ${onOpenTransfer("i")} AS onTransfer, p.name AS product, v.name AS variation
    FROM items AS i JOIN product_variations AS v ON v.id = i.variation_id JOIN products AS p ON p.id = v.product_id
    WHERE ${by} AND p.organization_id = ${organization}`);
  if (!vial) return refuse("vial_not_found");
  const problem = vialProblem(vial, fromLocationId);
  if (problem) return problem;
  if (others.some((o) => o.itemId === vial.id)) return refuse("vial_on_transfer");
  return {
    ok: true,
    line: {
      id: uuidv7(),
      variationId: vial.variationId,
      itemId: vial.id,
      lot: vial.lot,
      quantity: vial.units,
      label: `${vial.product} · ${vial.variation}, vial ${vial.labelCode}`,
      labelCode: vial.labelCode,
      product: vial.product,
    },
  };
}

/**
 * The insert of `line` on transfer `transferId`, written only while `guard` holds (the transfer is
 * still open to lines and reached) and the vial or the quantity is still as read: else its quantity
 * is NULL and the NOT NULL column fails the whole batch (`isLineRefused`).
 */
export function insertLine(db: Database, transferId: string, line: ResolvedLine, guard: SQL, at: number) {
  const still = line.itemId
    ? sql`EXISTS (SELECT 1 FROM items AS i WHERE i.id = ${line.itemId} AND i.state = 'sealed'
        AND i.units_remaining = ${line.quantity} AND i.location_id = t.from_location_id AND NOT ${lotRecalled("i")}
        AND NOT ${pastDeadline("i", new Date(at))} AND NOT ${onOpenTransfer("i")})`
    : sql`coalesce((SELECT on_hand FROM stock_levels WHERE location_id = t.from_location_id
          AND variation_id = ${line.variationId}), 0)
        >= ${line.quantity} + (SELECT coalesce(sum(x.quantity), 0) FROM transfer_lines AS x
          WHERE x.transfer_id = t.id AND x.variation_id = ${line.variationId} AND x.item_id IS NULL)`;
  return db.run(sql`INSERT INTO transfer_lines (id, transfer_id, variation_id, item_id, lot, quantity, status, created_at)
    VALUES (${line.id}, ${transferId}, ${line.variationId}, ${line.itemId}, ${line.lot},
      (SELECT ${line.quantity} FROM transfers AS t WHERE t.id = ${transferId} AND ${guard} AND ${still}),
      'pending', ${at})`);
}

/** Whether a batch failed because a line's rules no longer held when it was written. */
export function isLineRefused(error: unknown): boolean {
  return /transfer_lines\.quantity/.test(messages(error));
}

function messages(error: unknown): string {
  const out: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    out.push(String((e as { message?: unknown }).message ?? ""));
  }
  return out.join("\n");
}

/** The activity summary's route: the two locations' codes. */
export const ROUTE = sql`'from', (SELECT code FROM locations WHERE id = t.from_location_id),
  'to', (SELECT code FROM locations WHERE id = t.to_location_id)`;
