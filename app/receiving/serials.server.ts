// Where a manufacturer's serial already is, in words a person can act on. A serial is one unit of a
// variation and lot (ADR 0013): the unique indexes on items and receipt_lines refuse a second one,
// and these reads (made only after such a refusal) name the first: a line of this receipt, a line
// of another open receipt, or an item already received.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { formatDayOf } from "~/ui/dates";

interface Sighting {
  kind: "line" | "item";
  receiptId: string | null;
  /** 1-based position of the line on its receipt. */
  position: number | null;
  location: string;
  timezone: string;
  reference: string | null;
  /** When the receipt was started (line) or the item received (item), epoch ms. */
  at: number;
  labelCode: string | null;
}

/** "Nov 3, 2026": the day it happened at that location (the message names the location). */
const day = (ms: number, timeZone: string) => formatDayOf(Number(ms), timeZone);

const serialText = (serial: string, lot: string | null) => `Serial ${serial}${lot ? ` of lot ${lot}` : ""}`;

/** Lines of open receipts and items with this serial, in the actor's organization, first found first. */
function sightings(unit: { variationId: string; lot: string | null; serial: string }, org: SQL) {
  return sql`SELECT 'line' AS kind, o.receipt_id AS receiptId,
      (SELECT count(*) FROM receipt_lines AS n WHERE n.receipt_id = o.receipt_id
        AND (n.created_at < o.created_at OR (n.created_at = o.created_at AND n.id <= o.id))) AS position,
      loc.name AS location, loc.timezone, o_r.reference, o_r.created_at AS at, NULL AS labelCode
    FROM receipt_lines AS o JOIN receipts AS o_r ON o_r.id = o.receipt_id JOIN locations AS loc ON loc.id = o_r.location_id
    WHERE o.variation_id = ${unit.variationId} AND o.lot IS ${unit.lot} AND o.serial = ${unit.serial}
      AND o_r.status = 'open' AND loc.organization_id = ${org}
    UNION ALL
    SELECT 'item', r.id, NULL, loc.name, loc.timezone, r.reference, i.received_at, i.label_code
    FROM items AS i JOIN locations AS loc ON loc.id = i.location_id
      LEFT JOIN receipt_lines AS il ON il.id = i.receipt_line_id LEFT JOIN receipts AS r ON r.id = il.receipt_id
    WHERE i.variation_id = ${unit.variationId} AND i.lot IS ${unit.lot} AND i.serial = ${unit.serial}
      AND loc.organization_id = ${org}`;
}

/**
 * Why a line with this serial cannot be added to `receiptId`, or null if the serial is free:
 * "Serial SN1 of lot L1 is already on this receipt (line 2). …"
 */
export async function serialTakenMessage(
  db: Database,
  actor: ScopedActor,
  unit: { receiptId: string; variationId: string; lot: string | null; serial: string },
): Promise<string | null> {
  const rows = await db.all<Sighting>(sightings(unit, organizationOf(actor)));
  // An item received says most; then this receipt; then another open one.
  const first =
    rows.find((r) => r.kind === "item") ??
    rows.find((r) => r.receiptId === unit.receiptId) ??
    rows.find((r) => r.kind === "line");
  if (!first) return null;
  const what = serialText(unit.serial, unit.lot);
  if (first.kind === "item") {
    const receipt = first.reference ? `receipt ${first.reference}, ` : "";
    return `${what} was already received at ${first.location} on ${day(first.at, first.timezone)} (${receipt}label ${first.labelCode}). A serial is one unit: check the package.`;
  }
  if (first.receiptId === unit.receiptId) {
    return `${what} is already on this receipt (line ${first.position}). Check the package, or remove that line.`;
  }
  return `${what} is already on an open receipt at ${first.location}, started ${day(first.at, first.timezone)}${
    first.reference ? ` (reference ${first.reference})` : ""
  }. Check the package, or remove the line there.`;
}

/**
 * Why completing `receiptId` would receive a serial a second time (a line added before the serial
 * was received elsewhere), naming the line; null if none does.
 */
export async function receivedSerialOnReceipt(
  db: Database,
  actor: ScopedActor,
  receiptId: string,
): Promise<string | null> {
  const [line] = await db.all<{ variationId: string; lot: string | null; serial: string; position: number }>(
    sql`SELECT l.variation_id AS variationId, l.lot, l.serial,
        (SELECT count(*) FROM receipt_lines AS n WHERE n.receipt_id = l.receipt_id
          AND (n.created_at < l.created_at OR (n.created_at = l.created_at AND n.id <= l.id))) AS position
      FROM receipt_lines AS l WHERE l.receipt_id = ${receiptId} AND l.serial IS NOT NULL
        AND EXISTS (SELECT 1 FROM items AS i WHERE i.variation_id = l.variation_id AND i.lot IS l.lot
          AND i.serial = l.serial)
      ORDER BY l.created_at, l.id LIMIT 1`,
  );
  if (!line) return null;
  const rows = await db.all<Sighting>(sightings(line, organizationOf(actor)));
  const item = rows.find((r) => r.kind === "item");
  const where = item
    ? ` at ${item.location} on ${day(item.at, item.timezone)}${item.reference ? ` (receipt ${item.reference})` : ""}`
    : "";
  return `${serialText(line.serial, line.lot)} (line ${line.position}) was already received${where}. Check the package, or remove the line. Nothing was received.`;
}
