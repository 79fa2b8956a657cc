// What a scanned or typed code identifies, for GET /api/barcodes/{code} and the scan screen: an
// item by its own label code, or by a manufacturer's GS1 payload whose GTIN, lot and serial match
// it; else the catalogue's variation (a barcode, or a GTIN). An item is found only at a location
// the reader reaches with READ_INVENTORY (elsewhere it is not there). One round trip.
import { type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import { checkBarcode } from "~/catalog/barcode";
import { gtinCandidates } from "~/catalog/gtin";
import type { Database } from "~/db/client.server";
import { valueList } from "~/db/sql.server";
import { catalogueMatch, catalogueQueries, type ScannedVariation } from "~/products/barcodes.server";
import { parseGs1 } from "~/stock/gs1";
import { type Vial, vialOf, vialQuery } from "~/stock/vials.server";

export type ScanLookup =
  | { kind: "item"; code: string; vial: Vial }
  | ({ kind: "variation" } & ScannedVariation)
  /** The spec's barcode messages (section 5). */
  | { kind: "invalid"; errors: string[] }
  | { kind: "unknown"; code: string };

type VialRows = Awaited<ReturnType<typeof vialQuery>>;
type CatalogueRows = Parameters<typeof catalogueMatch>[1];

/** A GS1 payload naming one serialized item: its GTIN, lot and serial. */
function gs1Item(input: string, now: Date): { gtin: string; lot: string; serial: string } | null {
  const parsed = parseGs1(input, now);
  if (!parsed.ok) return null;
  const { gtin, lot, serial } = parsed.reading;
  return gtin && lot && serial ? { gtin, lot, serial } : null;
}

/**
 * The reads a code needs, for a batch (the scan screen adds its own), or the spec's messages when
 * it is not a valid code: the item it labels (or whose GS1 GTIN, lot and serial it carries), and
 * the catalogue's barcode and GTIN matches. `read` turns the batch's answers into the lookup.
 */
export function planLookup(db: Database, actor: ScopedActor, input: unknown, now = new Date()) {
  const gs1 = typeof input === "string" ? gs1Item(input, now) : null;
  // A GS1 payload is looked up in the catalogue by its GTIN; anything else is a code under the spec's rules.
  const checked = gs1 ? ({ valid: true, code: gs1.gtin } as const) : checkBarcode(input);
  if (!checked.valid) return { invalid: { kind: "invalid", errors: checked.errors } as const };
  const { code } = checked;
  const reach = locationsFor(actor, "READ_INVENTORY").where;
  const itemId: SQL = gs1
    ? sql`(SELECT it.id FROM items AS it JOIN product_variations AS v ON v.id = it.variation_id
        WHERE v.gtin IN (${valueList(gtinCandidates(gs1.gtin))}) AND it.lot = ${gs1.lot} AND it.serial = ${gs1.serial}
          AND ${reach(sql`it.location_id`)}
        LIMIT 1)`
    : sql`(SELECT it.id FROM items AS it WHERE it.label_code = ${code})`;
  const queries = [vialQuery(db, itemId, reach), ...catalogueQueries(db, actor, code)] as const;
  return {
    queries,
    read([items, byBarcode, byGtin]: readonly [VialRows, ...CatalogueRows, ...unknown[]]): ScanLookup {
      const [item] = items;
      if (item) return { kind: "item", code: gs1 ? item.labelCode : code, vial: vialOf(item, now) };
      const variation = catalogueMatch(code, [byBarcode, byGtin]);
      return variation ? { kind: "variation", ...variation } : { kind: "unknown", code };
    },
  };
}

/** What a code identifies for `actor`. One round trip. */
export async function lookUpCode(
  db: Database,
  actor: ScopedActor,
  input: unknown,
  now = new Date(),
): Promise<ScanLookup> {
  const plan = planLookup(db, actor, input, now);
  if (plan.invalid) return plan.invalid;
  return plan.read(await db.batch(plan.queries));
}

/** What the API and the screen say for a code that identifies nothing the reader may see. */
export const UNKNOWN_CODE =
  "Nothing here has this code: no item at your location carries this label, and no product in the catalogue has this barcode.";

export type ScanFound = Extract<ScanLookup, { kind: "item" | "variation" }>;

/** A lookup as GET /api/barcodes/{code} answers it: the record found, or `{error, code}` with 400 or 404. */
export function scanAnswer(found: ScanLookup) {
  if (found.kind === "invalid")
    return { status: 400, body: { error: found.errors.join(" "), code: "invalid_barcode" } } as const;
  if (found.kind === "unknown") return { status: 404, body: { error: UNKNOWN_CODE, code: "not_found" } } as const;
  return { status: 200, body: found } as const;
}
