// A constraint the database still enforces behind a verb's own guards (a CHECK, a trigger's RAISE)
// answers 409 with a message saying what to do, on a form and on the JSON API, never a 500: a vial
// whose stock level was taken from under it (issue 19.2), and a trigger refusing a product save.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { schema } from "../../app/db/client.server";
import { CHANGED_MEANWHILE } from "../../app/db/outage";
import { action as productAction } from "../../app/routes/_app.products.$productId";
import { action as drawAction } from "../../app/routes/api.vials.$itemId.draw";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials } from "../support/receive";
import { formRequest, loadContext, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let admin: ScopedActor;
let staffCookie: string;
let ownerCookie: string;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  admin = { ...(await signedIn(t.db, "admin")).user, locationId: loc.DTN };
  staffCookie = await withLocationChoice((await signedIn(t.db, "staff")).cookie, loc.DTN);
  ownerCookie = (await signedIn(t.db, "owner")).cookie;
});
afterAll(() => t.close());

async function botox() {
  const [row] = await t.db
    .select({ id: schema.productVariations.id, productId: schema.products.id })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId))
    .where(and(eq(schema.products.name, "Botox Cosmetic"), eq(schema.productVariations.name, "100 U vial")));
  if (!row) throw new Error("no Botox in the demo catalogue");
  return row;
}

describe("a constraint error that reaches a verb", () => {
  it("answers the JSON API 409 {error, code} when a draw would take a stranded level below zero", async () => {
    const { id: variationId } = await botox();
    const [itemId] = await receiveVials(t.db, admin, {
      locationId: loc.DTN,
      variationId,
      quantity: 1,
      lot: "STRANDED1",
      expirationDate: new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10),
    });
    // The level the vial counts in was taken from under it (the hole of issue 19.2).
    await t.db.run(
      sql`UPDATE stock_levels SET on_hand = 0 WHERE variation_id = ${variationId} AND location_id = ${loc.DTN}`,
    );
    const response = await drawAction({
      request: new Request(`http://clinic.test/api/vials/${itemId}/draw`, {
        method: "POST",
        headers: { Cookie: staffCookie, "Content-Type": "application/json" },
        body: JSON.stringify({ units: 20 }),
      }),
      context: loadContext(t.db),
      params: { itemId },
    }).catch((e: unknown) => e);
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(409);
    expect(await (response as Response).json()).toEqual({ error: CHANGED_MEANWHILE, code: "conflict" });
    const [vial] = await t.db
      .select()
      .from(schema.items)
      .where(eq(schema.items.id, itemId ?? ""));
    expect(vial).toMatchObject({ state: "sealed", unitsRemaining: 100 });
  });

  it("answers a form 409 with the message when a trigger refuses the save, writing nothing", async () => {
    const { productId } = await botox();
    const [before] = await t.db.select().from(schema.products).where(eq(schema.products.id, productId));
    if (!before) throw new Error("no product");
    await t.db.run(sql`CREATE TRIGGER test_products_frozen BEFORE UPDATE ON products
      BEGIN SELECT RAISE(ABORT, 'products are frozen for this test'); END`);
    try {
      const answer = await productAction({
        request: formRequest(`/products/${productId}`, ownerCookie, {
          intent: "update",
          version: String(before.version),
          name: `${before.name} (renamed)`,
          sku: before.sku ?? "",
          category: before.category,
          manufacturer: before.manufacturer ?? "",
          defaultVendorId: before.defaultVendorId ?? "",
          tracking: before.tracking,
          baseUnit: before.baseUnit,
          unitScale: String(before.unitScale),
          beyondUseHours: before.beyondUseHours === null ? "" : String(before.beyondUseHours),
          storage: before.storage,
          ...(before.controlled ? { controlled: "on" } : {}),
          cost: "",
          price: "",
        }),
        context: loadContext(t.db),
        params: { productId },
      }).catch((e: unknown) => e);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(409);
      expect(await (answer as Response).json()).toEqual({ error: CHANGED_MEANWHILE, code: "conflict" });
    } finally {
      await t.db.run(sql`DROP TRIGGER test_products_frozen`);
    }
    const [after] = await t.db.select().from(schema.products).where(eq(schema.products.id, productId));
    expect(after).toMatchObject({ name: before.name, version: before.version });
  });
});
