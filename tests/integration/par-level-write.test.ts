// The product page and the bulk par level page write a row through the same parLevelWrite: the same
// guards (a variation of this product, an active location of the organization) and the same
// "changed" rule, so a row one of them saved is "unchanged" for the other.
import { and, eq, inArray } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import { saveParLevels } from "../../app/par-levels/save.server";
import { ParLevelForm } from "../../app/products/forms";
import { clearParLevel, setParLevel } from "../../app/products/par-levels.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;
let owner: ScopedActor;

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
  owner = { ...(await signedIn(t.db, "owner")).user, locationId: loc.DTN };
});
afterAll(() => t.close());

async function newProduct(name: string, variation: string) {
  const productId = uuidv7();
  const variationId = uuidv7();
  await t.db.batch([
    t.db
      .insert(schema.products)
      .values({ id: productId, organizationId, name, category: "Par Write", tracking: "bulk", baseUnit: "each" }),
    t.db.insert(schema.productVariations).values({ id: variationId, productId, name: variation, unitsPerPackage: 1 }),
  ]);
  return { productId, variationId };
}

const row = (locationId: string, variationId: string, par: string, reorderPoint: string, max = "") =>
  ParLevelForm.parse({ locationId, variationId, par, reorderPoint, max });

async function logged(variationId: string) {
  return t.db
    .select({ action: schema.activityLog.action })
    .from(schema.activityLog)
    .where(and(eq(schema.activityLog.entity, "variation"), inArray(schema.activityLog.entityId, [variationId])));
}
async function levels(variationId: string) {
  const rows = await t.db.select().from(schema.parLevels).where(eq(schema.parLevels.variationId, variationId));
  return rows.map((r) => [r.locationId, r.par, r.reorderPoint, r.max]);
}

describe("one par level write for both pages", () => {
  it("a row saved on one page is unchanged for the other, and each logs only real changes", async () => {
    const { productId, variationId } = await newProduct("Write Once Gauze", "Box of 10");

    expect(await setParLevel(t.db, owner, { productId, ...row(loc.DTN, variationId, "5", "2") })).toMatchObject({
      ok: true,
      changed: true,
    });
    // The bulk page saving the same numbers writes nothing.
    const same = { variationId, levels: { par: 5, reorderPoint: 2, max: null } };
    expect(await saveParLevels(t.db, owner, { locationId: loc.DTN, changes: [same] })).toEqual({
      ok: true,
      set: 0,
      cleared: 0,
    });
    const changed = { variationId, levels: { par: 8, reorderPoint: 3, max: 12 } };
    expect(await saveParLevels(t.db, owner, { locationId: loc.DTN, changes: [changed] })).toEqual({
      ok: true,
      set: 1,
      cleared: 0,
    });
    // ...and the product page saving what the bulk page saved changes nothing either.
    expect(await setParLevel(t.db, owner, { productId, ...row(loc.DTN, variationId, "8", "3", "12") })).toMatchObject({
      ok: true,
      changed: false,
    });
    expect(await levels(variationId)).toEqual([[loc.DTN, 8, 3, 12]]);

    // Cleared on the bulk page: nothing left for the product page to clear.
    expect(
      await saveParLevels(t.db, owner, { locationId: loc.DTN, changes: [{ variationId, levels: null }] }),
    ).toMatchObject({ ok: true, cleared: 1 });
    expect(await clearParLevel(t.db, owner, { productId, variationId, locationId: loc.DTN })).toMatchObject({
      ok: false,
      refusal: "no_par_level",
    });
    expect((await logged(variationId)).map((a) => a.action)).toEqual([
      "set_par_level",
      "set_par_level",
      "clear_par_level",
    ]);
  });

  it("refuses on the product page, writing nothing, a variation of another product or an archived location", async () => {
    const gauze = await newProduct("Write Once Swabs", "Pack of 50");
    const other = await newProduct("Write Once Tape", "Roll");
    const notAvailable = {
      ok: false,
      refusal: "not_found",
      message: "That variation or location is not available: reload the page.",
    };

    // The variation exists in the organization, but not on this product's page.
    expect(
      await setParLevel(t.db, owner, { productId: gauze.productId, ...row(loc.DTN, other.variationId, "4", "1") }),
    ).toEqual(notAvailable);
    expect(
      await clearParLevel(t.db, owner, {
        productId: gauze.productId,
        variationId: other.variationId,
        locationId: loc.DTN,
      }),
    ).toEqual(notAvailable);

    await t.db.update(schema.locations).set({ active: false }).where(eq(schema.locations.id, loc.NTH));
    try {
      expect(
        // In organization mode, where North would be reached were it not archived.
        await setParLevel(
          t.db,
          { ...owner, locationId: ORGANIZATION },
          { productId: gauze.productId, ...row(loc.NTH, gauze.variationId, "4", "1") },
        ),
      ).toEqual(notAvailable);
    } finally {
      await t.db.update(schema.locations).set({ active: true }).where(eq(schema.locations.id, loc.NTH));
    }
    expect(await levels(other.variationId)).toEqual([]);
    expect(await levels(gauze.variationId)).toEqual([]);
    expect(await logged(other.variationId)).toEqual([]);
    expect(await logged(gauze.variationId)).toEqual([]);
  });
});
