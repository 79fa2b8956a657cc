// What print-labels reads, in one batch: a receipt (reached as every receipt is, at the location
// in scope with READ_INVENTORY there: app/access/scope.server), its lines, the items it created (one label each) and the
// default printer profile of the receipt's location. A receipt out of reach reads as missing.
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import { idsReached } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import type { LabelProfile } from "./options";
import type { LabelItem } from "./texts";

const r = schema.receipts;
const rl = schema.receiptLines;
const i = schema.items;
const l = schema.locations;
const pv = schema.productVariations;
const p = schema.products;
const vendor = schema.vendors;
const pp = schema.printerProfiles;

/** The receipt `receiptId`, if the actor reaches it: the add-products screen's rule, so both answer alike. */
function reachable(actor: ScopedActor, receiptId: string): SQL | undefined {
  return and(eq(r.id, receiptId), sql`${r.id} IN ${idsReached("receipts", actor, "READ_INVENTORY")}`);
}

export async function receiptLabels(db: Database, actor: ScopedActor, receiptId: string) {
  const where = reachable(actor, receiptId);
  const [receipts, lines, items, profiles] = await db.batch([
    db
      .select({
        id: r.id,
        status: r.status,
        reference: r.reference,
        createdAt: r.createdAt,
        completedAt: r.completedAt,
        locationId: r.locationId,
        locationName: l.name,
        locationCode: l.code,
        timezone: l.timezone,
        vendor: vendor.name,
      })
      .from(r)
      .innerJoin(l, eq(l.id, r.locationId))
      .leftJoin(vendor, eq(vendor.id, r.vendorId))
      .where(where),
    db
      .select({
        id: rl.id,
        product: p.name,
        variation: pv.name,
        tracking: p.tracking,
        quantity: rl.quantity,
        lot: rl.lot,
        expirationDate: rl.expirationDate,
        items: sql<number>`(SELECT count(*) FROM items AS made WHERE made.receipt_line_id = ${rl.id})`,
      })
      .from(rl)
      .innerJoin(r, eq(r.id, rl.receiptId))
      .innerJoin(pv, eq(pv.id, rl.variationId))
      .innerJoin(p, eq(p.id, pv.productId))
      .where(where)
      .orderBy(asc(rl.createdAt), asc(rl.id)),
    db
      .select({
        labelCode: i.labelCode,
        product: p.name,
        variation: pv.name,
        lot: i.lot,
        expirationDate: i.expirationDate,
        receivedAt: i.receivedAt,
        timeZone: l.timezone,
      })
      .from(i)
      .innerJoin(rl, eq(rl.id, i.receiptLineId))
      .innerJoin(r, eq(r.id, rl.receiptId))
      .innerJoin(l, eq(l.id, r.locationId))
      .innerJoin(pv, eq(pv.id, i.variationId))
      .innerJoin(p, eq(p.id, pv.productId))
      .where(where)
      .orderBy(asc(rl.createdAt), asc(rl.id), asc(i.id)),
    db
      .select({
        id: pp.id,
        name: pp.name,
        output: pp.output,
        zplDelivery: pp.zplDelivery,
        widthTenthMm: pp.widthTenthMm,
        heightTenthMm: pp.heightTenthMm,
        dpi: pp.dpi,
        symbology: pp.symbology,
        fields: pp.fields,
        copies: pp.copies,
        offsetXTenthMm: pp.offsetXTenthMm,
        offsetYTenthMm: pp.offsetYTenthMm,
      })
      .from(pp)
      .innerJoin(r, eq(r.locationId, pp.locationId))
      .where(and(where, eq(pp.isDefault, true), eq(pp.active, true))),
  ]);
  const receipt = receipts[0];
  if (!receipt) return null;
  const profile = profiles[0] ? (profiles[0] as LabelProfile & { id: string; name: string }) : null;
  return { receipt, lines, items: items as LabelItem[], profile };
}

export type ReceiptLabels = NonNullable<Awaited<ReturnType<typeof receiptLabels>>>;

/** What the label file of a receipt is called: its packing slip number if it has one, else its id. */
export function receiptFileName(receipt: { id: string; reference: string | null }): string {
  return `receipt-${receipt.reference?.trim() || receipt.id}-labels`;
}
