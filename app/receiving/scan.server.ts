// Reading a manufacturer's GS1 barcode at receiving: the product by its GTIN (AI 01, also when the
// catalogue keeps it as GTIN-13/12/8), lot (10), expiry (17) and serial (21), as the values the
// "Add line" form is filled with. Nothing is written; one round trip. On a receipt against a
// purchase order, a variation the order still expects also fills the packages outstanding (less what
// is already on the receipt) and the order's unit cost.
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { canHere, idsReached } from "~/access/scope.server";
import { gtinCandidates } from "~/catalog/gtin";
import type { Database } from "~/db/client.server";
import { organizationOf, valueList } from "~/db/sql.server";
import { parseGs1 } from "~/stock/gs1";
import { expectedOfVariation } from "~/stock/order-receiving.server";
import { EMPTY_LINE, type LineFormValues, type ScanReading } from "./constants";
import { closedReceipt, type Outcome, refuse } from "./outcome";

/** What an order still expects of a variation on this receipt: packages left and its unit cost. */
export interface Expected {
  packages: number;
  unitCostCents: number;
}

/** Cents as the form's unit cost is typed: 1250 → "12.50". */
export const costAsTyped = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * The line form's values from a scan's lot, expiry and serial, for `variationId`; a serial means
 * one package, else what the order still expects of it (if any), at the order's unit cost.
 */
export function prefillOf(
  variationId: string | null,
  fields: { lot?: string | null; expirationDate?: string | null; serial?: string | null },
  expected: Expected | null = null,
): LineFormValues {
  return {
    ...EMPTY_LINE,
    variationId: variationId ?? "",
    quantity: fields.serial ? "1" : expected && expected.packages > 0 ? String(expected.packages) : "",
    lot: fields.lot ?? "",
    expirationDate: fields.expirationDate ?? "",
    serial: fields.serial ?? "",
    unitCost: expected ? costAsTyped(expected.unitCostCents) : "",
  };
}

/** What the receipt's order still expects of `rows`' variation, less what the receipt already holds. */
export function expectedOf(
  rows: readonly { outstanding: number; onReceipt: number; unitCostCents: number }[],
): Expected | null {
  const row = rows[0];
  if (!row) return null;
  return {
    packages: Math.max(Number(row.outstanding) - Number(row.onReceipt), 0),
    unitCostCents: Number(row.unitCostCents),
  };
}

export async function readScan(
  db: Database,
  actor: ScopedActor,
  input: { receiptId: string; scan: string },
  today = new Date(),
): Promise<Outcome<{ reading: ScanReading }>> {
  if (!canHere(actor, "WRITE_INVENTORY")) return refuse("forbidden");
  const parsed = parseGs1(input.scan, today);
  // A wrong check digit is refused, naming the product its corrected GTIN belongs to, if any.
  const gtin = parsed.ok ? parsed.reading.gtin : parsed.correctedGtin;
  const candidates = gtin ? gtinCandidates(gtin) : [];
  const scanned = sql`(SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
    WHERE v.gtin IN (${candidates.length ? valueList(candidates) : sql`NULL`})
      AND p.organization_id = ${organizationOf(actor)} LIMIT 1)`;
  const [receipts, variations, expected] = await db.batch([
    db.all<{ status: string }>(sql`SELECT status FROM receipts
      WHERE id = ${input.receiptId} AND id IN ${idsReached("receipts", actor, "WRITE_INVENTORY")}`),
    db.all<{ id: string; label: string; active: number }>(sql`SELECT v.id, p.name || ' · ' || v.name AS label,
        (v.active AND p.active) AS active
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE v.gtin IN (${candidates.length ? valueList(candidates) : sql`NULL`})
        AND p.organization_id = ${organizationOf(actor)}
      LIMIT 1`),
    expectedOfVariation(db, input.receiptId, scanned),
  ]);
  const receipt = receipts[0];
  if (!receipt) return refuse("not_found");
  if (receipt.status !== "open") return closedReceipt(receipt.status);

  if (!parsed.ok) {
    const meant = variations[0];
    const message = meant ? `${parsed.message} With that digit it is the GTIN of ${meant.label}.` : parsed.message;
    return { ok: true, reading: { kind: "unreadable", message } };
  }
  const { reading } = parsed;
  if (!reading.gtin) {
    return {
      ok: true,
      reading: {
        kind: "unreadable",
        message:
          "That scan is not a GS1 barcode: no GTIN (01) found. Scan the manufacturer's barcode on the package, or choose the product below.",
      },
    };
  }
  const variation = variations[0];
  if (!variation)
    return { ok: true, reading: { kind: "unknown", gtin: reading.gtin, prefill: prefillOf(null, reading) } };
  if (!variation.active) {
    return {
      ok: true,
      reading: {
        kind: "unreadable",
        message: `GTIN ${reading.gtin} belongs to ${variation.label}, which is archived. Restore it on its product page to receive it.`,
      },
    };
  }
  return {
    ok: true,
    reading: {
      kind: "found",
      gtin: reading.gtin,
      label: variation.label,
      prefill: prefillOf(variation.id, reading, expectedOf(expected)),
    },
  };
}
