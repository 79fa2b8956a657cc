// The demo catalogue every test and local run starts from: the invariants later work relies on
// (valid GTINs and barcodes, par levels in order, recipes on active variations, beyond-use
// durations), the names tests and the README use, and that it is written all or nothing.
import { count, eq } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBarcode } from "../../app/catalog/barcode";
import { schema } from "../../app/db/client.server";
import { connect } from "../../scripts/lib/database";
import { CATALOG_PRODUCTS, CATALOG_SERVICES, CATALOG_VENDORS, seedCatalog } from "../../scripts/seed/catalog";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { createTemplateDatabase } from "../support/template";

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.close());

/** GS1 mod-10, written out here on its own: weights 3 and 1 from the right, after the check digit. */
function gs1CheckDigitHolds(gtin: string): boolean {
  const digits = [...gtin].map(Number).reverse();
  const sum = digits.slice(1).reduce((total, d, i) => total + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[0];
}

/** Everything the seed wrote, by names instead of ids, in a stable order. */
async function catalogue(db: LibSQLDatabase<typeof schema>) {
  const v = schema.productVariations;
  const p = schema.products;
  const [vendors, products, variations, barcodes, parLevels, services, recipeLines] = await db.batch([
    db.select().from(schema.vendors).orderBy(schema.vendors.name),
    db
      .select({ product: p, vendor: schema.vendors.name })
      .from(p)
      .leftJoin(schema.vendors, eq(schema.vendors.id, p.defaultVendorId))
      .orderBy(p.name),
    db.select({ variation: v, product: p.name }).from(v).innerJoin(p, eq(p.id, v.productId)).orderBy(p.name, v.name),
    db
      .select({ code: schema.barcodes.code, product: p.name, variation: v.name, itemId: schema.barcodes.itemId })
      .from(schema.barcodes)
      .innerJoin(v, eq(v.id, schema.barcodes.variationId))
      .innerJoin(p, eq(p.id, v.productId))
      .orderBy(schema.barcodes.code),
    db
      .select({ par: schema.parLevels, location: schema.locations.code, product: p.name, variation: v.name })
      .from(schema.parLevels)
      .innerJoin(schema.locations, eq(schema.locations.id, schema.parLevels.locationId))
      .innerJoin(v, eq(v.id, schema.parLevels.variationId))
      .innerJoin(p, eq(p.id, v.productId))
      .orderBy(p.name, v.name, schema.locations.code),
    db.select().from(schema.services).orderBy(schema.services.code),
    db
      .select({
        service: schema.services.code,
        quantity: schema.recipeLines.quantity,
        product: p.name,
        variation: v.name,
        variationActive: v.active,
        productActive: p.active,
      })
      .from(schema.recipeLines)
      .innerJoin(schema.services, eq(schema.services.id, schema.recipeLines.serviceId))
      .innerJoin(v, eq(v.id, schema.recipeLines.variationId))
      .innerJoin(p, eq(p.id, v.productId))
      .orderBy(schema.services.code, p.name, v.name),
  ]);
  return { vendors, products, variations, barcodes, parLevels, services, recipeLines };
}

describe("the demo catalogue", () => {
  it("has the vendors, products and services the README and later tests name", async () => {
    const c = await catalogue(t.db);
    expect(c.vendors.map((v) => v.name)).toEqual([
      "Allergan Aesthetics",
      "Galderma",
      "Henry Schein",
      "Merz Aesthetics",
      "SkinCeuticals",
    ]);
    for (const vendor of c.vendors) {
      expect(vendor).toMatchObject({
        accountNumber: expect.any(String),
        contactName: expect.any(String),
        active: true,
      });
      expect(vendor.leadTimeDays).toBeGreaterThan(0);
    }
    const variationNames = c.variations.map((v) => `${v.product} · ${v.variation.name}`);
    expect(variationNames).toEqual(
      expect.arrayContaining([
        "Botox Cosmetic · 50 U vial",
        "Botox Cosmetic · 100 U vial",
        "Dysport · 300 U vial",
        "Xeomin · 100 U vial",
        "Juvederm Ultra XC · 1 mL syringe",
        "Restylane Lyft · 1 mL syringe",
        "Restylane Kysse · 1 mL syringe",
        "Lidocaine 1% · 20 mL multi-dose vial",
        "Alcohol prep pads · Box of 200",
        "Gauze 2x2 · Pack of 200",
        "30G 1/2 in needles · Box of 100",
        "C E Ferulic · 30 mL",
        "Hydrating B5 Gel · 30 mL",
        "Physical Fusion UV Defense SPF 50 · 50 mL",
      ]),
    );
    expect(c.services.map((s) => s.code)).toEqual([
      "CONSULT",
      "FIL-CHEEK",
      "FIL-LIP",
      "FIL-NLF",
      "TOX-CROW",
      "TOX-FORE",
      "TOX-GLAB",
      "TOX-GLAB-DYS",
      "TOX-LIPFLIP",
    ]);
    expect(c.services.filter((s) => !s.active).map((s) => s.name)).toEqual(["Lip flip – toxin"]);
  });

  it("gives every variation a GTIN of a GS1 length whose mod-10 check digit holds, all different", async () => {
    const { variations } = await catalogue(t.db);
    const gtins = variations.map((v) => v.variation.gtin ?? "");
    for (const gtin of gtins) {
      expect({ gtin, length: [8, 12, 13, 14].includes(gtin.length), digits: /^\d+$/.test(gtin) }).toEqual({
        gtin,
        length: true,
        digits: true,
      });
      expect({ gtin, checkDigit: gs1CheckDigitHolds(gtin) }).toEqual({ gtin, checkDigit: true });
    }
    expect(new Set(gtins).size).toBe(gtins.length);
    // The check is not vacuous: a changed digit fails it.
    expect(gs1CheckDigitHolds("00300239211001")).toBe(true);
    expect(gs1CheckDigitHolds("00300239211002")).toBe(false);
  });

  it("prints catalogue barcodes that pass the spec's barcode rules as stored, on several variations", async () => {
    const { barcodes } = await catalogue(t.db);
    expect(barcodes.length).toBeGreaterThanOrEqual(8);
    for (const b of barcodes) {
      expect({ code: b.code, check: checkBarcode(b.code) }).toEqual({
        code: b.code,
        check: { valid: true, code: b.code },
      });
      expect(b.itemId).toBeNull();
    }
    expect(barcodes.find((b) => b.code === "BTX-100U")).toMatchObject({
      product: "Botox Cosmetic",
      variation: "100 U vial",
    });
  });

  it("sets par levels per location, different at DTN, WST and NTH, with reorder point ≤ par ≤ max", async () => {
    const { parLevels, variations } = await catalogue(t.db);
    for (const { par, location, product, variation } of parLevels) {
      const where = `${product} · ${variation} at ${location}`;
      expect({ where, ordered: par.reorderPoint <= par.par && par.par <= (par.max ?? Infinity) }).toEqual({
        where,
        ordered: true,
      });
      expect(par.reorderPoint).toBeGreaterThanOrEqual(0);
    }
    const botox = parLevels.filter((l) => l.product === "Botox Cosmetic" && l.variation === "100 U vial");
    expect(botox.map((l) => l.location)).toEqual(["DTN", "NTH", "WST"]);
    expect(new Set(botox.map((l) => l.par.par)).size).toBe(3);
    // Every variation is stocked somewhere.
    const stocked = new Set(parLevels.map((l) => `${l.product} · ${l.variation}`));
    expect(variations.filter((v) => !stocked.has(`${v.product} · ${v.variation.name}`))).toEqual([]);
  });

  it("stores toxins, fillers and vials with the units, scales and beyond-use durations they are used by", async () => {
    const { products, variations } = await catalogue(t.db);
    const toxins = products.filter((p) => p.product.category === "Neurotoxin");
    expect(toxins.map((p) => p.product.name).sort()).toEqual(["Botox Cosmetic", "Dysport", "Xeomin"]);
    for (const { product } of toxins) {
      expect(product).toMatchObject({
        tracking: "serialized",
        baseUnit: "U",
        unitScale: 1,
        beyondUseHours: 24,
        storage: "refrigerated",
      });
    }
    const units = (name: string) =>
      variations.filter((v) => v.product === name).map((v) => v.variation.unitsPerPackage);
    expect(units("Botox Cosmetic").sort((a, b) => a - b)).toEqual([50, 100]);
    expect(units("Dysport")).toEqual([300]);
    expect(units("Xeomin")).toEqual([100]);

    for (const name of ["Juvederm Ultra XC", "Restylane Lyft", "Restylane Kysse"]) {
      expect(products.find((p) => p.product.name === name)?.product).toMatchObject({
        tracking: "serialized",
        baseUnit: "mL",
        unitScale: 100,
      });
      expect(units(name)).toEqual([100]); // 1 mL at scale 100
    }
    expect(products.find((p) => p.product.name === "Lidocaine 1%")?.product).toMatchObject({
      tracking: "serialized",
      baseUnit: "mL",
      unitScale: 10,
      beyondUseHours: 672,
    });
    expect(units("Lidocaine 1%")).toEqual([200]); // 20 mL at scale 10
    for (const name of ["Alcohol prep pads", "Gauze 2x2", "30G 1/2 in needles"]) {
      expect(products.find((p) => p.product.name === name)?.product).toMatchObject({
        tracking: "bulk",
        baseUnit: "each",
      });
    }
    expect(units("Alcohol prep pads")).toEqual([200]);
    // Retail has a shelf price; every product a vendor and a cost in cents.
    for (const { product, vendor } of products) {
      expect({ name: product.name, vendor: typeof vendor, cost: Number.isInteger(product.costCents) }).toEqual({
        name: product.name,
        vendor: "string",
        cost: true,
      });
      if (product.category === "Retail skincare") expect(product.priceCents).toBeGreaterThan(product.costCents ?? 0);
    }
  });

  it("gives services recipes in base units, every line on an active variation of an active product", async () => {
    const { recipeLines, services } = await catalogue(t.db);
    for (const line of recipeLines) {
      expect({ line, usable: line.variationActive && line.productActive }).toEqual({ line, usable: true });
      expect(line.quantity).toBeGreaterThan(0);
    }
    const recipe = (code: string) =>
      Object.fromEntries(
        recipeLines.filter((l) => l.service === code).map((l) => [`${l.product} · ${l.variation}`, l.quantity]),
      );
    expect(recipe("TOX-GLAB")).toEqual({
      "Botox Cosmetic · 100 U vial": 20,
      "Alcohol prep pads · Box of 200": 2,
      "Nitrile exam gloves, medium · Box of 100": 2,
      "30G 1/2 in needles · Box of 100": 1,
    });
    expect(recipe("TOX-CROW")).toMatchObject({ "Botox Cosmetic · 100 U vial": 24 });
    expect(recipe("FIL-LIP")).toMatchObject({
      "Restylane Kysse · 1 mL syringe": 100, // 1 mL
      "Lidocaine 1% · 20 mL multi-dose vial": 5, // 0.5 mL
      "Alcohol prep pads · Box of 200": 2,
      "30G 1/2 in needles · Box of 100": 1,
    });
    expect(recipe("FIL-CHEEK")).toMatchObject({ "Restylane Lyft · 1 mL syringe": 200 }); // 2 mL
    expect(recipe("CONSULT")).toEqual({});
    expect(services.find((s) => s.code === "FIL-LIP")).toMatchObject({
      name: "Lip augmentation – filler",
      priceCents: 75000,
      durationMinutes: 45,
      version: 1,
    });
  });

  it("writes the same content every time (only ids differ)", async () => {
    const template = await createTemplateDatabase();
    const other = connect(`file:${template.path}`);
    try {
      const withoutIds = (c: Awaited<ReturnType<typeof catalogue>>) =>
        JSON.parse(
          JSON.stringify(c, (key, value) => (/^(id|.*Id|createdAt|updatedAt)$/.test(key) ? undefined : value)),
        );
      const here = withoutIds(await catalogue(t.db));
      expect(withoutIds(await catalogue(other))).toEqual(here);
      expect(here.products).toHaveLength(CATALOG_PRODUCTS.length);
      expect(here.services).toHaveLength(CATALOG_SERVICES.length);
      expect(here.vendors).toHaveLength(CATALOG_VENDORS.length);
    } finally {
      other.$client.close();
      template.remove();
    }
  });

  it("is written all or nothing: a failure part-way leaves no trace", async () => {
    const organizationId = uuidv7();
    await t.db.insert(schema.organizations).values({ id: organizationId, name: "Second chain" });
    const { loc } = await demoLocations(t.db);
    // The vendors and products would fit this new organization, but the GTINs are taken: all of it rolls back.
    await expect(seedCatalog(t.db, { organizationId, locationIds: new Map(Object.entries(loc)) })).rejects.toThrow(
      /UNIQUE constraint failed: product_variations\.gtin/,
    );
    const [vendors] = await t.db
      .select({ n: count() })
      .from(schema.vendors)
      .where(eq(schema.vendors.organizationId, organizationId));
    expect(vendors?.n).toBe(0);
  });
});
