// A product of a test's own: a copy of a demo product of that tracking, with one variation, so
// nothing the demo stocks, sets a par level for or draws from shows in what the test reads.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Database, schema } from "../../app/db/client.server";

export async function ownVariation(
  db: Database,
  tracking: "serialized" | "bulk",
  name: string,
  options: { vendorId?: string; variationName?: string } = {},
): Promise<{ id: string; upp: number }> {
  const [product] = await db.select().from(schema.products).where(eq(schema.products.tracking, tracking)).limit(1);
  if (!product) throw new Error(`no ${tracking} product in the demo`);
  const [variation] = await db
    .select()
    .from(schema.productVariations)
    .where(eq(schema.productVariations.productId, product.id))
    .limit(1);
  if (!variation) throw new Error("no variation");
  const productId = randomUUID();
  const variationId = randomUUID();
  await db.insert(schema.products).values({
    ...product,
    id: productId,
    name,
    sku: null,
    ...(options.vendorId === undefined ? {} : { defaultVendorId: options.vendorId }),
  });
  await db.insert(schema.productVariations).values({
    ...variation,
    id: variationId,
    productId,
    sku: null,
    gtin: null,
    name: options.variationName ?? variation.name,
  });
  return { id: variationId, upp: variation.unitsPerPackage };
}
