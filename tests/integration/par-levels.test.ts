import { and, eq, inArray } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORGANIZATION } from "../../app/access/permissions";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { PAR_SHEET_MAX_ROWS, PAR_SHEET_PAGE_SIZE, parFieldName } from "../../app/par-levels/constants";
import { parseParSheet } from "../../app/par-levels/forms";
import { parLevelSheet } from "../../app/par-levels/list.server";
import { PAR_SHEET_REFUSALS } from "../../app/par-levels/outcome";
import { saveParLevels } from "../../app/par-levels/save.server";
import * as parLevelsScreen from "../../app/routes/_app.products.par-levels";
import { NUMBERED_COUNT_CAP } from "../../app/ui/page-count";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { loadContext, outcome, signedIn, withLocationChoice } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let organizationId: string;

const MESSAGES = {
  reorderAbovePar: "The reorder point cannot be above the par level: reorder before you fall below par.",
  maxBelowPar: "The maximum cannot be below the par level.",
  parMissing: "Enter the par level as a whole number of packages.",
  reorderMissing: "Enter the reorder point as a whole number of packages.",
  maxNotWhole: "Enter the maximum as a whole number of packages.",
  parNegative: "The par level cannot be negative.",
};

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc, organizationId } = await demoLocations(t.db));
});
afterAll(() => t.close());

const session = (name: string) => signedIn(t.db, name, env);
const as = async (name: string) => (await session(name)).user;

async function activitiesFor(variationIds: string[]) {
  return t.db
    .select()
    .from(schema.activityLog)
    .where(and(eq(schema.activityLog.entity, "variation"), inArray(schema.activityLog.entityId, variationIds)))
    .orderBy(schema.activityLog.id);
}
async function levelsAt(locationId: string, variationIds: string[]) {
  const rows = await t.db
    .select()
    .from(schema.parLevels)
    .where(and(eq(schema.parLevels.locationId, locationId), inArray(schema.parLevels.variationId, variationIds)));
  return Object.fromEntries(rows.map((r) => [r.variationId, [r.par, r.reorderPoint, r.max]]));
}

/** A product of our own (the demo catalogue exists too: tests filter by these unique names). */
async function newProduct(name: string, variations: string[], options: { category?: string; active?: boolean } = {}) {
  const productId = uuidv7();
  const ids = variations.map(() => uuidv7());
  await t.db.batch([
    t.db.insert(schema.products).values({
      id: productId,
      organizationId,
      name,
      category: options.category ?? "Par Test",
      tracking: "bulk",
      baseUnit: "each",
      active: options.active ?? true,
    }),
    t.db
      .insert(schema.productVariations)
      .values(variations.map((v, i) => ({ id: ids[i] as string, productId, name: v, unitsPerPackage: 1 }))),
  ]);
  return { productId, ids };
}

type Row = { id: string; par?: string; reorderPoint?: string; max?: string; was?: string };
function sheetForm(rows: Row[], extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  for (const row of rows) {
    form.append("variationId", row.id);
    form.set(parFieldName("par", row.id), row.par ?? "");
    form.set(parFieldName("reorderPoint", row.id), row.reorderPoint ?? "");
    form.set(parFieldName("max", row.id), row.max ?? "");
    form.set(parFieldName("was", row.id), row.was ?? "");
  }
  return form;
}

describe("reading the bulk form", () => {
  it("keeps only the rows that differ from what the page showed; three empty inputs clear a row", () => {
    const sheet = parseParSheet(
      sheetForm([
        { id: "a", par: "10", reorderPoint: "4", max: "", was: "" }, // new
        { id: "b", par: "10", reorderPoint: "4", max: "20", was: "10|4|20" }, // untouched
        { id: "c", par: "", reorderPoint: "", max: "", was: "6|2|" }, // emptied: clear
        { id: "d", par: "", reorderPoint: "", max: "", was: "" }, // never had one
        { id: "e", par: " 8 ", reorderPoint: "0", max: "8", was: "8|0|" }, // max added
      ]),
      "loc",
    );
    expect(sheet).toEqual({
      ok: true,
      changes: [
        { variationId: "a", levels: { par: 10, reorderPoint: 4, max: null } },
        { variationId: "c", levels: null },
        { variationId: "e", levels: { par: 8, reorderPoint: 0, max: 8 } },
      ],
      values: expect.any(Object),
    });
  });

  it("checks every row with the shared rules and reports each row's messages, changed or not", () => {
    const sheet = parseParSheet(
      sheetForm([
        { id: "ok", par: "5", reorderPoint: "2", was: "" },
        { id: "order", par: "5", reorderPoint: "6", max: "4", was: "5|2|" },
        { id: "missing", par: "", reorderPoint: "3", max: "", was: "" },
        { id: "words", par: "-1", reorderPoint: "", max: "2.5", was: "" },
      ]),
      "loc",
    );
    expect(sheet).toEqual({
      ok: false,
      formError: null,
      values: expect.objectContaining({ order: { par: "5", reorderPoint: "6", max: "4" } }),
      rowErrors: {
        order: { reorderPoint: MESSAGES.reorderAbovePar, max: MESSAGES.maxBelowPar },
        missing: { par: MESSAGES.parMissing },
        words: { par: MESSAGES.parNegative, reorderPoint: MESSAGES.reorderMissing, max: MESSAGES.maxNotWhole },
      },
    });
  });

  it("refuses more rows than a page can hold", () => {
    const rows = Array.from({ length: PAR_SHEET_MAX_ROWS + 1 }, (_, i) => ({
      id: `v${i}`,
      par: "1",
      reorderPoint: "0",
    }));
    expect(parseParSheet(sheetForm(rows), "loc")).toMatchObject({
      ok: false,
      formError: "Save at most 200 rows at a time.",
    });
  });
});

describe("saveParLevels", () => {
  it("writes the changed rows and one activity row each, in one round trip", async () => {
    const { productId, ids } = await newProduct("Saline Flush", ["10 mL syringe", "5 mL syringe", "Box of 30"]);
    const [ten, five, box] = ids as [string, string, string];
    const manager = await as("manager"); // MANAGER at Westside

    t.resetRoundTrips();
    const first = await saveParLevels(t.db, manager, {
      locationId: loc.WST,
      changes: [
        { variationId: ten, levels: { par: 10, reorderPoint: 4, max: 20 } },
        { variationId: five, levels: { par: 6, reorderPoint: 2, max: null } },
      ],
    });
    expect(t.roundTrips()).toBe(1);
    expect(first).toEqual({ ok: true, set: 2, cleared: 0 });
    expect(await levelsAt(loc.WST, ids)).toEqual({ [ten]: [10, 4, 20], [five]: [6, 2, null] });
    const logged = await activitiesFor(ids);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      action: "set_par_level",
      userId: manager.id,
      locationId: loc.WST,
      entity: "variation",
      entityId: ten,
      summary: {
        productId,
        product: "Saline Flush",
        variation: "10 mL syringe",
        location: "WST",
        before: null,
        after: { par: 10, reorderPoint: 4, max: 20 },
      },
    });
    expect(logged[1]).toMatchObject({ action: "set_par_level", entityId: five, summary: { after: { max: null } } });
    // One round trip held both writes and both activity rows; no other location was touched.
    expect(await levelsAt(loc.DTN, ids)).toEqual({});

    // Change one, clear one, set one the same as it is: two activity rows, one write unchanged.
    const second = await saveParLevels(t.db, manager, {
      locationId: loc.WST,
      changes: [
        { variationId: ten, levels: { par: 12, reorderPoint: 4, max: 20 } },
        { variationId: five, levels: null },
        { variationId: box, levels: null }, // never had one: nothing to clear
      ],
    });
    expect(second).toEqual({ ok: true, set: 1, cleared: 1 });
    expect(await levelsAt(loc.WST, ids)).toEqual({ [ten]: [12, 4, 20] });
    const more = (await activitiesFor(ids)).slice(2);
    expect(more.map((a) => [a.action, a.entityId])).toEqual([
      ["set_par_level", ten],
      ["clear_par_level", five],
    ]);
    expect(more[0]?.summary).toMatchObject({ before: { par: 10, reorderPoint: 4, max: 20 }, after: { par: 12 } });
    expect(more[1]?.summary).toMatchObject({ before: { par: 6, reorderPoint: 2, max: null }, after: null });

    const before = await t.activityCount();
    const same = await saveParLevels(t.db, manager, {
      locationId: loc.WST,
      changes: [{ variationId: ten, levels: { par: 12, reorderPoint: 4, max: 20 } }],
    });
    expect(same).toEqual({ ok: true, set: 0, cleared: 0 });
    expect(await t.activityCount()).toBe(before);
  });

  it("needs WRITE_PRODUCTS at the location being edited", async () => {
    const { ids } = await newProduct("Alcohol Prep Pads", ["Box of 200"]);
    const [pads] = ids as [string];
    const change = [{ variationId: pads, levels: { par: 2, reorderPoint: 1, max: null } }];
    const manager = await as("manager"); // MANAGER at Westside only
    const staff = await as("staff"); // STAFF at Downtown: READ_PRODUCTS only
    const before = await t.activityCount();
    const refusals = [
      await saveParLevels(t.db, manager, { locationId: loc.DTN, changes: change }),
      await saveParLevels(t.db, staff, { locationId: loc.DTN, changes: change }),
      await saveParLevels(t.db, manager, { locationId: ORGANIZATION, changes: change }),
    ];
    expect(refusals).toEqual(Array(3).fill({ ok: false, refusal: "forbidden", message: PAR_SHEET_REFUSALS.forbidden }));
    expect(await t.activityCount()).toBe(before);
    expect(await levelsAt(loc.DTN, ids)).toEqual({});

    // A location admin (ADMIN at Downtown) and an organization admin (anywhere) may.
    expect(await saveParLevels(t.db, await as("admin"), { locationId: loc.DTN, changes: change })).toMatchObject({
      ok: true,
    });
    expect(await saveParLevels(t.db, await as("owner"), { locationId: loc.NTH, changes: change })).toMatchObject({
      ok: true,
    });
  });

  it("writes nothing at all when one row names a variation outside the organization or the location is archived", async () => {
    const { ids } = await newProduct("Nitrile Gloves", ["Medium, box of 100", "Large, box of 100"]);
    const [medium, large] = ids as [string, string];
    const owner = await as("owner");
    await saveParLevels(t.db, owner, {
      locationId: loc.DTN,
      changes: [{ variationId: large, levels: { par: 3, reorderPoint: 1, max: null } }],
    });
    const before = await t.activityCount();

    const forged = await saveParLevels(t.db, owner, {
      locationId: loc.DTN,
      changes: [
        { variationId: medium, levels: { par: 5, reorderPoint: 2, max: null } },
        { variationId: large, levels: null },
        { variationId: uuidv7(), levels: { par: 1, reorderPoint: 0, max: null } },
      ],
    });
    expect(forged).toEqual({
      ok: false,
      refusal: "variation_not_found",
      message: PAR_SHEET_REFUSALS.variation_not_found,
    });
    expect(await levelsAt(loc.DTN, ids)).toEqual({ [large]: [3, 1, null] });
    expect(await t.activityCount()).toBe(before);

    await t.db.update(schema.locations).set({ active: false }).where(eq(schema.locations.id, loc.NTH));
    try {
      const archived = await saveParLevels(t.db, owner, {
        locationId: loc.NTH,
        changes: [{ variationId: medium, levels: { par: 5, reorderPoint: 2, max: null } }],
      });
      expect(archived).toMatchObject({ ok: false, refusal: "location_unavailable" });
      const clearing = await saveParLevels(t.db, owner, {
        locationId: loc.NTH,
        changes: [{ variationId: large, levels: null }],
      });
      expect(clearing).toMatchObject({ ok: false, refusal: "location_unavailable" });
      expect(await levelsAt(loc.NTH, ids)).toEqual({});
      expect(await t.activityCount()).toBe(before);
    } finally {
      await t.db.update(schema.locations).set({ active: true }).where(eq(schema.locations.id, loc.NTH));
    }
  });
});

describe("parLevelSheet", () => {
  it("lists active variations of active products by product, 50 a page, filtered by category and search", async () => {
    const names = Array.from({ length: PAR_SHEET_PAGE_SIZE + 1 }, (_, i) => `Size ${String(i).padStart(2, "0")}`);
    const big = await newProduct("Compression Sleeve", names, { category: "Par Paging" });
    const small = await newProduct("Arm Sling", ["One size"], { category: "Par Paging" });
    await newProduct("Retired Sling", ["Old size"], { category: "Par Paging", active: false });
    await t.db
      .update(schema.productVariations)
      .set({ active: false })
      .where(eq(schema.productVariations.id, big.ids[50] as string));
    const owner = await as("owner");
    await saveParLevels(t.db, owner, {
      locationId: loc.WST,
      changes: [{ variationId: small.ids[0] as string, levels: { par: 2, reorderPoint: 1, max: 4 } }],
    });

    t.resetRoundTrips();
    const page1 = await parLevelSheet(t.db, owner, { locationId: loc.WST, category: "Par Paging", q: "", page: 1 });
    expect(t.roundTrips()).toBe(1);
    expect(page1.total).toBe(51); // 50 active sizes + the sling; archived ones are left out
    expect(page1.rows).toHaveLength(50);
    expect(page1.rows[0]).toMatchObject({
      product: "Arm Sling",
      variation: "One size",
      par: 2,
      reorderPoint: 1,
      max: 4,
    });
    expect(page1.rows[1]).toMatchObject({ product: "Compression Sleeve", variation: "Size 00", par: null });
    expect(page1.categories).toContain("Par Paging");
    expect(page1.locations.map((l) => l.code)).toEqual(["DTN", "NTH", "WST"]);

    const page2 = await parLevelSheet(t.db, owner, { locationId: loc.WST, category: "Par Paging", q: "", page: 2 });
    expect(page2.rows.map((r) => r.variation)).toEqual(["Size 49"]);

    const searched = await parLevelSheet(t.db, owner, { locationId: loc.DTN, category: "", q: "sling", page: 1 });
    expect(searched.rows.map((r) => [r.product, r.variation, r.par])).toEqual([["Arm Sling", "One size", null]]);
    const bySize = await parLevelSheet(t.db, owner, {
      locationId: loc.DTN,
      category: "Par Paging",
      q: "size 1",
      page: 1,
    });
    expect(bySize.total).toBe(10);

    const noLocation = await parLevelSheet(t.db, owner, { locationId: null, category: "", q: "", page: 1 });
    expect(noLocation).toMatchObject({ rows: [], total: 0 });
  });

  it("offers the categories of active products only, each once, in order", async () => {
    await newProduct("Cat Retired", ["One"], { category: "Par Only Retired", active: false });
    await newProduct("Cat B", ["One"], { category: "Par Cat B" });
    await newProduct("Cat A2", ["One"], { category: "Par Cat A" });
    await newProduct("Cat A1", ["One", "Two"], { category: "Par Cat A" });
    const owner = await as("owner");
    const sheet = await parLevelSheet(t.db, owner, { locationId: null, category: "", q: "", page: 1 });
    expect(sheet.categories).toEqual([...sheet.categories].sort());
    expect(new Set(sheet.categories).size).toBe(sheet.categories.length);
    expect(sheet.categories).toEqual(expect.arrayContaining(["Par Cat A", "Par Cat B"]));
    expect(sheet.categories).not.toContain("Par Only Retired");
  });

  it("counts a long sheet to the cap past the page shown, exactly once a page reaches its end", async () => {
    const over = NUMBERED_COUNT_CAP + 60;
    const trays = Array.from({ length: over }, (_, i) => `Tray ${String(i).padStart(4, "0")}`);
    await newProduct("Cap Tray", trays, { category: "Par Cap" });
    const owner = await as("owner");
    const read = (page: number) =>
      parLevelSheet(t.db, owner, { locationId: loc.WST, category: "Par Cap", q: "", page });
    const first = await read(1);
    expect(first).toMatchObject({ total: NUMBERED_COUNT_CAP, totalExact: false, page: 1 });
    expect(first.pageCount).toBe(NUMBERED_COUNT_CAP / PAR_SHEET_PAGE_SIZE);
    expect(first.rows).toHaveLength(PAR_SHEET_PAGE_SIZE);
    // Page 20 of "20+" still links on; from there the count reaches the end: exact.
    const later = await read(NUMBERED_COUNT_CAP / PAR_SHEET_PAGE_SIZE + 1);
    expect(later).toMatchObject({ total: over, totalExact: true, pageCount: Math.ceil(over / PAR_SHEET_PAGE_SIZE) });
    expect(later.rows.map((r) => r.variation)[0]).toBe(`Tray ${String(NUMBERED_COUNT_CAP).padStart(4, "0")}`);
  });
});

// ---- The screen: loader and action as the worker runs them ----

const context = () => loadContext(t.db, env);

async function cookieFor(name: string, where?: "DTN" | "WST" | "NTH" | typeof ORGANIZATION) {
  const { cookie } = await session(name);
  return withLocationChoice(cookie, where === ORGANIZATION ? ORGANIZATION : where && loc[where]);
}

const load = (cookie: string, search = "") =>
  outcome(() =>
    parLevelsScreen.loader({
      request: new Request(`http://clinic.test/products/par-levels${search}`, { headers: { Cookie: cookie } }),
      context: context(),
      params: {},
    }),
  );
const save = (cookie: string, form: FormData, search = "") =>
  outcome(() =>
    parLevelsScreen.action({
      request: new Request(`http://clinic.test/products/par-levels${search}`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: form,
      }),
      context: context(),
      params: {},
    }),
  );

describe("the /products/par-levels screen", () => {
  it("shows a manager Westside only, in one round trip beyond the session, whatever ?location= says", async () => {
    const { ids } = await newProduct("Lidocaine 2% jelly", ["30 mL tube"]);
    const cookie = await cookieFor("manager");
    t.resetRoundTrips();
    const page = await load(cookie, `?q=lidocaine 2%25&location=${loc.DTN}`);
    expect(t.roundTrips()).toBe(2);
    expect(page).toMatchObject({
      status: 200,
      data: {
        organizationMode: false,
        location: { id: loc.WST, code: "WST" },
        locations: [],
        canWrite: true,
        rowCount: 1,
        groups: [
          {
            product: "Lidocaine 2% jelly",
            variations: [{ id: ids[0], name: "30 mL tube", levels: { par: "", reorderPoint: "", max: "" }, was: "" }],
          },
        ],
      },
    });
  });

  it("lets staff view but not save, and refuses someone with no location", async () => {
    const staff = await cookieFor("staff");
    expect(await load(staff)).toMatchObject({ status: 200, data: { location: { code: "DTN" }, canWrite: false } });
    const { ids } = await newProduct("Cotton Tips", ["Bag of 500"]);
    const form = sheetForm([{ id: ids[0] as string, par: "5", reorderPoint: "1" }]);
    expect((await save(staff, form)).status).toBe(403);
    expect(await levelsAt(loc.DTN, ids)).toEqual({});
    expect((await load(await cookieFor("newhire"))).status).toBe(403);
  });

  it("makes an organization admin in organization mode choose a location first", async () => {
    const cookie = await cookieFor("owner", ORGANIZATION);
    const picker = await load(cookie);
    expect(picker).toMatchObject({
      status: 200,
      data: { organizationMode: true, location: null, groups: [], rowCount: 0 },
    });
    expect((picker.data as { locations: { code: string }[] }).locations.map((l) => l.code)).toEqual([
      "DTN",
      "NTH",
      "WST",
    ]);
    expect(await load(cookie, "?location=not-a-location")).toMatchObject({ data: { location: null } });

    const { ids } = await newProduct("Gauze Sponges", ["4x4, pack of 200"]);
    const chosen = await load(cookie, `?location=${loc.NTH}&q=gauze sponges`);
    expect(chosen).toMatchObject({ data: { location: { code: "NTH" }, canWrite: true, rowCount: 1 } });

    const form = sheetForm([{ id: ids[0] as string, par: "7", reorderPoint: "3", max: "9" }], { locationId: loc.NTH });
    expect(await save(cookie, form, `?location=${loc.NTH}`)).toMatchObject({
      status: 302,
      location: `/products/par-levels?location=${loc.NTH}`,
    });
    expect(await levelsAt(loc.NTH, ids)).toEqual({ [ids[0] as string]: [7, 3, 9] });
    expect((await save(cookie, sheetForm([{ id: ids[0] as string, par: "1", reorderPoint: "0" }]))).status).toBe(400);
  });

  it("saves a manager's page at Westside in one batch, ignoring a forged location, and nothing if a row is invalid", async () => {
    const { ids } = await newProduct("Sharps Container", ["1 qt", "2 gal", "5 gal"]);
    const [quart, twoGallon, fiveGallon] = ids as [string, string, string];
    const cookie = await cookieFor("manager");

    const invalid = sheetForm(
      [
        { id: quart, par: "4", reorderPoint: "2", max: "6" },
        { id: twoGallon, par: "2", reorderPoint: "3" },
        { id: fiveGallon, par: "", reorderPoint: "", max: "1" },
      ],
      { locationId: loc.DTN },
    );
    const before = await t.activityCount();
    const refused = await save(cookie, invalid);
    expect(refused).toMatchObject({
      status: 400,
      data: {
        formError: "2 rows have problems. Nothing was saved: fix them and save again.",
        rowErrors: {
          [twoGallon]: { reorderPoint: MESSAGES.reorderAbovePar },
          [fiveGallon]: { par: MESSAGES.parMissing, reorderPoint: MESSAGES.reorderMissing },
        },
        values: { [quart]: { par: "4", reorderPoint: "2", max: "6" } },
      },
    });
    expect(await levelsAt(loc.WST, ids)).toEqual({});
    expect(await t.activityCount()).toBe(before);

    const valid = sheetForm(
      [
        { id: quart, par: "4", reorderPoint: "2", max: "6" },
        { id: twoGallon, par: "3", reorderPoint: "1" },
        { id: fiveGallon },
      ],
      { locationId: loc.DTN },
    );
    t.resetRoundTrips();
    expect(await save(cookie, valid, "?q=sharps")).toMatchObject({
      status: 302,
      location: "/products/par-levels?q=sharps",
    });
    expect(t.roundTrips()).toBe(2);
    expect(await levelsAt(loc.WST, ids)).toEqual({ [quart]: [4, 2, 6], [twoGallon]: [3, 1, null] });
    expect(await levelsAt(loc.DTN, ids)).toEqual({});
    expect((await activitiesFor(ids)).map((a) => [a.action, a.locationId])).toEqual([
      ["set_par_level", loc.WST],
      ["set_par_level", loc.WST],
    ]);

    // Round trip: the page now shows what was saved, ready to be submitted again unchanged.
    const reloaded = await load(cookie, "?q=sharps");
    const variations = (reloaded.data as { groups: { variations: { id: string; levels: object; was: string }[] }[] })
      .groups[0]?.variations;
    expect(variations?.map((v) => [v.levels, v.was])).toEqual([
      [{ par: "4", reorderPoint: "2", max: "6" }, "4|2|6"],
      [{ par: "3", reorderPoint: "1", max: "" }, "3|1|"],
      [{ par: "", reorderPoint: "", max: "" }, ""],
    ]);
    const resubmitted = sheetForm(
      (variations ?? []).map((v) => ({ id: v.id, ...(v.levels as Record<string, string>), was: v.was })),
    );
    const unchanged = await t.activityCount();
    expect(await save(cookie, resubmitted)).toMatchObject({ status: 302 });
    expect(await t.activityCount()).toBe(unchanged);
  });
});
