// The catalogue against a real database: products, variations, barcodes and par levels are
// changed by their verbs with the activity row in the same batch (one round trip, nothing written
// on a refusal), stale edits are refused, uniqueness clashes name their owner, and the product
// screens read everything in one round trip beyond the session.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { count, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { saveLocationChoice } from "../../app/access/location-choice.server";
import { ORGANIZATION } from "../../app/access/permissions";
import { commitSessionCookie, getSessionUser, type SessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { BARCODE_MESSAGES } from "../../app/catalog/barcode";
import { formatBeyondUse, formatMoney, parseScaled } from "../../app/catalog/format";
import { GTIN_MESSAGES, gtinCandidates, gtinCheckDigit, gtinProblem } from "../../app/catalog/gtin";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { archiveProduct, restoreProduct } from "../../app/products/archive.server";
import { addBarcode, findByCode, removeBarcode } from "../../app/products/barcodes.server";
import { describeChange } from "../../app/products/changes";
import { createProduct } from "../../app/products/create.server";
import {
  ParLevelForm,
  ProductEditForm,
  ProductForm,
  parseBarcodeField,
  VariationEditForm,
  VariationForm,
} from "../../app/products/forms";
import { listProducts, listVariations } from "../../app/products/list.server";
import { clearParLevel, setParLevel } from "../../app/products/par-levels.server";
import { updateProduct } from "../../app/products/update.server";
import {
  archiveVariation,
  createVariation,
  restoreVariation,
  updateVariation,
} from "../../app/products/variations.server";
import { loader as productsLoader } from "../../app/routes/_app.products._index";
import { action as productAction, loader as productLoader } from "../../app/routes/_app.products.$productId";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials } from "../support/receive";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
/** Suffix for SKUs: the demo catalogue is seeded too. */
const RUN = uuidv7().slice(-6).toUpperCase();
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
let vendorId: string;
let archivedVendorId: string;

type Email = "owner" | "admin" | "manager" | "staff" | "multi";
const sessions = new Map<Email, { user: SessionUser; cookie: string }>();

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  vendorId = uuidv7();
  archivedVendorId = uuidv7();
  await t.db.insert(schema.vendors).values([
    { id: vendorId, organizationId, name: "Allergan Direct" },
    { id: archivedVendorId, organizationId, name: "Old Supplier", active: false },
  ]);
  for (const email of ["owner", "admin", "manager", "staff", "multi"] as const) {
    const result = await signIn(t.db, { email: `${email}@demo.clinic`, password: DEMO_PASSWORD, userAgent: "vitest" });
    if (!result.ok) throw new Error(result.message);
    const cookie =
      (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0] ?? "";
    const user = await getSessionUser(env, t.db, new Request("http://clinic.test/", { headers: { Cookie: cookie } }));
    if (!user) throw new Error("signed out");
    sessions.set(email, { user, cookie });
  }
});
afterAll(() => t.close());

/** The user working at `code` (their first location if not given), as the routes build the actor. */
function as(email: Email, code?: keyof typeof loc): ScopedActor {
  const session = sessions.get(email);
  if (!session) throw new Error(email);
  const locationId = code ? loc[code] : (session.user.locationRoles[0]?.locationId ?? null);
  return { ...session.user, locationId };
}

/** Refusals change nothing: no activity row either. */
async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}
/** A successful change: one round trip, exactly one new activity row. */
async function expectOneBatch<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  t.resetRoundTrips();
  const result = await work();
  expect(t.roundTrips()).toBe(1);
  expect(await t.activityCount()).toBe(before + 1);
  return result;
}
async function product(id: string) {
  const [row] = await t.db.select().from(schema.products).where(eq(schema.products.id, id));
  return row;
}
async function variation(id: string) {
  const [row] = await t.db.select().from(schema.productVariations).where(eq(schema.productVariations.id, id));
  return row;
}

const productForm = (fields: Record<string, string> = {}) =>
  ProductForm.parse({
    name: "Botox",
    sku: "",
    category: "Neurotoxins",
    manufacturer: "Allergan",
    defaultVendorId: "",
    tracking: "serialized",
    baseUnit: "U",
    unitScale: "1",
    beyondUseHours: "24",
    storage: "refrigerated",
    cost: "420.00",
    price: "",
    ...fields,
  });
const editForm = (version: number, fields: Record<string, string> = {}) =>
  ProductEditForm.parse({ ...rawProduct(fields), version: String(version) });
function rawProduct(fields: Record<string, string> = {}) {
  return {
    name: "Botox",
    sku: "",
    category: "Neurotoxins",
    manufacturer: "Allergan",
    defaultVendorId: "",
    tracking: "serialized",
    baseUnit: "U",
    unitScale: "1",
    beyondUseHours: "24",
    storage: "refrigerated",
    cost: "420.00",
    price: "",
    ...fields,
  };
}
const variationForm = (fields: Record<string, string> = {}) =>
  VariationForm.parse({
    name: "100 U vial",
    sku: "",
    gtin: "",
    unitScale: "1",
    unitsPerPackage: "100",
    cost: "",
    ...fields,
  });

async function newProduct(fields: Record<string, string> = {}, actor = as("manager")) {
  const result = await createProduct(t.db, actor, productForm(fields));
  if (!result.ok) throw new Error(result.message);
  return result.productId;
}
async function newVariation(productId: string, fields: Record<string, string> = {}) {
  const result = await createVariation(t.db, as("manager"), { productId, ...variationForm(fields) });
  if (!result.ok) throw new Error(result.message);
  return result.variationId;
}
let gtinSerial = 100_000;
/** A fresh valid GTIN-13 for each call. */
function freshGtin() {
  const body = `400${String(gtinSerial++).padStart(9, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

describe("the product form", () => {
  it("turns money typed in a currency into exact integer cents", () => {
    expect(productForm({ cost: "0.29", price: "19.99" })).toMatchObject({ cost: 29, price: 1999 });
    expect(productForm({ cost: "$1,234.5", price: "1.10" })).toMatchObject({ cost: 123450, price: 110 });
    expect(productForm({ cost: " 12 ", price: "0.07" })).toMatchObject({ cost: 1200, price: 7 });
    // 0.1 + 0.2 style float errors cannot happen: every cent amount round-trips.
    for (let cents = 0; cents < 100_000; cents += 7) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
      expect(parseScaled(text, 100)).toBe(cents);
    }
    const messages = ProductForm.safeParse(rawProduct({ cost: "12.345", price: "-3" })).error?.issues.map((i) => [
      i.path[0],
      i.message,
    ]);
    expect(messages).toEqual([
      ["cost", "Enter the cost as an amount like 12.50 (at most two decimals)."],
      ["price", "Enter the price as an amount like 12.50 (at most two decimals)."],
    ]);
  });

  it("keeps optional fields empty as null and says what is wrong with the rest", () => {
    expect(productForm({ sku: "  ", manufacturer: "", beyondUseHours: "", cost: "" })).toMatchObject({
      sku: null,
      manufacturer: null,
      beyondUseHours: null,
      cost: null,
    });
    const messages = ProductForm.safeParse(
      rawProduct({ name: " ", category: "", baseUnit: "", unitScale: "5", beyondUseHours: "1.5", tracking: "x" }),
    ).error?.issues.map((i) => i.path[0]);
    expect(messages).toEqual(["name", "category", "tracking", "baseUnit", "unitScale", "beyondUseHours"]);
  });

  it("shows beyond-use durations and money the way a label reads them", () => {
    expect(formatBeyondUse(24)).toBe("24 h");
    expect(formatBeyondUse(672)).toBe("28 days");
    expect(formatBeyondUse(36)).toBe("36 h");
    expect(formatBeyondUse(null)).toBe("—");
    expect(formatMoney(123450)).toBe("$1,234.50");
    expect(formatMoney(7)).toBe("$0.07");
  });
});

describe("GTINs", () => {
  it("accepts GS1 numbers of 8, 12, 13 and 14 digits with a valid mod-10 check digit", () => {
    for (const gtin of ["96385074", "012345678905", "4006381333931", "10012345678902"]) {
      expect(gtinProblem(gtin)).toBeNull();
    }
  });

  it("says what is wrong: not digits, wrong length, wrong check digit", () => {
    expect(gtinProblem("40063813339A1")).toBe(GTIN_MESSAGES.digits);
    expect(gtinProblem("123456789")).toBe(GTIN_MESSAGES.length(9));
    expect(gtinProblem("4006381333932")).toBe(
      "This GTIN's check digit is wrong: with these digits it should end in 1. Check the number for a typo.",
    );
    const form = VariationForm.safeParse({
      name: "Vial",
      gtin: "4006 3813 3393 2",
      unitScale: "1",
      unitsPerPackage: "1",
    });
    expect(form.error?.issues.map((i) => [i.path[0], i.message])).toEqual([["gtin", GTIN_MESSAGES.checkDigit(1)]]);
    expect(variationForm({ gtin: "4006 3813 3393 1" }).gtin).toBe("4006381333931");
  });

  it("finds the same number written with more or fewer leading zeros", () => {
    expect(gtinCandidates("0012345678905")).toEqual(["012345678905", "0012345678905", "00012345678905"]);
    expect(gtinCandidates("ABC")).toEqual([]);
  });

  it("reads units per package in the base unit at the product's scale", () => {
    expect(variationForm({ unitScale: "100", unitsPerPackage: "1.5" }).unitsPerPackage).toBe(150);
    expect(variationForm({ unitScale: "1000", unitsPerPackage: "0.25" }).unitsPerPackage).toBe(250);
    const refused = VariationForm.safeParse({ name: "V", unitScale: "1", unitsPerPackage: "1.5", gtin: "" });
    expect(refused.error?.issues[0]?.message).toBe(
      "Enter how many base units one package holds, as a whole number above 0.",
    );
  });
});

describe("createProduct", () => {
  it("adds a product and its create_product row in one round trip", async () => {
    const manager = as("manager");
    const result = await expectOneBatch(() =>
      createProduct(t.db, manager, productForm({ name: "Dysport", sku: `DYS-300-${RUN}`, defaultVendorId: vendorId })),
    );
    if (!result.ok) throw new Error(result.message);
    expect(await product(result.productId)).toMatchObject({
      organizationId,
      name: "Dysport",
      sku: `DYS-300-${RUN}`,
      defaultVendorId: vendorId,
      tracking: "serialized",
      unitScale: 1,
      beyondUseHours: 24,
      costCents: 42000,
      priceCents: null,
      active: true,
      version: 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_product",
      userId: manager.id,
      locationId: loc.WST,
      entity: "product",
      entityId: result.productId,
      summary: { name: "Dysport", sku: `DYS-300-${RUN}`, costCents: 42000, unitScale: 1 },
    });
  });

  it("refuses a SKU the organization already uses, an archived vendor, and staff", async () => {
    await newProduct({ name: "Xeomin", sku: `XEO-100-${RUN}` });
    const refusals = await expectNoActivity(async () => [
      await createProduct(t.db, as("admin"), productForm({ name: "Copy", sku: `XEO-100-${RUN}` })),
      await createProduct(t.db, as("manager"), productForm({ name: "Copy", defaultVendorId: archivedVendorId })),
      await createProduct(t.db, as("staff"), productForm({ name: "Staff product" })),
    ]);
    expect(refusals).toEqual([
      {
        ok: false,
        refusal: "sku_taken",
        message: `Another product already uses the SKU XEO-100-${RUN}. Choose a different SKU, or leave it empty.`,
      },
      {
        ok: false,
        refusal: "vendor_unavailable",
        message: "That vendor is archived or does not exist. Choose an active vendor.",
      },
      expect.objectContaining({ ok: false, refusal: "forbidden" }),
    ]);
    const [copies] = await t.db.select({ n: count() }).from(schema.products).where(eq(schema.products.name, "Copy"));
    expect(copies?.n).toBe(0);
  });
});

describe("updateProduct", () => {
  it("saves a change, bumps the version and logs only the fields that changed", async () => {
    const id = await newProduct({ name: "Juvederm", baseUnit: "mL", unitScale: "100", tracking: "bulk" });
    const manager = as("manager");
    const result = await expectOneBatch(() =>
      updateProduct(t.db, manager, {
        productId: id,
        ...editForm(1, {
          name: "Juvederm Ultra",
          baseUnit: "mL",
          unitScale: "100",
          tracking: "bulk",
          price: "650",
          storage: "frozen",
        }),
      }),
    );
    expect(result).toEqual({ ok: true, changed: true, version: 2 });
    expect(await product(id)).toMatchObject({
      name: "Juvederm Ultra",
      priceCents: 65000,
      storage: "frozen",
      version: 2,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_product",
      entity: "product",
      entityId: id,
      locationId: loc.WST,
      summary: {
        name: "Juvederm Ultra",
        before: { name: "Juvederm", priceCents: null, storage: "refrigerated" },
        after: { name: "Juvederm Ultra", priceCents: 65000, storage: "frozen" },
      },
    });

    // Saving the same values again changes nothing and logs nothing.
    const again = await expectNoActivity(() =>
      updateProduct(t.db, manager, {
        productId: id,
        ...editForm(2, {
          name: "Juvederm Ultra",
          baseUnit: "mL",
          unitScale: "100",
          tracking: "bulk",
          price: "650",
          storage: "frozen",
        }),
      }),
    );
    expect(again).toEqual({ ok: true, changed: false, version: 2 });
  });

  it("refuses a save made from a stale version, writing nothing, and keeps the first save's values", async () => {
    const id = await newProduct({ name: "Sculptra" });
    // Two people open the form at version 1.
    const first = await updateProduct(t.db, as("manager"), {
      productId: id,
      ...editForm(1, { name: "Sculptra", price: "800" }),
    });
    expect(first).toMatchObject({ ok: true, changed: true, version: 2 });
    const second = await expectNoActivity(async () => {
      t.resetRoundTrips();
      const refused = await updateProduct(t.db, as("admin"), {
        productId: id,
        ...editForm(1, { name: "Sculptra Aesthetic", cost: "1" }),
      });
      expect(t.roundTrips()).toBe(1);
      return refused;
    });
    expect(second).toEqual({
      ok: false,
      refusal: "stale",
      message:
        "Someone else changed this product while you were editing. Your changes were not saved: review the current values and save again.",
    });
    expect(await product(id)).toMatchObject({ name: "Sculptra", priceCents: 80000, costCents: 42000, version: 2 });
  });

  it("refuses a duplicate SKU, a scale change once there are variations, staff, and unknown products", async () => {
    await newProduct({ name: "Restylane", sku: `RES-1-${RUN}` });
    const id = await newProduct({ name: "Radiesse", sku: `RAD-1-${RUN}` });
    await newVariation(id, { name: "1.5 mL syringe", unitsPerPackage: "150" });
    const refusals = await expectNoActivity(async () => [
      await updateProduct(t.db, as("manager"), {
        productId: id,
        ...editForm(1, { name: "Radiesse", sku: `RES-1-${RUN}` }),
      }),
      await updateProduct(t.db, as("manager"), {
        productId: id,
        ...editForm(1, { name: "Radiesse", sku: `RAD-1-${RUN}`, unitScale: "100" }),
      }),
      await updateProduct(t.db, as("staff"), {
        productId: id,
        ...editForm(1, { name: "Hacked", sku: `RAD-1-${RUN}` }),
      }),
      await updateProduct(t.db, as("owner"), { productId: uuidv7(), ...editForm(1) }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["sku_taken", "scale_locked", "forbidden", "not_found"]);
    expect(await product(id)).toMatchObject({ name: "Radiesse", sku: `RAD-1-${RUN}`, unitScale: 1, version: 1 });
  });
});

describe("the controlled flag", () => {
  it("is ticked on the product form, saved on create and edit, logged, and listed", async () => {
    expect(productForm().controlled).toBe(false);
    expect(productForm({ controlled: "on" }).controlled).toBe(true);

    const manager = as("manager");
    const id = await newProduct({ name: `Midazolam ${RUN}`, controlled: "on" });
    expect(await product(id)).toMatchObject({ controlled: true });
    expect(await t.lastActivity()).toMatchObject({ action: "create_product", summary: { controlled: true } });

    // Unticked on the edit form (an organization admin's: only they change it): a box left empty
    // is sent as nothing, and that clears the flag.
    const owner = as("owner");
    const cleared = await updateProduct(t.db, owner, {
      productId: id,
      ...editForm(1, { name: `Midazolam ${RUN}` }),
    });
    expect(cleared).toEqual({ ok: true, changed: true, version: 2 });
    expect(await product(id)).toMatchObject({ controlled: false });
    const log = await t.lastActivity();
    expect(log).toMatchObject({
      action: "update_product",
      summary: { before: { controlled: true }, after: { controlled: false } },
    });
    expect(describeChange({ action: "update_product", summary: log?.summary ?? null })).toEqual({
      title: "Product edited",
      details: ["Controlled substance: yes → no"],
    });
    const ticked = await updateProduct(t.db, owner, {
      productId: id,
      ...editForm(2, { name: `Midazolam ${RUN}`, controlled: "on" }),
    });
    expect(ticked).toEqual({ ok: true, changed: true, version: 3 });
    expect(await product(id)).toMatchObject({ controlled: true });

    // The list (and GET /api/products, which reads the same columns) says so.
    const list = await listProducts(t.db, manager, { q: `Midazolam ${RUN}`, status: "active", page: 1, pageSize: 25 });
    expect(list.products.map((p) => [p.name, p.controlled])).toEqual([[`Midazolam ${RUN}`, true]]);
  });

  it("cannot be changed by a user without WRITE_PRODUCTS, by the verb or a forged post", async () => {
    const id = await newProduct({ name: `Ketamine ${RUN}`, controlled: "on" });
    const refused = await expectNoActivity(() =>
      updateProduct(t.db, as("staff"), { productId: id, ...editForm(1, { name: `Ketamine ${RUN}` }) }),
    );
    expect(refused).toMatchObject({ ok: false, refusal: "forbidden" });
    const created = await expectNoActivity(() =>
      createProduct(t.db, as("staff"), productForm({ name: `Staff controlled ${RUN}`, controlled: "on" })),
    );
    expect(created).toMatchObject({ ok: false, refusal: "forbidden" });

    const cookie = sessions.get("staff")?.cookie ?? "";
    const forged = await expectNoActivity(() =>
      productAction({
        request: new Request(`http://clinic.test/products/${id}`, {
          method: "POST",
          body: new URLSearchParams({ intent: "update", ...rawProduct({ name: `Ketamine ${RUN}` }), version: "1" }),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
        context: { env, db: t.db, ctx: {} } as unknown as AppLoadContext,
        params: { productId: id },
      }).catch((e: unknown) => e),
    );
    expect((forged as Response).status).toBe(403);
    expect(await product(id)).toMatchObject({ controlled: true, version: 1 });
  });
});

describe("tracking", () => {
  it("cannot change while the product has stock, vials or open receipt lines, and says to make a new product instead", async () => {
    const owner = as("owner");
    const id = await newProduct({ name: `Restylane Lyft ${RUN}`, tracking: "serialized", beyondUseHours: "" });
    const vid = await newVariation(id, { name: "1 mL syringe", unitsPerPackage: "100" });
    const edit = (version: number, tracking: string) =>
      updateProduct(t.db, owner, {
        productId: id,
        ...editForm(version, { name: `Restylane Lyft ${RUN}`, tracking, beyondUseHours: "" }),
      });
    const locked = {
      ok: false,
      refusal: "tracking_locked",
      message: `Restylane Lyft ${RUN} has stock, vials or open receipt lines, so its tracking cannot change: they were counted the way it is tracked now. To track it the other way, create a new product with that tracking, and archive this one once its stock is used up.`,
    };
    // Two sealed vials at Downtown: switching to bulk would let an adjustment take their units.
    const vials = await receiveVials(t.db, as("admin", "DTN"), {
      locationId: loc.DTN,
      variationId: vid,
      quantity: 2,
      lot: `LYFT-${RUN}`,
      expirationDate: new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10),
    });
    expect(vials).toHaveLength(2);
    const refused = await expectNoActivity(async () => {
      t.resetRoundTrips();
      const answer = await edit(1, "bulk");
      expect(t.roundTrips()).toBe(1);
      return answer;
    });
    expect(refused).toEqual(locked);
    expect(await product(id)).toMatchObject({ tracking: "serialized", version: 1 });
    // Other fields still change.
    expect(
      await updateProduct(t.db, owner, {
        productId: id,
        ...editForm(1, { name: `Restylane Lyft ${RUN}`, beyondUseHours: "", price: "300" }),
      }),
    ).toMatchObject({ ok: true, changed: true, version: 2 });

    // The vials used up and their level at zero, but a receipt line still open: locked.
    await t.db
      .update(schema.items)
      .set({ state: "empty", unitsRemaining: 0, endedAt: new Date() })
      .where(eq(schema.items.variationId, vid));
    await t.db.update(schema.stockLevels).set({ onHand: 0 }).where(eq(schema.stockLevels.variationId, vid));
    const receiptId = uuidv7();
    await t.db.insert(schema.receipts).values({ id: receiptId, locationId: loc.WST });
    const lineId = uuidv7();
    await t.db
      .insert(schema.receiptLines)
      .values({ id: lineId, receiptId, variationId: vid, quantity: 1, unitsPerPackage: 100 });
    expect(await expectNoActivity(() => edit(2, "bulk"))).toEqual(locked);
    await t.db.delete(schema.receiptLines).where(eq(schema.receiptLines.id, lineId));

    // Nothing on hand, no vial left, no open line: it may change, logged with before and after.
    expect(await expectOneBatch(() => edit(2, "bulk"))).toMatchObject({ ok: true, changed: true, version: 3 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_product",
      summary: { before: { tracking: "serialized" }, after: { tracking: "bulk" } },
    });

    // Bulk stock on hand somewhere locks it the other way too.
    await t.db.update(schema.stockLevels).set({ onHand: 500 }).where(eq(schema.stockLevels.variationId, vid));
    expect(await expectNoActivity(() => edit(3, "serialized"))).toEqual(locked);
    expect(await product(id)).toMatchObject({ tracking: "bulk", version: 3 });
  });
});

describe("the safety fields", () => {
  it("are changed by organization admins only, each change logged with before and after", async () => {
    const id = await newProduct({ name: `Diazepam ${RUN}`, beyondUseHours: "24" });
    const name = `Diazepam ${RUN}`;
    const adminOnly = {
      ok: false,
      refusal: "safety_admin_only",
      message:
        "Only organization admins change whether a product is controlled, its beyond-use hours and its tracking: they apply at every location. Nothing was saved: keep them as they are, or ask an organization admin.",
    };
    // A manager (or a location's admin) changing any of the three is refused, writing nothing.
    const refusals = await expectNoActivity(async () => [
      await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name, controlled: "on" }) }),
      await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name, beyondUseHours: "48" }) }),
      await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name, beyondUseHours: "" }) }),
      await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name, tracking: "bulk" }) }),
      await updateProduct(t.db, as("admin", "DTN"), { productId: id, ...editForm(1, { name, controlled: "on" }) }),
    ]);
    expect(refusals).toEqual([adminOnly, adminOnly, adminOnly, adminOnly, adminOnly]);
    expect(await product(id)).toMatchObject({
      controlled: false,
      beyondUseHours: 24,
      tracking: "serialized",
      version: 1,
    });
    // The rest of the product is still theirs to edit, the safety fields sent as they are.
    expect(
      await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name, price: "12" }) }),
    ).toMatchObject({ ok: true, changed: true, version: 2 });

    // An organization admin changes all three at once: one row with each one's before and after.
    const changed = await expectOneBatch(() =>
      updateProduct(t.db, as("owner"), {
        productId: id,
        ...editForm(2, { name, price: "12", controlled: "on", beyondUseHours: "72", tracking: "bulk" }),
      }),
    );
    expect(changed).toMatchObject({ ok: true, changed: true, version: 3 });
    const log = await t.lastActivity();
    expect(log).toMatchObject({
      action: "update_product",
      entityId: id,
      summary: {
        before: { tracking: "serialized", beyondUseHours: 24, controlled: false },
        after: { tracking: "bulk", beyondUseHours: 72, controlled: true },
      },
    });
    expect(describeChange({ action: "update_product", summary: log?.summary ?? null }).details).toEqual([
      "Tracking: Serialized → Bulk",
      "Beyond-use (h): 24 h → 3 days",
      "Controlled substance: no → yes",
    ]);
  });

  it("refuse a manager's forged post (403, nothing written); the page shows them read-only to a manager", async () => {
    const name = `Fentanyl ${RUN}`;
    const id = await newProduct({ name, controlled: "on" });
    const cookie = sessions.get("manager")?.cookie ?? "";
    const context = { env, db: t.db, ctx: {} } as unknown as AppLoadContext;
    const forged = await expectNoActivity(() =>
      productAction({
        request: new Request(`http://clinic.test/products/${id}`, {
          method: "POST",
          body: new URLSearchParams({ intent: "update", ...rawProduct({ name }), version: "1" }),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
        context,
        params: { productId: id },
      }).catch((e: unknown) => e),
    );
    expect(forged).toMatchObject({
      init: { status: 403 },
      data: { intent: "update", formError: expect.stringContaining("Only organization admins change") },
    });
    expect(await product(id)).toMatchObject({ controlled: true, version: 1 });

    const page = (email: Email) =>
      productLoader({
        request: new Request(`http://clinic.test/products/${id}`, {
          headers: { Cookie: sessions.get(email)?.cookie ?? "" },
        }),
        // A fresh context per request: the session is looked up once per context.
        context: { env, db: t.db, ctx: {} } as unknown as AppLoadContext,
        params: { productId: id },
      });
    expect(await page("manager")).toMatchObject({ canWrite: true, canChangeSafety: false });
    expect(await page("owner")).toMatchObject({ canWrite: true, canChangeSafety: true });
  });
});

describe("archiving products", () => {
  it("archives and restores with their rows; an open edit form becomes stale", async () => {
    const id = await newProduct({ name: "Kybella" });
    const archived = await expectOneBatch(() => archiveProduct(t.db, as("admin"), id));
    expect(archived).toEqual({ ok: true, name: "Kybella" });
    expect(await product(id)).toMatchObject({ active: false, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "archive_product",
      entityId: id,
      summary: { name: "Kybella", before: { active: true }, after: { active: false } },
    });
    expect(await expectNoActivity(() => archiveProduct(t.db, as("admin"), id))).toMatchObject({
      refusal: "already_archived",
      message: "This product is already archived.",
    });
    const stale = await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name: "Kybella 2" }) });
    expect(stale).toMatchObject({ ok: false, refusal: "stale" });
    await expectOneBatch(() => restoreProduct(t.db, as("admin"), id));
    expect(await product(id)).toMatchObject({ active: true, version: 3 });
    expect(await expectNoActivity(() => archiveProduct(t.db, as("staff"), id))).toMatchObject({ refusal: "forbidden" });
  });
});

describe("variations", () => {
  it("adds, edits (optimistically), archives and restores a variation, each with its row", async () => {
    const id = await newProduct({ name: "Belotero", baseUnit: "mL", unitScale: "100", tracking: "bulk" });
    const gtin = freshGtin();
    const created = await expectOneBatch(() =>
      createVariation(t.db, as("manager"), {
        productId: id,
        ...variationForm({ name: "1 mL syringe", gtin, unitScale: "100", unitsPerPackage: "1", cost: "150.00" }),
      }),
    );
    if (!created.ok) throw new Error(created.message);
    const vid = created.variationId;
    expect(await variation(vid)).toMatchObject({
      productId: id,
      gtin,
      unitsPerPackage: 100,
      costCents: 15000,
      version: 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_variation",
      entity: "variation",
      entityId: vid,
      summary: { productId: id, product: "Belotero", name: "1 mL syringe", gtin, unitsPerPackage: 100 },
    });

    const edit = (version: number, fields: Record<string, string>) =>
      VariationEditForm.parse({
        name: "1 mL syringe",
        sku: "",
        gtin,
        unitScale: "100",
        unitsPerPackage: "1",
        cost: "150.00",
        variationId: vid,
        version: String(version),
        ...fields,
      });
    const saved = await expectOneBatch(() =>
      updateVariation(t.db, as("manager"), { productId: id, ...edit(1, { cost: "155.50" }) }),
    );
    expect(saved).toEqual({ ok: true, changed: true, name: "1 mL syringe" });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_variation",
      entityId: vid,
      summary: { before: { costCents: 15000 }, after: { costCents: 15550 } },
    });
    const stale = await expectNoActivity(() =>
      updateVariation(t.db, as("admin"), { productId: id, ...edit(1, { name: "Overwrite" }) }),
    );
    expect(stale).toEqual({
      ok: false,
      refusal: "variation_stale",
      message:
        "Someone else changed this variation while you were editing. Your changes were not saved: review the current values and save again.",
    });
    expect(await variation(vid)).toMatchObject({ name: "1 mL syringe", costCents: 15550, version: 2 });

    await expectOneBatch(() => archiveVariation(t.db, as("manager"), { productId: id, variationId: vid }));
    expect(await variation(vid)).toMatchObject({ active: false });
    expect(await t.lastActivity()).toMatchObject({ action: "archive_variation", entityId: vid });
    await expectOneBatch(() => restoreVariation(t.db, as("manager"), { productId: id, variationId: vid }));
    expect(await t.lastActivity()).toMatchObject({ action: "restore_variation", summary: { after: { active: true } } });
  });

  it("refuses a GTIN another variation has (naming it), a duplicate name, a changed scale and staff", async () => {
    const id = await newProduct({ name: "Daxxify" });
    const gtin = freshGtin();
    await newVariation(id, { name: "100 U vial", gtin });
    const other = await newProduct({ name: "Letybo" });
    const refusals = await expectNoActivity(async () => [
      await createVariation(t.db, as("manager"), { productId: other, ...variationForm({ name: "50 U vial", gtin }) }),
      await createVariation(t.db, as("manager"), { productId: id, ...variationForm({ name: "100 U vial" }) }),
      await createVariation(t.db, as("manager"), {
        productId: other,
        ...variationForm({ name: "Vial", unitScale: "10", unitsPerPackage: "5" }),
      }),
      await createVariation(t.db, as("staff"), { productId: other, ...variationForm({ name: "Staff vial" }) }),
    ]);
    expect(refusals).toEqual([
      { ok: false, refusal: "gtin_taken", message: `GTIN ${gtin} is already used by Daxxify — 100 U vial.` },
      {
        ok: false,
        refusal: "variation_name_taken",
        message: "This product already has a variation named 100 U vial. Choose a different name.",
      },
      expect.objectContaining({ refusal: "scale_changed" }),
      expect.objectContaining({ refusal: "forbidden" }),
    ]);
  });
});

describe("units per package", () => {
  it("cannot change while the variation has stock, items or open receipt lines, and says what to do instead", async () => {
    const id = await newProduct({ name: `Sculptra ${RUN}` });
    const vid = await newVariation(id, { name: "Box of 100", unitsPerPackage: "100" });
    const edit = (version: number, fields: Record<string, string>) =>
      VariationEditForm.parse({
        name: "Box of 100",
        sku: "",
        gtin: "",
        unitScale: "1",
        unitsPerPackage: "100",
        cost: "",
        variationId: vid,
        version: String(version),
        ...fields,
      });
    const locked = {
      ok: false,
      refusal: "units_locked",
      message:
        "Box of 100 has stock or open receipt lines, so its units per package cannot change. Archive it and add a new variation with the new package size.",
    };
    // An open receipt line of it: locked.
    const receiptId = uuidv7();
    await t.db.insert(schema.receipts).values({ id: receiptId, locationId: loc.DTN });
    const lineId = uuidv7();
    await t.db
      .insert(schema.receiptLines)
      .values({ id: lineId, receiptId, variationId: vid, quantity: 1, unitsPerPackage: 100 });
    expect(
      await expectNoActivity(() =>
        updateVariation(t.db, as("manager"), { productId: id, ...edit(1, { unitsPerPackage: "50" }) }),
      ),
    ).toEqual(locked);
    // Other fields still change.
    expect(await updateVariation(t.db, as("manager"), { productId: id, ...edit(1, { cost: "9.00" }) })).toMatchObject({
      ok: true,
      changed: true,
    });
    await t.db.delete(schema.receiptLines).where(eq(schema.receiptLines.id, lineId));
    // Stock on hand somewhere: locked.
    await t.db
      .insert(schema.stockLevels)
      .values({ locationId: loc.WST, variationId: vid, onHand: 5, updatedAt: new Date() });
    expect(
      await updateVariation(t.db, as("manager"), {
        productId: id,
        ...edit(2, { cost: "9.00", unitsPerPackage: "50" }),
      }),
    ).toEqual(locked);
    // None left anywhere (the level is zero), no open lines: it may change.
    await t.db.update(schema.stockLevels).set({ onHand: 0 }).where(eq(schema.stockLevels.variationId, vid));
    expect(
      await updateVariation(t.db, as("manager"), {
        productId: id,
        ...edit(2, { cost: "9.00", unitsPerPackage: "50" }),
      }),
    ).toMatchObject({ ok: true, changed: true });
    expect(await variation(vid)).toMatchObject({ unitsPerPackage: 50, version: 3 });
    // Whoever writes to the table directly meets the same trigger.
    await t.db.update(schema.stockLevels).set({ onHand: 50 }).where(eq(schema.stockLevels.variationId, vid));
    await expect(
      t.db.update(schema.productVariations).set({ unitsPerPackage: 25 }).where(eq(schema.productVariations.id, vid)),
    ).rejects.toSatisfy((e: Error) => /units per package locked/.test(`${e.message} ${String(e.cause)}`));
  });

  it("is at most 1,000,000 base units at the product's scale, in the form and in the database", async () => {
    const tooMany = VariationForm.safeParse({ name: "V", unitScale: "1", unitsPerPackage: "1000001", gtin: "" });
    expect(tooMany.error?.issues).toEqual([
      expect.objectContaining({
        path: ["unitsPerPackage"],
        message: "One package holds at most 1,000,000 base units. Check the number.",
      }),
    ]);
    expect(
      VariationForm.safeParse({ name: "V", unitScale: "100", unitsPerPackage: "10000.01", gtin: "" }).error?.issues[0]
        ?.message,
    ).toBe("One package holds at most 10,000 base units. Check the number.");
    expect(variationForm({ unitsPerPackage: "1000000" }).unitsPerPackage).toBe(1_000_000);
    const id = await newProduct({ name: `Radiesse ${RUN}` });
    await expect(
      t.db.insert(schema.productVariations).values({ productId: id, name: "Huge", unitsPerPackage: 1_000_001 }),
    ).rejects.toSatisfy((e: Error) => /product_variations_units/.test(`${e.message} ${String(e.cause)}`));
  });
});

describe("barcodes", () => {
  it("runs the spec's rules, stores the normalised code, and refuses a code already used, naming its owner", async () => {
    const id = await newProduct({ name: "Botox Cosmetic" });
    const vid = await newVariation(id, { name: "100 U vial" });
    const other = await newVariation(id, { name: "50 U vial", unitsPerPackage: "50" });

    expect(parseBarcodeField("")).toMatchObject({ valid: false, errors: [BARCODE_MESSAGES.required] });
    expect(parseBarcodeField("   ")).toMatchObject({ valid: false, errors: [BARCODE_MESSAGES.empty] });
    expect(parseBarcodeField("btx 100!")).toEqual({
      valid: false,
      code: "BTX100",
      errors: ["Invalid character(s) detected: space, !. Only A-Z, 0-9, hyphens, and underscores are allowed."],
    });
    expect(parseBarcodeField("ab")).toMatchObject({ errors: [BARCODE_MESSAGES.tooShort] });
    expect(parseBarcodeField("A".repeat(51))).toMatchObject({ errors: [BARCODE_MESSAGES.tooLong] });

    const added = await expectOneBatch(() =>
      addBarcode(t.db, as("manager"), { productId: id, variationId: vid, code: "  btx-100_u " }),
    );
    expect(added).toEqual({ ok: true, code: "BTX-100_U", variation: "100 U vial" });
    expect(await t.lastActivity()).toMatchObject({
      action: "add_barcode",
      entity: "variation",
      entityId: vid,
      summary: { product: "Botox Cosmetic", variation: "100 U vial", code: "BTX-100_U" },
    });

    const refusals = await expectNoActivity(async () => [
      await addBarcode(t.db, as("admin"), { productId: id, variationId: other, code: "BTX-100_U" }),
      await addBarcode(t.db, as("manager"), { productId: id, variationId: other, code: "x!" }),
      await addBarcode(t.db, as("staff"), { productId: id, variationId: other, code: "STAFF-1" }),
    ]);
    expect(refusals).toEqual([
      {
        ok: false,
        refusal: "barcode_taken",
        message: "Barcode BTX-100_U is already used by Botox Cosmetic — 100 U vial.",
      },
      {
        ok: false,
        refusal: "barcode_invalid",
        message: `Invalid character(s) detected: !. Only A-Z, 0-9, hyphens, and underscores are allowed. ${BARCODE_MESSAGES.tooShort}`,
      },
      expect.objectContaining({ refusal: "forbidden" }),
    ]);
    // The database holds the same rules, whoever writes.
    await expect(t.db.insert(schema.barcodes).values({ code: "bad code", variationId: vid })).rejects.toThrow();

    const [row] = await t.db.select().from(schema.barcodes).where(eq(schema.barcodes.code, "BTX-100_U"));
    const removed = await expectOneBatch(() =>
      removeBarcode(t.db, as("manager"), { productId: id, barcodeId: row?.id ?? "" }),
    );
    expect(removed).toEqual({ ok: true, code: "BTX-100_U" });
    expect(await t.lastActivity()).toMatchObject({
      action: "remove_barcode",
      entityId: vid,
      summary: { code: "BTX-100_U" },
    });
    expect(
      await expectNoActivity(() => removeBarcode(t.db, as("manager"), { productId: id, barcodeId: row?.id ?? "" })),
    ).toMatchObject({ refusal: "barcode_not_found" });
  });

  it("looks a scanned code up: a catalogue barcode, else a variation's GTIN, in one round trip", async () => {
    const id = await newProduct({ name: "Lidocaine 1%", tracking: "bulk", baseUnit: "mL" });
    const gtin = "012345678905";
    const vid = await newVariation(id, { name: "10 mL vial", gtin, unitsPerPackage: "10" });
    await addBarcode(t.db, as("manager"), { productId: id, variationId: vid, code: "LIDO-10" });

    t.resetRoundTrips();
    const byCode = await findByCode(t.db, as("staff"), " lido-10 ");
    expect(t.roundTrips()).toBe(1);
    expect(byCode).toMatchObject({
      match: "barcode",
      code: "LIDO-10",
      variation: { id: vid, name: "10 mL vial", gtin, unitsPerPackage: 10, active: true },
      product: { id, name: "Lidocaine 1%", tracking: "bulk", baseUnit: "mL", unitScale: 1 },
    });
    // A UPC-A scanned as EAN-13 (one more leading zero) still finds its variation.
    expect(await findByCode(t.db, as("staff"), "0012345678905")).toMatchObject({
      match: "gtin",
      variation: { id: vid },
    });
    expect(await findByCode(t.db, as("staff"), "NO-SUCH-CODE")).toBeNull();
    expect(await findByCode(t.db, as("staff"), "a b")).toEqual({
      invalid: [
        "Invalid character(s) detected: space. Only A-Z, 0-9, hyphens, and underscores are allowed.",
        BARCODE_MESSAGES.tooShort,
      ],
    });
  });
});

describe("par levels", () => {
  it("are reached where the viewer stands, with WRITE_PRODUCTS there: a Westside manager sets Westside's, not Downtown's", async () => {
    const id = await newProduct({ name: "Gauze 4x4", tracking: "bulk", baseUnit: "each" });
    const vid = await newVariation(id, { name: "Box of 100", unitsPerPackage: "100" });
    const row = (locationId: string, par: number, reorderPoint: number, max?: number) =>
      ParLevelForm.parse({
        locationId,
        variationId: vid,
        par: String(par),
        reorderPoint: String(reorderPoint),
        max: max === undefined ? "" : String(max),
      });

    const set = await expectOneBatch(() =>
      setParLevel(t.db, as("manager"), { productId: id, ...row(loc.WST, 10, 4, 20) }),
    );
    expect(set).toEqual({ ok: true, changed: true, location: "Westside", variation: "Box of 100" });
    expect(await t.lastActivity()).toMatchObject({
      action: "set_par_level",
      locationId: loc.WST,
      entity: "variation",
      entityId: vid,
      summary: { location: "WST", variation: "Box of 100", before: null, after: { par: 10, reorderPoint: 4, max: 20 } },
    });
    await expectOneBatch(() => setParLevel(t.db, as("manager"), { productId: id, ...row(loc.WST, 12, 4) }));
    expect(await t.lastActivity()).toMatchObject({
      summary: { before: { par: 10, reorderPoint: 4, max: 20 }, after: { par: 12, reorderPoint: 4, max: null } },
    });
    // The same values again: nothing changes, nothing is logged.
    expect(
      await expectNoActivity(() => setParLevel(t.db, as("manager"), { productId: id, ...row(loc.WST, 12, 4) })),
    ).toMatchObject({
      ok: true,
      changed: false,
    });

    const refusals = await expectNoActivity(async () => [
      await setParLevel(t.db, as("manager", "WST"), { productId: id, ...row(loc.DTN, 5, 1) }),
      await setParLevel(t.db, as("staff"), { productId: id, ...row(loc.DTN, 5, 1) }),
      await clearParLevel(t.db, as("manager"), { productId: id, variationId: vid, locationId: loc.DTN }),
      // admin is ADMIN at Downtown too, but working at Westside reaches Westside's rows only (ADR 0014).
      await setParLevel(t.db, as("admin", "WST"), { productId: id, ...row(loc.DTN, 6, 2) }),
      // The owner reaches every location in organization mode, one at a time otherwise.
      await setParLevel(t.db, as("owner", "DTN"), { productId: id, ...row(loc.NTH, 3, 1) }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual([
      "forbidden",
      "forbidden",
      "forbidden",
      "forbidden",
      "forbidden",
    ]);

    await expectOneBatch(() => setParLevel(t.db, as("admin", "DTN"), { productId: id, ...row(loc.DTN, 6, 2) }));
    await expectOneBatch(() =>
      setParLevel(t.db, { ...as("owner"), locationId: ORGANIZATION }, { productId: id, ...row(loc.NTH, 3, 1) }),
    );

    const cleared = await expectOneBatch(() =>
      clearParLevel(t.db, as("manager"), { productId: id, variationId: vid, locationId: loc.WST }),
    );
    expect(cleared).toEqual({ ok: true, location: "Westside", variation: "Box of 100" });
    expect(await t.lastActivity()).toMatchObject({
      action: "clear_par_level",
      locationId: loc.WST,
      summary: { before: { par: 12, reorderPoint: 4, max: null }, after: null },
    });
    expect(
      await expectNoActivity(() =>
        clearParLevel(t.db, as("manager"), { productId: id, variationId: vid, locationId: loc.WST }),
      ),
    ).toMatchObject({ refusal: "no_par_level" });
    const levels = await t.db.select().from(schema.parLevels).where(eq(schema.parLevels.variationId, vid));
    expect(levels.map((l) => [l.locationId, l.par]).sort()).toEqual(
      [
        [loc.DTN, 6],
        [loc.NTH, 3],
      ].sort(),
    );
  });

  it("checks the row rules before the database does", () => {
    const messages = ParLevelForm.safeParse({
      locationId: loc.WST,
      variationId: "v",
      par: "5",
      reorderPoint: "6",
      max: "4",
    }).error?.issues.map((i) => i.message);
    expect(messages).toEqual([
      "The reorder point cannot be above the par level: reorder before you fall below par.",
      "The maximum cannot be below the par level.",
    ]);
  });
});

describe("listing", () => {
  it("searches name, SKU, manufacturer, a variation's GTIN or barcode, filters, and paginates, in one round trip", async () => {
    const category = `Listing ${uuidv7().slice(-6)}`;
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      ids.push(
        await newProduct({
          name: `Syringe ${String(i).padStart(2, "0")}`,
          category,
          tracking: i % 3 === 0 ? "bulk" : "serialized",
          defaultVendorId: i === 5 ? vendorId : "",
          manufacturer: i === 7 ? "Becton Dickinson" : "",
          sku: i === 8 ? `BD-PLASTIPAK-${RUN}` : "",
        }),
      );
    }
    const gtin = freshGtin();
    const vid = await newVariation(ids[9] ?? "", { name: "Box", gtin });
    await addBarcode(t.db, as("manager"), {
      productId: ids[10] ?? "",
      variationId: await newVariation(ids[10] ?? ""),
      code: "SYR-TEN",
    });
    await archiveProduct(t.db, as("manager"), ids[26] ?? "");
    expect(vid).toBeTruthy();

    const query: Parameters<typeof listProducts>[2] = {
      q: "",
      category,
      vendor: "",
      tracking: "",
      status: "active",
      page: 1,
      pageSize: 25,
    };
    t.resetRoundTrips();
    const first = await listProducts(t.db, as("staff"), query);
    expect(t.roundTrips()).toBe(1);
    expect(first.total).toBe(26);
    expect(first.pageCount).toBe(2);
    expect(first.products).toHaveLength(25);
    expect(first.products[0]).toMatchObject({ name: "Syringe 00", variationCount: 0, tracking: "bulk" });
    expect(first.categories).toContain(category);
    expect(first.vendors.map((v) => v.name)).toContain("Allergan Direct");
    expect(first.vendors.map((v) => v.name)).not.toContain("Old Supplier");
    const second = await listProducts(t.db, as("staff"), { ...query, page: 2 });
    expect(second.products.map((p) => p.name)).toEqual(["Syringe 25"]);

    const names = async (q: Partial<typeof query>) =>
      (await listProducts(t.db, as("staff"), { ...query, ...q })).products.map((p) => p.name);
    expect(await names({ q: "dickinson" })).toEqual(["Syringe 07"]);
    expect(await names({ q: "bd-plasti" })).toEqual(["Syringe 08"]);
    expect(await names({ q: gtin })).toEqual(["Syringe 09"]);
    expect(await names({ q: "syr-ten" })).toEqual(["Syringe 10"]);
    expect(await names({ vendor: vendorId })).toEqual(["Syringe 05"]);
    expect((await names({ tracking: "bulk" })).length).toBe(9);
    expect(await names({ status: "archived" })).toEqual(["Syringe 26"]);
    expect(await names({ q: "100%" })).toEqual([]);

    const variations = await listVariations(t.db, as("staff"), {
      productId: ids[10] ?? "",
      q: "",
      status: "active",
      page: 1,
      pageSize: 25,
    });
    expect(variations).toMatchObject({ page: 1, pageSize: 25, total: 1 });
    expect(variations.items[0]).toMatchObject({
      name: "100 U vial",
      barcodes: ["SYR-TEN"],
      product: { name: "Syringe 10" },
    });
  });
});

describe("the product screens", () => {
  async function request(email: Email, path: string, init: RequestInit = {}, code?: keyof typeof loc) {
    const session = sessions.get(email);
    const cookies = [session?.cookie ?? ""];
    if (code) {
      cookies.push(
        (await saveLocationChoice({ selectedLocationId: loc[code], isOrganizationMode: false })).split(";")[0] ?? "",
      );
    }
    return new Request(`http://clinic.test${path}`, { ...init, headers: { Cookie: cookies.join("; ") } });
  }
  const context = () => ({ env, db: t.db, ctx: {} }) as unknown as AppLoadContext;

  it("reads the product page in one round trip beyond the session, on-hand zero at each of the viewer's locations", async () => {
    const id = await newProduct({ name: "Hyaluronidase" });
    const vid = await newVariation(id, { name: "150 U vial", unitsPerPackage: "150" });
    await addBarcode(t.db, as("manager"), { productId: id, variationId: vid, code: "HYAL-150" });
    await setParLevel(t.db, as("manager"), {
      productId: id,
      ...ParLevelForm.parse({ locationId: loc.WST, variationId: vid, par: "4", reorderPoint: "1", max: "" }),
    });
    await updateProduct(t.db, as("manager"), { productId: id, ...editForm(1, { name: "Hyaluronidase", price: "99" }) });

    t.resetRoundTrips();
    const page = await productLoader({
      request: await request("admin", `/products/${id}`),
      context: context(),
      params: { productId: id },
    });
    expect(t.roundTrips()).toBe(2);
    expect(page.product).toMatchObject({ name: "Hyaluronidase", priceCents: 9900, version: 2 });
    expect(page.canWrite).toBe(true);
    const [v] = page.variations;
    expect(v).toMatchObject({ name: "150 U vial", barcodes: [{ code: "HYAL-150" }] });
    // admin works at Downtown (ADMIN) and Westside (MANAGER): the row of the location in scope
    // (Downtown, their first), as on the par levels page (ADR 0014).
    expect(v?.locations.map((l) => [l.code, l.onHand, l.parLevel?.par ?? null, l.canEdit])).toEqual([
      ["DTN", 0, null, true],
    ]);
    expect(page.changes.map((c) => c.title)).toEqual([
      "Product edited",
      "Par level set at WST · 150 U vial",
      "Barcode added: HYAL-150",
      "Variation added: 150 U vial",
      "Product created",
    ]);
    expect(page.changes[0]?.details).toEqual(["Price: — → $99.00"]);

    const staffPage = await productLoader({
      request: await request("staff", `/products/${id}`),
      context: context(),
      params: { productId: id },
    });
    expect(staffPage.canWrite).toBe(false);
    const atWestside = await productLoader({
      request: await request("admin", `/products/${id}`, {}, "WST"),
      context: context(),
      params: { productId: id },
    });
    expect(atWestside.variations[0]?.locations.map((l) => [l.code, l.parLevel?.par ?? null, l.canEdit])).toEqual([
      ["WST", 4, true],
    ]);
    expect(staffPage.variations[0]?.locations.map((l) => [l.code, l.canEdit])).toEqual([["DTN", false]]);

    t.resetRoundTrips();
    const list = await productsLoader({
      request: await request("staff", "/products?q=hyaluronidase"),
      context: context(),
      params: {},
    });
    expect(t.roundTrips()).toBe(2);
    expect(list.products.map((p) => p.name)).toEqual(["Hyaluronidase"]);
    expect(list.canWrite).toBe(false);
  });

  it("answers 404 for an unknown product and refuses a staff user's forged post with 403, writing nothing", async () => {
    const missing = await productLoader({
      request: await request("staff", "/products/nope"),
      context: context(),
      params: { productId: "nope" },
    }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ init: { status: 404 } });

    const id = await newProduct({ name: "Tranexamic acid" });
    const post = async (email: Email, fields: Record<string, string>, code?: keyof typeof loc) => {
      const body = new URLSearchParams(fields);
      const req = await request(email, `/products/${id}`, { method: "POST", body }, code);
      const init = {
        method: "POST",
        body,
        headers: { Cookie: req.headers.get("Cookie") ?? "", "Content-Type": "application/x-www-form-urlencoded" },
      };
      return productAction({
        request: new Request(req.url, init),
        context: context(),
        params: { productId: id },
      }).catch((e: unknown) => e);
    };
    const forged = await expectNoActivity(() =>
      post("staff", { intent: "update", ...rawProduct({ name: "Hacked" }), version: "1" }),
    );
    expect(forged).toBeInstanceOf(Response);
    expect((forged as Response).status).toBe(403);
    expect(await product(id)).toMatchObject({ name: "Tranexamic acid" });

    // A Westside manager's par level post for Downtown is refused too (403), writing nothing.
    const vid = await newVariation(id, { name: "Ampoule", unitsPerPackage: "1" });
    const par = await expectNoActivity(() =>
      post("manager", {
        intent: "par-set",
        variationId: vid,
        locationId: loc.DTN,
        par: "3",
        reorderPoint: "1",
        max: "",
      }),
    );
    expect(par instanceof Response ? par.status : (par as { init: ResponseInit }).init.status).toBe(403);

    // A stale save through the page: 409 with the message and the typed values, nothing written.
    await updateProduct(t.db, as("manager"), {
      productId: id,
      ...editForm(1, { name: "Tranexamic acid", price: "5" }),
    });
    const stale = await expectNoActivity(() =>
      post("manager", { intent: "update", ...rawProduct({ name: "TXA" }), version: "1" }, "WST"),
    );
    expect(stale).toMatchObject({
      init: { status: 409 },
      data: {
        intent: "update",
        conflict: true,
        formError:
          "Someone else changed this product while you were editing. Your changes were not saved: review the current values and save again.",
        typed: expect.objectContaining({ name: "TXA" }),
      },
    });
    expect(await product(id)).toMatchObject({ name: "Tranexamic acid", priceCents: 500 });

    // Barcode rules through the page: every message, and the stripped code offered.
    const bad = await post("manager", { intent: "barcode-add", variationId: vid, code: "tx-a 1!" }, "WST");
    expect(bad).toMatchObject({
      init: { status: 400 },
      data: {
        barcodeErrors: [
          "Invalid character(s) detected: space, !. Only A-Z, 0-9, hyphens, and underscores are allowed.",
        ],
        suggestion: "TX-A1",
      },
    });
  });
});
