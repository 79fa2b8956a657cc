// Sealed vials for a test, received the way receiving makes them (open, one line, complete), so
// they carry their RECEIVE movements and label codes like any real vial.
import { and, eq } from "drizzle-orm";
import type { ScopedActor } from "../../app/access/actor";
import { type Database, schema } from "../../app/db/client.server";
import { addReceiptLine } from "../../app/receiving/add-line.server";
import { completeReceipt } from "../../app/receiving/complete.server";
import { openReceipt } from "../../app/receiving/open.server";

export interface VialsToReceive {
  locationId: string;
  variationId: string;
  quantity: number;
  lot: string;
  /** YYYY-MM-DD; a date already passed is confirmed with a reason, as receiving asks. */
  expirationDate: string;
}

/** Receives `quantity` sealed vials of a lot as `by` (who may write inventory at the location); their ids. */
export async function receiveVials(db: Database, by: ScopedActor, vials: VialsToReceive): Promise<string[]> {
  const opened = await openReceipt(db, by, {
    locationId: vials.locationId,
    vendorId: null,
    reference: null,
    notes: null,
  });
  if (!opened.ok) throw new Error(opened.message);
  const expired = vials.expirationDate < new Date().toISOString().slice(0, 10);
  const added = await addReceiptLine(db, by, {
    receiptId: opened.receiptId,
    variationId: vials.variationId,
    quantity: vials.quantity,
    lot: vials.lot,
    serial: null,
    expirationDate: vials.expirationDate,
    unitCostCents: null,
    expiryConfirmed: expired,
    expiryReason: expired ? "test of an expired lot" : null,
  });
  if (!added.ok) throw new Error(added.message);
  const done = await completeReceipt(db, by, { receiptId: opened.receiptId });
  if (!done.ok) throw new Error(done.message);
  const rows = await db
    .select({ id: schema.items.id })
    .from(schema.items)
    .where(and(eq(schema.items.variationId, vials.variationId), eq(schema.items.lot, vials.lot)));
  return rows.map((r) => r.id);
}

/** The id of the variation `name` of the product `product` (by their names), as a test names it. */
export async function variationNamed(db: Database, product: string, name: string): Promise<string> {
  return (await variationFacts(db, product, name)).id;
}

/** The demo variation `name` of the product `product`: its id, units a package, GTIN and cost. */
export async function variationFacts(db: Database, product: string, name: string) {
  const [row] = await db
    .select({
      id: schema.productVariations.id,
      units: schema.productVariations.unitsPerPackage,
      gtin: schema.productVariations.gtin,
      costCents: schema.productVariations.costCents,
    })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
    .where(and(eq(schema.products.name, product), eq(schema.productVariations.name, name)));
  if (!row) throw new Error(`no variation ${product} · ${name}`);
  return { id: row.id, units: row.units, gtin: row.gtin ?? "", costCents: row.costCents ?? 0 };
}
