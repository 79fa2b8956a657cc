// The demo catalogue of an aesthetic clinic chain: vendors, products with their packages (GTINs
// and catalogue barcodes), par levels per location, and services with their recipes. Names are
// stable: tests and the README name them. GTINs are made up, with valid GS1 check digits.
import type { BatchItem } from "drizzle-orm/batch";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { v7 as uuidv7 } from "uuid";
import * as schema from "../../db/schema/index";

type LocationCode = "DTN" | "WST" | "NTH";
/** Packages: [par, reorder point, max]. */
type Par = readonly [number, number, number];

interface SeedVariation {
  name: string;
  sku: string;
  gtin: string;
  unitsPerPackage: number;
  costCents: number;
  /** A catalogue barcode (spec section 5 rules) printed on the clinic's shelf labels. */
  barcode?: string;
  par: Partial<Record<LocationCode, Par>>;
}

interface SeedProduct {
  name: string;
  sku: string;
  category: string;
  manufacturer: string;
  vendor: string;
  tracking: (typeof schema.TRACKING_MODES)[number];
  baseUnit: string;
  unitScale: 1 | 10 | 100 | 1000;
  beyondUseHours: number | null;
  storage: (typeof schema.STORAGE_CONDITIONS)[number];
  /** A controlled substance: wasting its units needs a witness. */
  controlled?: boolean;
  costCents: number;
  priceCents: number | null;
  variations: readonly SeedVariation[];
}

interface SeedService {
  name: string;
  code: string;
  category: string;
  priceCents: number;
  durationMinutes: number;
  active: boolean;
  /** [product, variation, quantity in base units]. */
  recipe: readonly (readonly [string, string, number])[];
}

export const CATALOG_VENDORS = [
  {
    name: "Allergan Aesthetics",
    accountNumber: "AA-204517",
    contactName: "Jordan Ellis",
    email: "orders@allergan-aesthetics.example",
    phone: "+1 800 555 0142",
    leadTimeDays: 3,
    notes: "Order by 3 pm ET for next-day delivery. Toxins ship cold with an ice pack.",
  },
  {
    name: "Galderma",
    accountNumber: "GAL-88213",
    contactName: "Priya Raman",
    email: "aesthetics.orders@galderma.example",
    phone: "+1 800 555 0177",
    leadTimeDays: 4,
    notes: "Restylane and Dysport. Minimum order $500.",
  },
  {
    name: "Merz Aesthetics",
    accountNumber: "MZ-55120",
    contactName: "Tom Becker",
    email: "customerservice@merz-aesthetics.example",
    phone: "+1 844 555 0199",
    leadTimeDays: 5,
    notes: null,
  },
  {
    name: "Henry Schein",
    accountNumber: "HS-1029384",
    contactName: "Dana Ortiz",
    email: "dana.ortiz@henryschein.example",
    phone: "+1 800 555 0110",
    leadTimeDays: 2,
    notes: "Medical supplies. Free shipping over $150.",
  },
  {
    name: "SkinCeuticals",
    accountNumber: "SKC-30077",
    contactName: "Claire Dubois",
    email: "professional@skinceuticals.example",
    phone: "+1 800 555 0163",
    leadTimeDays: 7,
    notes: "Retail skincare; professional pricing on account.",
  },
] as const;

type VendorName = (typeof CATALOG_VENDORS)[number]["name"];

const TOXIN = {
  category: "Neurotoxin",
  tracking: "serialized",
  baseUnit: "U",
  unitScale: 1,
  beyondUseHours: 24, // once reconstituted
  storage: "refrigerated",
  priceCents: null,
} as const;

const FILLER = {
  category: "Dermal filler",
  tracking: "serialized",
  baseUnit: "mL",
  unitScale: 100,
  beyondUseHours: null, // single-patient syringe: its expiration date is its limit
  storage: "room",
  priceCents: null,
} as const;

const MULTI_DOSE_VIAL = {
  category: "Medication",
  tracking: "serialized",
  baseUnit: "mL",
  unitScale: 10,
  beyondUseHours: 672, // 28 days once punctured
  storage: "room",
  priceCents: null,
} as const;

const SUPPLY = {
  category: "Supplies",
  manufacturer: "Henry Schein",
  vendor: "Henry Schein",
  tracking: "bulk",
  baseUnit: "each",
  unitScale: 1,
  beyondUseHours: null,
  storage: "room",
  priceCents: null,
} as const;

const RETAIL = {
  category: "Retail skincare",
  manufacturer: "SkinCeuticals",
  vendor: "SkinCeuticals",
  tracking: "bulk",
  baseUnit: "each",
  unitScale: 1,
  beyondUseHours: null,
  storage: "room",
} as const;

export const CATALOG_PRODUCTS: readonly (SeedProduct & { vendor: VendorName })[] = [
  {
    ...TOXIN,
    name: "Botox Cosmetic",
    sku: "BTX-COS",
    manufacturer: "Allergan",
    vendor: "Allergan Aesthetics",
    costCents: 62500,
    variations: [
      {
        name: "50 U vial",
        sku: "BTX-COS-50",
        gtin: "00300239210509",
        unitsPerPackage: 50,
        costCents: 31500,
        barcode: "BTX-50U",
        par: { DTN: [4, 2, 6], WST: [3, 1, 4], NTH: [2, 1, 3] },
      },
      {
        name: "100 U vial",
        sku: "BTX-COS-100",
        gtin: "00300239211001",
        unitsPerPackage: 100,
        costCents: 62500,
        barcode: "BTX-100U",
        par: { DTN: [10, 4, 16], WST: [6, 3, 10], NTH: [4, 2, 6] },
      },
    ],
  },
  {
    ...TOXIN,
    name: "Dysport",
    sku: "DYS",
    manufacturer: "Galderma",
    vendor: "Galderma",
    costCents: 59500,
    variations: [
      {
        name: "300 U vial",
        sku: "DYS-300",
        gtin: "00302991303000",
        unitsPerPackage: 300,
        costCents: 59500,
        barcode: "DYS-300U",
        par: { DTN: [4, 2, 6], WST: [3, 1, 5], NTH: [2, 1, 3] },
      },
    ],
  },
  {
    ...TOXIN,
    name: "Xeomin",
    sku: "XEO",
    manufacturer: "Merz",
    vendor: "Merz Aesthetics",
    costCents: 52000,
    variations: [
      {
        name: "100 U vial",
        sku: "XEO-100",
        gtin: "00302591611000",
        unitsPerPackage: 100,
        costCents: 52000,
        barcode: "XEO-100U",
        par: { DTN: [4, 2, 6], WST: [2, 1, 4] },
      },
    ],
  },
  {
    ...FILLER,
    name: "Juvederm Ultra XC",
    sku: "JUV-UXC",
    manufacturer: "Allergan",
    vendor: "Allergan Aesthetics",
    costCents: 31000,
    variations: [
      {
        name: "1 mL syringe",
        sku: "JUV-UXC-1",
        gtin: "00300236110017",
        unitsPerPackage: 100,
        costCents: 31000,
        barcode: "JUV-UXC-1ML",
        par: { DTN: [8, 3, 12], WST: [6, 2, 10], NTH: [4, 2, 6] },
      },
    ],
  },
  {
    ...FILLER,
    name: "Restylane Lyft",
    sku: "RES-LYFT",
    manufacturer: "Galderma",
    vendor: "Galderma",
    costCents: 32500,
    variations: [
      {
        name: "1 mL syringe",
        sku: "RES-LYFT-1",
        gtin: "00302992710012",
        unitsPerPackage: 100,
        costCents: 32500,
        barcode: "RES-LYFT-1ML",
        par: { DTN: [6, 2, 10], WST: [4, 2, 8], NTH: [2, 1, 4] },
      },
    ],
  },
  {
    ...FILLER,
    name: "Restylane Kysse",
    sku: "RES-KYSSE",
    manufacturer: "Galderma",
    vendor: "Galderma",
    costCents: 33500,
    variations: [
      {
        name: "1 mL syringe",
        sku: "RES-KYSSE-1",
        gtin: "00302992810019",
        unitsPerPackage: 100,
        costCents: 33500,
        barcode: "RES-KYSSE-1ML",
        par: { DTN: [8, 3, 12], WST: [6, 2, 8], NTH: [3, 1, 5] },
      },
    ],
  },
  {
    ...MULTI_DOSE_VIAL,
    name: "Lidocaine 1%",
    sku: "LIDO-1",
    manufacturer: "Hospira",
    vendor: "Henry Schein",
    costCents: 450,
    variations: [
      {
        name: "20 mL multi-dose vial",
        sku: "LIDO-1-20",
        gtin: "00304094276205",
        unitsPerPackage: 200,
        costCents: 450,
        barcode: "LIDO-1PCT-20ML",
        par: { DTN: [3, 1, 5], WST: [2, 1, 3], NTH: [2, 1, 3] },
      },
    ],
  },
  {
    ...MULTI_DOSE_VIAL,
    name: "Bacteriostatic sodium chloride 0.9%",
    sku: "BNS-09",
    manufacturer: "Hospira",
    vendor: "Henry Schein",
    costCents: 350,
    variations: [
      {
        name: "30 mL multi-dose vial",
        sku: "BNS-09-30",
        gtin: "00304091966307",
        unitsPerPackage: 300,
        costCents: 350,
        par: { DTN: [6, 2, 10], WST: [4, 2, 6], NTH: [3, 1, 5] },
      },
    ],
  },
  {
    // Schedule IV, kept for sedation: what is left in an opened vial is wasted before a witness.
    ...MULTI_DOSE_VIAL,
    name: "Midazolam 1 mg/mL",
    sku: "MDZ-1",
    manufacturer: "Hospira",
    vendor: "Henry Schein",
    controlled: true,
    costCents: 1200,
    variations: [
      {
        name: "10 mL multi-dose vial",
        sku: "MDZ-1-10",
        gtin: "00304092135108",
        unitsPerPackage: 100,
        costCents: 1200,
        barcode: "MDZ-1MG-10ML",
        par: { DTN: [2, 1, 3] },
      },
    ],
  },
  {
    ...SUPPLY,
    name: "Alcohol prep pads",
    sku: "SUP-PREP",
    costCents: 425,
    variations: [
      {
        name: "Box of 200",
        sku: "SUP-PREP-200",
        gtin: "076137602202",
        unitsPerPackage: 200,
        costCents: 425,
        barcode: "PREP-PAD-200",
        par: { DTN: [10, 4, 15], WST: [6, 3, 10], NTH: [4, 2, 6] },
      },
    ],
  },
  {
    ...SUPPLY,
    name: "Gauze 2x2",
    sku: "SUP-GAUZE",
    costCents: 899,
    variations: [
      {
        name: "Pack of 200",
        sku: "SUP-GAUZE-200",
        gtin: "084399200203",
        unitsPerPackage: 200,
        costCents: 899,
        par: { DTN: [8, 3, 12], WST: [5, 2, 8], NTH: [3, 1, 5] },
      },
    ],
  },
  {
    ...SUPPLY,
    name: "30G 1/2 in needles",
    sku: "SUP-NDL-30G",
    costCents: 1450,
    variations: [
      {
        name: "Box of 100",
        sku: "SUP-NDL-30G-100",
        gtin: "038290514501",
        unitsPerPackage: 100,
        costCents: 1450,
        barcode: "NDL-30G-100",
        par: { DTN: [6, 2, 10], WST: [4, 2, 6], NTH: [3, 1, 4] },
      },
    ],
  },
  {
    ...SUPPLY,
    name: "Nitrile exam gloves, medium",
    sku: "SUP-GLV-M",
    costCents: 1099,
    variations: [
      {
        name: "Box of 100",
        sku: "SUP-GLV-M-100",
        gtin: "090777400103",
        unitsPerPackage: 100,
        costCents: 1099,
        par: { DTN: [10, 4, 16], WST: [6, 3, 10], NTH: [4, 2, 6] },
      },
    ],
  },
  {
    ...RETAIL,
    name: "C E Ferulic",
    sku: "SKC-CEF",
    costCents: 9100,
    priceCents: 18200,
    variations: [
      {
        name: "30 mL",
        sku: "SKC-CEF-30",
        gtin: "3635047310156",
        unitsPerPackage: 1,
        costCents: 9100,
        barcode: "SKC-CEF-30ML",
        par: { DTN: [12, 4, 18], WST: [8, 3, 12] },
      },
    ],
  },
  {
    ...RETAIL,
    name: "Hydrating B5 Gel",
    sku: "SKC-B5",
    costCents: 4400,
    priceCents: 8800,
    variations: [
      {
        name: "30 mL",
        sku: "SKC-B5-30",
        gtin: "3635047310224",
        unitsPerPackage: 1,
        costCents: 4400,
        par: { DTN: [10, 4, 15], WST: [6, 2, 10] },
      },
    ],
  },
  {
    ...RETAIL,
    name: "Physical Fusion UV Defense SPF 50",
    sku: "SKC-PFUV50",
    costCents: 2050,
    priceCents: 4100,
    variations: [
      {
        name: "50 mL",
        sku: "SKC-PFUV50-50",
        gtin: "3635047320506",
        unitsPerPackage: 1,
        costCents: 2050,
        par: { DTN: [12, 5, 20], WST: [8, 3, 12], NTH: [6, 2, 8] },
      },
    ],
  },
];

// What most injections use besides the product itself.
const PREP = [
  ["Alcohol prep pads", "Box of 200", 2],
  ["Nitrile exam gloves, medium", "Box of 100", 2],
] as const;
const NEEDLE = ["30G 1/2 in needles", "Box of 100", 1] as const;
const GAUZE = ["Gauze 2x2", "Pack of 200", 4] as const;

export const CATALOG_SERVICES: readonly SeedService[] = [
  {
    name: "Glabellar lines – toxin",
    code: "TOX-GLAB",
    category: "Neurotoxin",
    priceCents: 28000,
    durationMinutes: 20,
    active: true,
    recipe: [["Botox Cosmetic", "100 U vial", 20], ...PREP, NEEDLE],
  },
  {
    name: "Crow's feet – toxin",
    code: "TOX-CROW",
    category: "Neurotoxin",
    priceCents: 33600,
    durationMinutes: 20,
    active: true,
    recipe: [["Botox Cosmetic", "100 U vial", 24], ...PREP, NEEDLE],
  },
  {
    name: "Forehead lines – toxin",
    code: "TOX-FORE",
    category: "Neurotoxin",
    priceCents: 24000,
    durationMinutes: 15,
    active: true,
    recipe: [["Xeomin", "100 U vial", 20], ...PREP, NEEDLE],
  },
  {
    name: "Glabellar lines – Dysport",
    code: "TOX-GLAB-DYS",
    category: "Neurotoxin",
    priceCents: 30000,
    durationMinutes: 20,
    active: true,
    recipe: [["Dysport", "300 U vial", 50], ...PREP, NEEDLE],
  },
  {
    name: "Lip augmentation – filler",
    code: "FIL-LIP",
    category: "Dermal filler",
    priceCents: 75000,
    durationMinutes: 45,
    active: true,
    // 1 mL of filler (scale 100) and 0.5 mL of lidocaine for a dental block (scale 10).
    recipe: [
      ["Restylane Kysse", "1 mL syringe", 100],
      ["Lidocaine 1%", "20 mL multi-dose vial", 5],
      ...PREP,
      NEEDLE,
      GAUZE,
    ],
  },
  {
    name: "Cheek augmentation – filler",
    code: "FIL-CHEEK",
    category: "Dermal filler",
    priceCents: 140000,
    durationMinutes: 60,
    active: true,
    recipe: [["Restylane Lyft", "1 mL syringe", 200], ...PREP, GAUZE],
  },
  {
    name: "Nasolabial folds – filler",
    code: "FIL-NLF",
    category: "Dermal filler",
    priceCents: 70000,
    durationMinutes: 45,
    active: true,
    recipe: [["Juvederm Ultra XC", "1 mL syringe", 100], ...PREP, GAUZE],
  },
  {
    name: "Consultation",
    code: "CONSULT",
    category: "Consultation",
    priceCents: 5000,
    durationMinutes: 30,
    active: true,
    recipe: [],
  },
  {
    name: "Lip flip – toxin",
    code: "TOX-LIPFLIP",
    category: "Neurotoxin",
    priceCents: 9800,
    durationMinutes: 15,
    active: false,
    recipe: [["Botox Cosmetic", "100 U vial", 4], ...PREP, NEEDLE],
  },
];

type AnyLibsqlDatabase = LibSQLDatabase<typeof schema>;
type Statement = BatchItem<"sqlite">;

export interface CatalogSeedTarget {
  organizationId: string;
  /** The demo locations' ids by code (DTN, WST, NTH). */
  locationIds: ReadonlyMap<string, string>;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Catalogue seed: ${what} is missing`);
  return value;
}

/** The inserts of the whole catalogue, to run in one batch (alone, or inside the demo seed's). */
export function catalogSeedStatements(db: AnyLibsqlDatabase, target: CatalogSeedTarget): [Statement, ...Statement[]] {
  const { organizationId, locationIds } = target;
  const now = new Date();
  const vendorIds = new Map(CATALOG_VENDORS.map((v) => [v.name, uuidv7()]));
  const productIds = new Map(CATALOG_PRODUCTS.map((p) => [p.name, uuidv7()]));
  const variations = CATALOG_PRODUCTS.flatMap((p) =>
    p.variations.map((v) => ({ ...v, id: uuidv7(), productId: required(productIds.get(p.name), p.name), product: p })),
  );
  const variationId = (product: string, variation: string) =>
    required(
      variations.find((v) => v.product.name === product && v.name === variation)?.id,
      `${product} · ${variation}`,
    );
  const services = CATALOG_SERVICES.map((s) => ({ ...s, id: uuidv7() }));

  return [
    db
      .insert(schema.vendors)
      .values(CATALOG_VENDORS.map((v) => ({ ...v, id: required(vendorIds.get(v.name), v.name), organizationId }))),
    db.insert(schema.products).values(
      CATALOG_PRODUCTS.map(({ variations: _, vendor, ...p }) => ({
        ...p,
        id: required(productIds.get(p.name), p.name),
        organizationId,
        defaultVendorId: required(vendorIds.get(vendor), vendor),
      })),
    ),
    db.insert(schema.productVariations).values(
      variations.map((v) => ({
        id: v.id,
        productId: v.productId,
        name: v.name,
        sku: v.sku,
        gtin: v.gtin,
        unitsPerPackage: v.unitsPerPackage,
        costCents: v.costCents,
      })),
    ),
    db
      .insert(schema.barcodes)
      .values(variations.flatMap((v) => (v.barcode ? [{ code: v.barcode, variationId: v.id }] : []))),
    db.insert(schema.parLevels).values(
      variations.flatMap((v) =>
        Object.entries(v.par).map(([code, [par, reorderPoint, max]]) => ({
          locationId: required(locationIds.get(code), `location ${code}`),
          variationId: v.id,
          par,
          reorderPoint,
          max,
          updatedAt: now,
        })),
      ),
    ),
    db.insert(schema.services).values(services.map(({ recipe: _, ...s }) => ({ ...s, organizationId }))),
    db.insert(schema.recipeLines).values(
      services.flatMap((s) =>
        s.recipe.map(([product, variation, quantity]) => ({
          serviceId: s.id,
          variationId: variationId(product, variation),
          quantity,
        })),
      ),
    ),
  ];
}

/** Writes the demo catalogue into an organization, in one batch (one transaction). */
export async function seedCatalog(db: AnyLibsqlDatabase, target: CatalogSeedTarget): Promise<void> {
  await db.batch(catalogSeedStatements(db, target));
}
