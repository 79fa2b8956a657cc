import { and, asc, eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { receiptLabels } from "../../app/labels/receipt-labels.server";
import { createPrinterProfile } from "../../app/printers/create.server";
import { PrinterProfileForm } from "../../app/printers/forms";
import * as printLabelsScreen from "../../app/routes/_app.receiving.$receiptId.print-labels";
import * as labelsFile from "../../app/routes/receiving.$receiptId.labels[.zpl]";
import { newLabelCode } from "../../app/stock/label-code";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { loadContext, outcome, pageRequest, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
type Code = "DTN" | "WST" | "NTH";
let loc: Record<Code, string>;
let serialized: { variationId: string; product: string; variation: string };
let bulk: { variationId: string };
const users = new Map<string, { user: Actor; cookie: string }>();

async function session(name: string) {
  const known = users.get(name);
  if (known) return known;
  const signed = await signedIn(t.db, name, env);
  users.set(name, signed);
  return signed;
}

/** `name` standing where they work: a location (by code), organization mode, or nowhere. */
async function at(name: string, where: Code | typeof ORGANIZATION | null): Promise<ScopedActor> {
  const { user } = await session(name);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : where && loc[where] };
}

async function variationOf(tracking: "serialized" | "bulk") {
  const [row] = await t.db
    .select({
      variationId: schema.productVariations.id,
      product: schema.products.name,
      variation: schema.productVariations.name,
    })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
    .where(and(eq(schema.products.tracking, tracking), eq(schema.productVariations.active, true)))
    .orderBy(asc(schema.productVariations.id))
    .limit(1);
  if (!row) throw new Error(`no ${tracking} variation in the demo catalogue`);
  return row;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  // The demo seed gives every location a default profile; these tests start from locations with none
  // (what a new clinic sees) and make the profiles they need.
  await t.db.delete(schema.printerProfiles);
  serialized = await variationOf("serialized");
  bulk = await variationOf("bulk");
});
afterAll(() => t.close());

const RECEIVED_AT = Date.parse("2026-11-05T15:00:00Z");

/**
 * A receipt at `locationId` as receiving leaves it: opened, lines added, items made for the
 * serialized lines, then completed (or left open, or cancelled).
 */
async function receipt(
  locationId: string,
  options: {
    status?: "open" | "completed" | "cancelled";
    units?: number;
    bulkLine?: boolean;
    reference?: string | null;
  } = {},
) {
  const {
    status = "completed",
    units = 3,
    bulkLine = false,
    reference = `PS-${Math.floor(Math.random() * 1e6)}`,
  } = options;
  const receiptId = uuidv7();
  const lineId = uuidv7();
  const codes = Array.from({ length: units }, () => newLabelCode());
  await t.db.run(sql`INSERT INTO receipts (id, location_id, reference, status, version, created_at)
    VALUES (${receiptId}, ${locationId}, ${reference}, 'open', 1, ${RECEIVED_AT - 3_600_000})`);
  // Lines keep their variation's units per package (migration 0009).
  await t.db.run(sql`INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, units_per_package, lot,
      expiration_date, created_at)
    SELECT ${lineId}, ${receiptId}, id, ${units}, units_per_package, 'C3521', '2027-03-31', ${RECEIVED_AT - 60_000}
    FROM product_variations WHERE id = ${serialized.variationId}`);
  if (bulkLine) {
    await t.db.run(sql`INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, units_per_package, created_at)
      SELECT ${uuidv7()}, ${receiptId}, id, 2, units_per_package, ${RECEIVED_AT - 30_000}
      FROM product_variations WHERE id = ${bulk.variationId}`);
  }
  if (status === "completed") {
    for (const code of codes) {
      await t.db.run(sql`INSERT INTO items (id, location_id, variation_id, receipt_line_id, label_code, lot,
          expiration_date, state, units_remaining, received_at, created_at)
        VALUES (${uuidv7()}, ${locationId}, ${serialized.variationId}, ${lineId}, ${code}, 'C3521', '2027-03-31',
          'sealed', 100, ${RECEIVED_AT}, ${RECEIVED_AT})`);
    }
  }
  if (status !== "open") {
    await t.db.run(sql`UPDATE receipts SET status = ${status},
      completed_at = ${status === "completed" ? RECEIVED_AT : null} WHERE id = ${receiptId}`);
  }
  return { receiptId, codes: status === "completed" ? codes : [] };
}

/** Westside's default profile (once): a 300 dpi vial label, DataMatrix only, two texts, two copies. */
let westside: Promise<void> | null = null;
function westsideZebra() {
  westside ??= (async () => {
    const created = await createPrinterProfile(t.db, await at("owner", ORGANIZATION), {
      ...PrinterProfileForm.parse({
        name: "Westside Zebra",
        output: "zpl",
        zplDelivery: "download",
        size: "1.5x0.5",
        dpi: "300",
        symbology: "datamatrix",
        fields: ["product", "expiry"],
        copies: "2",
        offsetX: "0",
        offsetY: "0",
      }),
      locationId: loc.WST,
    });
    expect(created).toMatchObject({ ok: true, isDefault: true });
  })();
  return westside;
}

describe("receiptLabels", () => {
  it("gives a completed receipt's items in the order received, with the texts a label needs", async () => {
    const { receiptId, codes } = await receipt(loc.DTN, { bulkLine: true });
    const found = await receiptLabels(t.db, await at("staff", "DTN"), receiptId);
    expect(found?.receipt).toMatchObject({ id: receiptId, status: "completed", locationId: loc.DTN });
    expect(found?.items.map((i) => i.labelCode)).toEqual(codes);
    expect(found?.items[0]).toEqual({
      labelCode: codes[0],
      product: serialized.product,
      variation: serialized.variation,
      lot: "C3521",
      expirationDate: "2027-03-31",
      receivedAt: new Date(RECEIVED_AT),
      timeZone: "America/New_York",
    });
    expect(found?.lines.map((l) => [l.tracking, Number(l.items)])).toEqual([
      ["serialized", 3],
      ["bulk", 0],
    ]);
  });

  it("reads nothing of a receipt at another location or another organization", async () => {
    const downtown = await receipt(loc.DTN);
    const north = await receipt(loc.NTH);
    const staff = await at("staff", "DTN"); // STAFF at Downtown only
    const manager = await at("manager", "WST"); // MANAGER at Westside only
    expect(await receiptLabels(t.db, staff, north.receiptId)).toBeNull();
    expect(await receiptLabels(t.db, manager, downtown.receiptId)).toBeNull();
    // STAFF at Downtown and North: a receipt is reached at its own location, the one in scope.
    expect(await receiptLabels(t.db, await at("multi", "DTN"), north.receiptId)).toBeNull();
    expect((await receiptLabels(t.db, await at("multi", "NTH"), north.receiptId))?.items).toHaveLength(3);
    expect(await receiptLabels(t.db, await at("newhire", null), downtown.receiptId)).toBeNull();

    // Another organization's receipt, even for this organization's admin.
    const organizationId = uuidv7();
    const elsewhere = uuidv7();
    await t.db.insert(schema.organizations).values({ id: organizationId, name: "Other Clinic Group" });
    await t.db.insert(schema.locations).values({ id: elsewhere, organizationId, name: "Elsewhere", code: "ELS" });
    const foreign = await receipt(elsewhere);
    expect(await receiptLabels(t.db, await at("owner", ORGANIZATION), foreign.receiptId)).toBeNull();
    expect(await receiptLabels(t.db, await at("owner", ORGANIZATION), downtown.receiptId)).not.toBeNull();
  });

  it("uses the location's default profile, and none (the built-in one) where there is no default", async () => {
    const { receiptId } = await receipt(loc.WST);
    const manager = await at("manager", "WST");
    expect((await receiptLabels(t.db, manager, receiptId))?.profile).toBeNull();
    await westsideZebra();
    expect((await receiptLabels(t.db, manager, receiptId))?.profile).toMatchObject({
      name: "Westside Zebra",
      widthTenthMm: 381,
      dpi: 300,
      copies: 2,
      fields: ["product", "expiry"],
    });
  });
});

// ---- The screens ----

const context = () => loadContext(t.db, env);

async function cookieFor(name: string, where?: Code | typeof ORGANIZATION) {
  const { cookie } = await session(name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : where && loc[where]);
}
const get = pageRequest;

const printLabels = (receiptId: string, cookie: string) =>
  outcome(() =>
    printLabelsScreen.loader({
      request: get(`/receiving/${receiptId}/print-labels`, cookie),
      context: context(),
      params: { receiptId },
    }),
  );
const zplFile = (receiptId: string, cookie: string) =>
  outcome(() =>
    labelsFile.loader({
      request: get(`/receiving/${receiptId}/labels.zpl`, cookie),
      context: context(),
      params: { receiptId },
    }),
  );

interface PageData {
  receipt: { status: string };
  profile: { name: string | null; summary: string; output: string };
  sheet: {
    copies: number;
    widthMm: number;
    labels: { labelCode: string; code128: unknown; dataMatrix: unknown; lines: { text: string }[] }[];
  } | null;
  labelCount: number;
}

describe("the print-labels screen", () => {
  it("draws one label per item with both barcodes on the built-in profile, in two round trips", async () => {
    const { receiptId, codes } = await receipt(loc.DTN, { units: 2 });
    const cookie = await cookieFor("staff");
    t.resetRoundTrips();
    const page = await printLabels(receiptId, cookie);
    expect(t.roundTrips()).toBe(2);
    expect(page.status).toBe(200);
    const data = page.data as PageData;
    expect(data.profile.name).toBeNull();
    expect(data.profile.summary).toBe(
      "57.2 × 31.8 mm, 203 dpi, browser print sheet, Code 128 and DataMatrix, 6 texts, 1 copy",
    );
    expect(data.sheet?.widthMm).toBe(57.2);
    expect(data.sheet?.labels.map((l) => l.labelCode)).toEqual(codes);
    const first = data.sheet?.labels[0];
    expect(first?.code128).not.toBeNull();
    expect(first?.dataMatrix).not.toBeNull();
    expect(first?.lines.map((l) => l.text)).toEqual([
      serialized.product,
      serialized.variation,
      "Lot C3521",
      "Exp Mar 31, 2027",
      "Rcvd Nov 5, 2026",
      codes[0],
    ]);
    expect(data.labelCount).toBe(2);
  });

  it("follows the location's default profile: its size, symbology, texts and copies", async () => {
    await westsideZebra();
    const { receiptId } = await receipt(loc.WST, { units: 3 });
    const page = await printLabels(receiptId, await cookieFor("manager"));
    const data = page.data as PageData;
    expect(data.profile).toMatchObject({ name: "Westside Zebra", output: "zpl" });
    expect(data.sheet).toMatchObject({ copies: 2, widthMm: 38.1 });
    expect(data.sheet?.labels[0]?.code128).toBeNull();
    expect(data.sheet?.labels[0]?.dataMatrix).not.toBeNull();
    expect(data.sheet?.labels[0]?.lines.map((l) => l.text)).toEqual([serialized.product, "Exp Mar 31, 2027"]);
    expect(data.labelCount).toBe(6);
  });

  it("says an open receipt has no labels yet, and a cancelled one none at all", async () => {
    const open = await receipt(loc.DTN, { status: "open" });
    const cancelled = await receipt(loc.DTN, { status: "cancelled" });
    const cookie = await cookieFor("staff");
    expect(await printLabels(open.receiptId, cookie)).toMatchObject({
      status: 200,
      data: { receipt: { status: "open" }, sheet: null },
    });
    expect(await printLabels(cancelled.receiptId, cookie)).toMatchObject({
      status: 200,
      data: { receipt: { status: "cancelled" }, sheet: null },
    });
    expect((await zplFile(open.receiptId, cookie)).status).toBe(409);
  });

  it("answers 404 for a missing receipt and for one at a location that is not the viewer's; 403 without a role", async () => {
    const north = await receipt(loc.NTH);
    const staff = await cookieFor("staff");
    expect((await printLabels(uuidv7(), staff)).status).toBe(404);
    expect((await printLabels(north.receiptId, staff)).status).toBe(404);
    expect((await zplFile(north.receiptId, staff)).status).toBe(404);
    // Multi works at North too, but reaches its receipts only while North is the location in scope.
    expect((await printLabels(north.receiptId, await cookieFor("multi", "DTN"))).status).toBe(404);
    expect((await printLabels(north.receiptId, await cookieFor("multi", "NTH"))).status).toBe(200);
    expect((await printLabels(north.receiptId, await cookieFor("owner", ORGANIZATION))).status).toBe(200);
    expect((await printLabels(north.receiptId, await cookieFor("newhire"))).status).toBe(403);
  });
});

describe("the ZPL download", () => {
  it("is a file named after the receipt with one ^XA … ^XZ format per item, laid out by the profile", async () => {
    await westsideZebra();
    const { receiptId, codes } = await receipt(loc.WST, { units: 2, reference: "INV 2041/7" });
    const answer = await zplFile(receiptId, await cookieFor("manager"));
    expect(answer.status).toBe(200);
    const response = answer.response as Response;
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="receipt-INV-2041-7-labels.zpl"');
    const zpl = await response.text();
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.match(/\^XZ/g)).toHaveLength(2);
    for (const code of codes) expect(zpl).toContain(`^BXN,6,200^FH^FD${code}^FS`);
    expect(zpl).not.toContain("^BC");
    expect(zpl).toContain("^PW450");
    expect(zpl).toContain("^PQ2");

    const unnamed = await receipt(loc.DTN, { units: 1, reference: null });
    const plain = (await zplFile(unnamed.receiptId, await cookieFor("staff"))).response as Response;
    expect(plain.headers.get("Content-Disposition")).toBe(
      `attachment; filename="receipt-${unnamed.receiptId}-labels.zpl"`,
    );
    expect(await plain.text()).toContain("^BCN,");
  });
});
