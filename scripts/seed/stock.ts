// The demo stock: completed receipts at each location that brought in sealed items (each with its
// own label code and label barcode, as receiving makes them) and bulk quantities through RECEIVE
// movements of the ledger, one open receipt at Downtown to continue, and each location's printer
// profiles. Dates are relative to the seed time, so some lots are always expiring within 30 days
// and some have always expired. A few vials at Downtown are in use, with draws, as the vial verbs
// make them (deadline by the same rule, a usage entry and USE movement per draw, the activity rows).
// Runs inside the demo seed's one batch, after the catalogue.
import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type { SQLiteInsertValue } from "drizzle-orm/sqlite-core";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "../../app/db/client.server";
import { newLabelCode } from "../../app/stock/label-code";
import { type Movement, recordMovements } from "../../app/stock/ledger.server";
import { deadlineWhenStarted } from "../../app/vials/rules";
import * as schema from "../../db/schema/index";
import type { LabelField } from "../../db/schema/settings/constants";
import { CATALOG_PRODUCTS, type CATALOG_VENDORS } from "./catalog";

type LocationCode = "DTN" | "WST" | "NTH";
type VendorName = (typeof CATALOG_VENDORS)[number]["name"];

interface SeedLine {
  product: string;
  variation: string;
  /** Packages. */
  quantity: number;
  lot: string | null;
  /** Days from the seed time to the expiration date (negative: already expired); null for none. */
  expiresInDays: number | null;
  serial?: string;
}

interface SeedReceipt {
  location: LocationCode;
  vendor: VendorName;
  reference: string;
  /** Who opened and completed it (a demo user's email). */
  by: string;
  daysAgo: number;
  status: "completed" | "open";
  lines: readonly SeedLine[];
}

const line = (
  product: string,
  variation: string,
  quantity: number,
  lot: string | null,
  expiresInDays: number | null,
  serial?: string,
): SeedLine => ({ product, variation, quantity, lot, expiresInDays, serial });

const BOTOX_100 = ["Botox Cosmetic", "100 U vial"] as const;
const BOTOX_50 = ["Botox Cosmetic", "50 U vial"] as const;
const DYSPORT = ["Dysport", "300 U vial"] as const;
const XEOMIN = ["Xeomin", "100 U vial"] as const;
const JUVEDERM = ["Juvederm Ultra XC", "1 mL syringe"] as const;
const LYFT = ["Restylane Lyft", "1 mL syringe"] as const;
const KYSSE = ["Restylane Kysse", "1 mL syringe"] as const;
const LIDOCAINE = ["Lidocaine 1%", "20 mL multi-dose vial"] as const;
const SALINE = ["Bacteriostatic sodium chloride 0.9%", "30 mL multi-dose vial"] as const;
const PREP_PADS = ["Alcohol prep pads", "Box of 200"] as const;
const GAUZE = ["Gauze 2x2", "Pack of 200"] as const;
const NEEDLES = ["30G 1/2 in needles", "Box of 100"] as const;
const GLOVES = ["Nitrile exam gloves, medium", "Box of 100"] as const;
const FERULIC = ["C E Ferulic", "30 mL"] as const;
const B5_GEL = ["Hydrating B5 Gel", "30 mL"] as const;
const SPF_50 = ["Physical Fusion UV Defense SPF 50", "50 mL"] as const;

// North has no toxin in stock: its Botox and Dysport sit below their reorder points (and the
// ledger tests count on North holding none of them).
export const STOCK_RECEIPTS: readonly SeedReceipt[] = [
  {
    location: "DTN",
    vendor: "Galderma",
    reference: "GAL-INV-88412",
    by: "staff@demo.clinic",
    daysAgo: 35,
    status: "completed",
    lines: [line(...DYSPORT, 3, "1L0933", 150), line(...KYSSE, 3, "24571-1", -4), line(...LYFT, 2, "24488-2", 26)],
  },
  {
    location: "DTN",
    vendor: "Allergan Aesthetics",
    reference: "AA-PS-240117",
    by: "admin@demo.clinic",
    daysAgo: 28,
    status: "completed",
    lines: [
      line(...BOTOX_100, 6, "C8123C3", 210),
      line(...BOTOX_50, 2, "C7988A1", 21),
      line(...JUVEDERM, 5, "V41LB30118", 300),
    ],
  },
  {
    location: "DTN",
    vendor: "SkinCeuticals",
    reference: "SKC-77120",
    by: "admin@demo.clinic",
    daysAgo: 20,
    status: "completed",
    lines: [line(...FERULIC, 14, "CF4471", 540), line(...B5_GEL, 3, "B5213", 365), line(...SPF_50, 10, "UV3310", -2)],
  },
  {
    location: "DTN",
    vendor: "Henry Schein",
    reference: "HS-5530912",
    by: "staff@demo.clinic",
    daysAgo: 12,
    status: "completed",
    lines: [
      line(...PREP_PADS, 12, "PP2409", 700),
      line(...GAUZE, 9, null, null),
      line(...NEEDLES, 4, "N3012", 900),
      line(...GLOVES, 12, null, null),
      line(...LIDOCAINE, 3, "HL-88213", 400),
      line(...SALINE, 2, "HB-10571", 9),
    ],
  },
  {
    location: "DTN",
    vendor: "Merz Aesthetics",
    reference: "MZ-20931",
    by: "staff@demo.clinic",
    daysAgo: 0,
    status: "open",
    lines: [line(...XEOMIN, 3, "XM4471", 365), line(...XEOMIN, 1, "XM4502", 400, "XS00912")],
  },
  {
    location: "WST",
    vendor: "Allergan Aesthetics",
    reference: "AA-PS-240302",
    by: "manager@demo.clinic",
    daysAgo: 30,
    status: "completed",
    lines: [
      line(...BOTOX_100, 7, "C8123C3", 210),
      line(...BOTOX_50, 2, "C7702B9", -3),
      line(...JUVEDERM, 6, "V41LB30207", 28),
    ],
  },
  {
    location: "WST",
    vendor: "Galderma",
    reference: "GAL-INV-88590",
    by: "manager@demo.clinic",
    daysAgo: 25,
    status: "completed",
    lines: [line(...DYSPORT, 3, "1L1012", 19), line(...LYFT, 4, "24488-2", 26), line(...KYSSE, 4, "24602-1", 330)],
  },
  {
    location: "WST",
    vendor: "Merz Aesthetics",
    reference: "MZ-INV-20417",
    by: "manager@demo.clinic",
    daysAgo: 18,
    status: "completed",
    lines: [line(...XEOMIN, 1, "XM4390", 290, "XS00871"), line(...XEOMIN, 2, "XM4390", 290)],
  },
  {
    location: "WST",
    vendor: "Henry Schein",
    reference: "HS-5531877",
    by: "manager@demo.clinic",
    daysAgo: 8,
    status: "completed",
    lines: [
      line(...PREP_PADS, 6, "PP2409", 700),
      line(...GAUZE, 5, null, null),
      line(...NEEDLES, 4, "N3012", 900),
      line(...GLOVES, 6, null, null),
      line(...LIDOCAINE, 2, "HL-88213", 400),
      line(...SALINE, 4, "HB-10571", 9),
    ],
  },
  {
    location: "NTH",
    vendor: "Galderma",
    reference: "GAL-INV-88644",
    by: "multi@demo.clinic",
    daysAgo: 50,
    status: "completed",
    lines: [line(...LYFT, 2, "24310-4", 120), line(...KYSSE, 2, "24190-3", -1)],
  },
  {
    location: "NTH",
    vendor: "Allergan Aesthetics",
    reference: "AA-PS-240355",
    by: "multi@demo.clinic",
    daysAgo: 22,
    status: "completed",
    lines: [line(...JUVEDERM, 4, "V41LB30207", 28)],
  },
  {
    location: "NTH",
    vendor: "SkinCeuticals",
    reference: "SKC-77304",
    by: "multi@demo.clinic",
    daysAgo: 15,
    status: "completed",
    lines: [line(...SPF_50, 6, "UV3342", 400)],
  },
  {
    location: "NTH",
    vendor: "Henry Schein",
    reference: "HS-5532104",
    by: "multi@demo.clinic",
    daysAgo: 6,
    status: "completed",
    lines: [
      line(...LIDOCAINE, 2, "HL-88102", 200),
      line(...SALINE, 3, "HB-10490", 60),
      line(...PREP_PADS, 4, "PP2409", 700),
      line(...GAUZE, 3, null, null),
      line(...NEEDLES, 3, "N3012", 900),
      line(...GLOVES, 4, null, null),
    ],
  },
];

interface SeedDraw {
  /** Base units. */
  units: number;
  hoursAgo: number;
  provider: string;
  patientRef: string;
}

interface SeedInUse {
  product: string;
  variation: string;
  /** A lot received at Downtown above. */
  lot: string;
  by: string;
  startedHoursAgo: number;
  draws: readonly SeedDraw[];
}

/** Vials open at Downtown, each started by its first draw (within its beyond-use hours, so still usable). */
export const IN_USE_AT_DOWNTOWN: readonly SeedInUse[] = [
  {
    product: DYSPORT[0],
    variation: DYSPORT[1],
    lot: "1L0933",
    by: "staff@demo.clinic",
    startedHoursAgo: 3,
    draws: [
      { units: 60, hoursAgo: 3, provider: "Dr. Rivera", patientRef: "CH-10482" },
      { units: 75, hoursAgo: 1, provider: "Dr. Rivera", patientRef: "CH-10517" },
    ],
  },
  {
    product: LIDOCAINE[0],
    variation: LIDOCAINE[1],
    lot: "HL-88213",
    by: "multi@demo.clinic",
    startedHoursAgo: 5 * 24,
    draws: [
      { units: 20, hoursAgo: 5 * 24, provider: "NP Chen", patientRef: "CH-10233" },
      { units: 15, hoursAgo: 30, provider: "NP Chen", patientRef: "CH-10391" },
    ],
  },
  {
    product: JUVEDERM[0],
    variation: JUVEDERM[1],
    lot: "V41LB30118",
    by: "staff@demo.clinic",
    startedHoursAgo: 1,
    draws: [{ units: 50, hoursAgo: 1, provider: "Dr. Rivera", patientRef: "CH-10517" }],
  },
];

const VIAL_LABEL_FIELDS: LabelField[] = ["product", "variation", "lot", "expiry", "received", "label_code"];

/** Every location prints on 2.25 × 1.25 in stickers from the browser; Downtown also has a Zebra. */
export const PRINTER_PROFILES = {
  default: {
    name: "Vial labels 2.25 × 1.25 in",
    output: "browser",
    widthTenthMm: 572,
    heightTenthMm: 318,
    dpi: 203,
    symbology: "both",
    fields: VIAL_LABEL_FIELDS,
    isDefault: true,
  },
  zebraAtDowntown: {
    name: "Zebra ZD421 2 × 1 in",
    output: "zpl",
    zplDelivery: "download",
    widthTenthMm: 508,
    heightTenthMm: 254,
    dpi: 203,
    symbology: "both",
    fields: VIAL_LABEL_FIELDS,
    isDefault: false,
  },
} as const;

type AnyLibsqlDatabase = LibSQLDatabase<typeof schema>;
type Statement = BatchItem<"sqlite">;

export interface StockSeedTarget {
  organizationId: string;
  /** The demo locations' ids by code (DTN, WST, NTH). */
  locationIds: ReadonlyMap<string, string>;
  /** The demo users' ids by email. */
  userIds: ReadonlyMap<string, string>;
  /** The seed time expiration dates and receipt times count from. */
  now?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Stock seed: ${what} is missing`);
  return value;
}

/** YYYY-MM-DD (UTC) `days` after `from`. */
function dateAfter(from: Date, days: number): string {
  return new Date(from.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

function catalogVariation(product: string, variation: string) {
  const p = required(
    CATALOG_PRODUCTS.find((candidate) => candidate.name === product),
    product,
  );
  const v = required(
    p.variations.find((candidate) => candidate.name === variation),
    `${product} · ${variation}`,
  );
  return {
    tracking: p.tracking,
    gtin: v.gtin,
    unitsPerPackage: v.unitsPerPackage,
    costCents: v.costCents,
    beyondUseHours: p.beyondUseHours,
  };
}

/**
 * The statements of the demo stock, for the demo seed's one batch (after the catalogue's: they
 * find variations by GTIN and vendors by name inside the organization). Receipts are written open,
 * given their lines, then completed, as the receipts' triggers require.
 */
export function stockSeedStatements(db: AnyLibsqlDatabase, target: StockSeedTarget): [Statement, ...Statement[]] {
  const { organizationId, locationIds, userIds } = target;
  const now = target.now ?? new Date();
  // The ledger builds its statements with the app's client type; the seed's client is the same drizzle.
  const ledgerDb = db as unknown as Database;
  const locationOf = (code: LocationCode) => required(locationIds.get(code), `location ${code}`);
  const userOf = (email: string) => required(userIds.get(email), `user ${email}`);
  const variationOf = (gtin: string): SQL =>
    sql`(SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE p.organization_id = ${organizationId} AND v.gtin = ${gtin})`;
  const vendorOf = (name: string): SQL =>
    sql`(SELECT id FROM vendors WHERE organization_id = ${organizationId} AND name = ${name})`;

  const receipts: SQLiteInsertValue<typeof schema.receipts>[] = [];
  const lines: SQLiteInsertValue<typeof schema.receiptLines>[] = [];
  const items: SQLiteInsertValue<typeof schema.items>[] = [];
  const labelBarcodes: (typeof schema.barcodes.$inferInsert)[] = [];
  const movements: Movement[] = [];
  const activity: (typeof schema.activityLog.$inferInsert)[] = [];
  const completed: { id: string; completedAt: Date; completedBy: string }[] = [];
  const usage: SQLiteInsertValue<typeof schema.usageEntries>[] = [];
  /** The sealed items made, to open some of them below. */
  const made: {
    item: SQLiteInsertValue<typeof schema.items>;
    id: string;
    locationId: string;
    variationId: SQL;
    expirationDate: string | null;
    location: LocationCode;
    line: SeedLine;
  }[] = [];

  for (const receipt of STOCK_RECEIPTS) {
    const receiptId = uuidv7();
    const locationId = locationOf(receipt.location);
    const userId = userOf(receipt.by);
    const receivedAt = new Date(now.getTime() - receipt.daysAgo * DAY_MS);
    const openedAt = new Date(receivedAt.getTime() - 45 * 60 * 1000);
    receipts.push({
      id: receiptId,
      locationId,
      vendorId: vendorOf(receipt.vendor),
      reference: receipt.reference,
      status: "open",
      openedBy: userId,
      createdAt: openedAt,
    });
    let itemCount = 0;
    let units = 0;
    receipt.lines.forEach((l, index) => {
      const catalog = catalogVariation(l.product, l.variation);
      const variationId = variationOf(catalog.gtin);
      const lineId = uuidv7();
      const expirationDate = l.expiresInDays === null ? null : dateAfter(now, l.expiresInDays);
      lines.push({
        id: lineId,
        receiptId,
        variationId,
        quantity: l.quantity,
        unitsPerPackage: catalog.unitsPerPackage,
        lot: l.lot,
        serial: l.serial ?? null,
        expirationDate,
        unitCostCents: catalog.costCents,
        // Lines keep the order they were added in.
        createdAt: new Date(openedAt.getTime() + (index + 1) * 60 * 1000),
      });
      if (receipt.status !== "completed") return;
      const reference = { type: "receipt" as const, id: receiptId };
      units += l.quantity * catalog.unitsPerPackage;
      if (catalog.tracking === "bulk") {
        movements.push({
          locationId,
          variationId,
          quantity: l.quantity * catalog.unitsPerPackage,
          type: "RECEIVE",
          lot: l.lot,
          reference,
          userId,
          occurredAt: receivedAt,
        });
        return;
      }
      // A serialized product: one sealed item per package, its label code also a scannable barcode.
      for (let n = 0; n < l.quantity; n++) {
        const itemId = uuidv7();
        const labelCode = newLabelCode();
        itemCount++;
        const sealed: SQLiteInsertValue<typeof schema.items> = {
          id: itemId,
          locationId,
          variationId,
          receiptLineId: lineId,
          labelCode,
          lot: l.lot,
          serial: l.serial ?? null,
          expirationDate,
          state: "sealed",
          unitsRemaining: catalog.unitsPerPackage,
          costCents: catalog.costCents,
          receivedAt,
          createdAt: receivedAt,
        };
        items.push(sealed);
        made.push({
          item: sealed,
          id: itemId,
          locationId,
          variationId,
          expirationDate,
          location: receipt.location,
          line: l,
        });
        labelBarcodes.push({ code: labelCode, itemId, createdAt: receivedAt });
        movements.push({
          locationId,
          variationId,
          itemId,
          quantity: catalog.unitsPerPackage,
          type: "RECEIVE",
          lot: l.lot,
          reference,
          userId,
          occurredAt: receivedAt,
        });
      }
    });
    if (receipt.status === "completed") {
      completed.push({ id: receiptId, completedAt: receivedAt, completedBy: userId });
      activity.push({
        at: receivedAt,
        userId,
        locationId,
        action: "receive_vials",
        entity: "receipt",
        entityId: receiptId,
        summary: {
          reference: receipt.reference,
          vendor: receipt.vendor,
          lines: receipt.lines.length,
          items: itemCount,
          units,
        },
      });
    }
  }

  // Open a few of Downtown's vials, each with its draws, as drawUnits would have: the first draw
  // starts it (deadline by the verbs' own rule), each draw a usage entry and its USE movement.
  for (const open of IN_USE_AT_DOWNTOWN) {
    const found = made.find(
      (m) =>
        m.location === "DTN" &&
        m.item.state === "sealed" &&
        m.line.product === open.product &&
        m.line.variation === open.variation &&
        m.line.lot === open.lot,
    );
    const {
      item,
      id: itemId,
      locationId,
      variationId,
      expirationDate,
    } = required(found, `a sealed ${open.product} of lot ${open.lot} at Downtown`);
    const lot = open.lot;
    const catalog = catalogVariation(open.product, open.variation);
    const userId = userOf(open.by);
    const startedAt = new Date(now.getTime() - open.startedHoursAgo * 60 * 60 * 1000);
    const expiresAt = required(
      deadlineWhenStarted({ expirationDate, beyondUseHours: catalog.beyondUseHours }, startedAt) ?? undefined,
      `the deadline of ${open.product}`,
    );
    const drawn = open.draws.reduce((total, d) => total + d.units, 0);
    Object.assign(item, {
      state: "in_use",
      startedAt,
      expiresAt,
      unitsRemaining: catalog.unitsPerPackage - drawn,
      updatedAt: now,
    });
    const base = { userId, locationId, entity: "item", entityId: itemId };
    activity.push({ ...base, at: startedAt, action: "start_vial", summary: { startedAt, expiresAt, by: "draw" } });
    for (const draw of open.draws) {
      const usedAt = new Date(now.getTime() - draw.hoursAgo * 60 * 60 * 1000);
      const usageId = uuidv7();
      usage.push({
        id: usageId,
        itemId,
        locationId,
        variationId,
        lot,
        units: draw.units,
        provider: draw.provider,
        patientRef: draw.patientRef,
        usedAt,
        userId,
        createdAt: usedAt,
      });
      movements.push({
        locationId,
        variationId,
        itemId,
        lot,
        quantity: -draw.units,
        type: "USE",
        reference: { type: "usage", id: usageId },
        userId,
        occurredAt: usedAt,
      });
      activity.push({
        ...base,
        at: usedAt,
        action: "draw_units",
        summary: { usageId, units: draw.units, provider: draw.provider, patientRef: draw.patientRef },
      });
    }
  }

  const profiles: (typeof schema.printerProfiles.$inferInsert)[] = (["DTN", "WST", "NTH"] as const).map((code) => ({
    ...PRINTER_PROFILES.default,
    fields: [...PRINTER_PROFILES.default.fields],
    locationId: locationOf(code),
    createdAt: now,
  }));
  profiles.push({
    ...PRINTER_PROFILES.zebraAtDowntown,
    fields: [...PRINTER_PROFILES.zebraAtDowntown.fields],
    locationId: locationOf("DTN"),
    createdAt: now,
  });

  return [
    db.insert(schema.receipts).values(receipts),
    db.insert(schema.receiptLines).values(lines),
    db.insert(schema.items).values(items),
    db.insert(schema.barcodes).values(labelBarcodes),
    db.insert(schema.usageEntries).values(usage),
    ...recordMovements(ledgerDb, movements as [Movement, ...Movement[]]),
    // Completed after their lines: a closed receipt takes no more lines.
    ...completed.map((c) =>
      db
        .update(schema.receipts)
        .set({ status: "completed", completedAt: c.completedAt, completedBy: c.completedBy })
        .where(eq(schema.receipts.id, c.id)),
    ),
    db.insert(schema.activityLog).values(activity),
    db.insert(schema.printerProfiles).values(profiles),
  ];
}
