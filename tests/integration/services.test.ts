// The services domain verbs against a real database: editors (WRITE_PRODUCTS at the location in
// scope) create, edit, archive and restore services and change their recipes; codes stay unique
// per organization; a stale edit changes nothing; quantities become exact base units with the
// product's scale; every change writes its activity row in the same batch (none for a refusal).
import { and, count, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { commitSessionCookie, getSessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { parseQuantity, type TypedQuantity } from "../../app/catalog/amounts";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { archiveService, restoreService } from "../../app/services/archive.server";
import { createService } from "../../app/services/create.server";
import { RecipeForm, ServiceForm, ServiceListQuery, ServiceUpdateForm } from "../../app/services/forms";
import { listServices, serviceDetail } from "../../app/services/list.server";
import { SERVICE_REFUSALS } from "../../app/services/outcome";
import {
  addRecipeLine,
  type RecipeOutcome,
  removeRecipeLine,
  saveRecipe,
  updateRecipeLine,
} from "../../app/services/recipe.server";
import { updateService } from "../../app/services/update.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
let loc: Record<"DTN" | "WST" | "NTH", string>;
let variations: Map<string, string>;

const STALE =
  "Someone else changed this service while you were editing. Your changes were not saved: review the current values and save again.";

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  const rows = await t.db
    .select({ id: schema.productVariations.id, product: schema.products.name, name: schema.productVariations.name })
    .from(schema.productVariations)
    .innerJoin(schema.products, eq(schema.products.id, schema.productVariations.productId));
  variations = new Map(rows.map((r) => [`${r.product} · ${r.name}`, r.id]));
});
afterAll(() => t.close());

/** A seeded variation's id, by "Product · Variation". */
function variation(label: string): string {
  const id = variations.get(label);
  if (!id) throw new Error(`no variation ${label}`);
  return id;
}
const BOTOX_100 = "Botox Cosmetic · 100 U vial";
const KYSSE = "Restylane Kysse · 1 mL syringe";
const LIDOCAINE = "Lidocaine 1% · 20 mL multi-dose vial";
const PADS = "Alcohol prep pads · Box of 200";
const NEEDLES = "30G 1/2 in needles · Box of 100";

/** Signs in for real and acts from `at` (a location code, or "all" for organization mode). */
async function as(email: string, at: keyof typeof loc | "all"): Promise<ScopedActor> {
  const result = await signIn(t.db, { email: `${email}@demo.clinic`, password: DEMO_PASSWORD, userAgent: "vitest" });
  if (!result.ok) throw new Error(result.message);
  const cookie = (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0];
  const user = await getSessionUser(
    env,
    t.db,
    new Request("http://clinic.test/", { headers: { Cookie: cookie ?? "" } }),
  );
  if (!user) throw new Error("signed out");
  return { ...user, locationId: at === "all" ? "all" : loc[at] };
}

async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}
/** Runs `work` and expects it to cost exactly one round trip (one batch) and one activity row. */
async function inOneBatch<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  t.resetRoundTrips();
  const result = await work();
  expect(t.roundTrips()).toBe(1);
  expect(await t.activityCount()).toBe(before + 1);
  return result;
}
async function service(id: string) {
  const [row] = await t.db.select().from(schema.services).where(eq(schema.services.id, id));
  return row;
}
async function recipe(serviceId: string) {
  const rows = await t.db
    .select({ variationId: schema.recipeLines.variationId, quantity: schema.recipeLines.quantity })
    .from(schema.recipeLines)
    .where(eq(schema.recipeLines.serviceId, serviceId));
  const label = new Map([...variations].map(([k, v]) => [v, k]));
  return Object.fromEntries(rows.map((r) => [label.get(r.variationId) ?? r.variationId, r.quantity]));
}

const form = (fields: Partial<Record<"name" | "code" | "category" | "price" | "duration", string>>) =>
  ServiceForm.parse({
    name: "Jawline contouring",
    code: "fil-jaw",
    category: "Dermal filler",
    price: "1,100",
    duration: "60",
    ...fields,
  });

function quantity(text: string): TypedQuantity {
  const parsed = parseQuantity(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.quantity;
}

let codes = 0;
/** A new service made by the demo manager, with a code no other test uses. */
async function newService(fields: Partial<Record<"name" | "code" | "price", string>> = {}) {
  const manager = await as("manager", "WST");
  codes += 1;
  const result = await createService(
    t.db,
    manager,
    form({ name: `Test service ${codes}`, code: `TST-${codes}`, ...fields }),
  );
  if (!result.ok) throw new Error(result.message);
  return result.serviceId;
}

function expectDone(result: RecipeOutcome) {
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe("the service form", () => {
  it("trims and upper-cases the code and reads the price as exact cents", () => {
    expect(form({ code: "  tox-glab  2 ", price: "$1,250.5", category: "  " })).toEqual({
      name: "Jawline contouring",
      code: "TOX-GLAB 2",
      category: null,
      price: 125050,
      duration: 60,
    });
    // Prices a float would get wrong (0.29 * 100 = 28.999…, 19.99 * 100 = 1998.99…).
    expect(form({ price: "0.29" }).price).toBe(29);
    expect(form({ price: "19.99" }).price).toBe(1999);
    expect(form({ price: "99,999.99" }).price).toBe(9999999);
    expect(form({ price: "", duration: "" })).toMatchObject({ price: null, duration: null });
  });

  it("says what is wrong with each field", () => {
    const messages = (fields: Record<string, string>) =>
      ServiceForm.safeParse({ name: "X", code: "ABC", price: "", duration: "", ...fields }).error?.issues.map((i) => [
        i.path[0],
        i.message,
      ]);
    expect(messages({ name: " " })).toEqual([["name", "Enter the service's name."]]);
    expect(messages({ code: "  " })).toEqual([["code", "Enter a code, like TOX-GLAB."]]);
    expect(messages({ code: "TOX#1" })).toEqual([
      ["code", "Use letters, digits, spaces, hyphens, underscores, dots or slashes, like TOX-GLAB."],
    ]);
    expect(messages({ price: "12.345" })).toEqual([
      ["price", "Enter the price in dollars and cents, like 350 or 350.00."],
    ]);
    expect(messages({ price: "-5" })).toEqual([["price", "Enter the price in dollars and cents, like 350 or 350.00."]]);
    expect(messages({ price: "100000" })).toEqual([["price", "The price is too large (at most $99,999.99)."]]);
    expect(messages({ duration: "1.5" })).toEqual([["duration", "Enter the duration in whole minutes, like 30."]]);
    expect(messages({ duration: "0" })).toEqual([
      ["duration", "The duration must be between 1 and 1440 minutes (24 hours)."],
    ]);
    expect(ServiceUpdateForm.safeParse({ name: "X", code: "ABC", version: "" }).error?.issues[0]?.message).toBe(
      "This form is out of date. Reload the page and try again.",
    );
  });

  it("reads the whole-recipe form row by row, skipping blank rows and naming each problem's row", () => {
    const parsed = RecipeForm.safeParse({
      version: "3",
      rows: [
        { variationId: "a", quantity: "0.5 mL" },
        { variationId: "", quantity: "" },
        { variationId: "a", quantity: "2" },
        { variationId: "b", quantity: "" },
        { variationId: "", quantity: "3" },
        { variationId: "c", quantity: "0" },
      ],
    });
    expect(parsed.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["variationId-2", "This product variation is already on another line."],
      ["quantity-3", "Enter a quantity."],
      ["variationId-4", "Choose a product variation."],
      ["quantity-5", "Enter a quantity above zero."],
    ]);
    expect(
      RecipeForm.parse({
        version: "3",
        rows: [
          { variationId: "a", quantity: "0.5 mL" },
          { variationId: "", quantity: "" },
        ],
      }),
    ).toEqual({
      version: 3,
      lines: [{ variationId: "a", quantity: { mantissa: 5, divisor: 10, unit: "mL" }, row: 0 }],
    });
  });
});

describe("createService", () => {
  it("lets a manager add a service, with its activity row, in one round trip", async () => {
    const manager = await as("manager", "WST");
    const result = await inOneBatch(() => createService(t.db, manager, form({})));
    if (!result.ok) throw new Error(result.message);
    expect(await service(result.serviceId)).toMatchObject({
      name: "Jawline contouring",
      code: "FIL-JAW",
      category: "Dermal filler",
      priceCents: 110000,
      durationMinutes: 60,
      active: true,
      version: 1,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "create_service",
      userId: manager.id,
      locationId: loc.WST,
      entity: "service",
      entityId: result.serviceId,
      summary: {
        name: "Jawline contouring",
        code: "FIL-JAW",
        category: "Dermal filler",
        priceCents: 110000,
        durationMinutes: 60,
        version: 1,
      },
    });
  });

  it("lets an organization admin add one in organization mode, filed under no location", async () => {
    const owner = await as("owner", "all");
    const result = await createService(t.db, owner, form({ name: "Owner's service", code: "OWN-1", price: "" }));
    if (!result.ok) throw new Error(result.message);
    expect(await service(result.serviceId)).toMatchObject({ priceCents: null });
    expect(await t.lastActivity()).toMatchObject({ action: "create_service", locationId: null });
  });

  it("refuses a code the organization already uses, whatever case it was typed in", async () => {
    const manager = await as("manager", "WST");
    const result = await expectNoActivity(() => createService(t.db, manager, form({ code: " tox-glab " })));
    expect(result).toEqual({
      ok: false,
      refusal: "code_taken",
      message: "A service with the code TOX-GLAB already exists. Choose a different code.",
    });
  });

  it("refuses staff, and anyone acting from a location where they cannot change the catalogue", async () => {
    for (const [email, at] of [
      ["staff", "DTN"],
      ["multi", "NTH"],
      ["admin", "NTH"],
      ["newhire", "DTN"],
      ["manager", "all"],
    ] as const) {
      const actor = await as(email, at);
      const result = await expectNoActivity(() => createService(t.db, actor, form({ code: `NOPE-${email}` })));
      expect({ email, result }).toEqual({
        email,
        result: { ok: false, refusal: "forbidden", message: SERVICE_REFUSALS.forbidden },
      });
    }
    // The demo admin manages at Westside, so they may change services from there.
    const admin = await as("admin", "WST");
    expect((await createService(t.db, admin, form({ code: "ADM-WST" }))).ok).toBe(true);
  });
});

describe("listServices and serviceDetail", () => {
  it("lists active services by name with price, duration and recipe size, in one round trip", async () => {
    const staff = await as("staff", "DTN");
    t.resetRoundTrips();
    const list = await listServices(t.db, staff, ServiceListQuery.parse({}));
    expect(t.roundTrips()).toBe(1);
    const names = list.services.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain("Lip flip – toxin");
    expect(list.services.find((s) => s.code === "TOX-GLAB")).toMatchObject({
      name: "Glabellar lines – toxin",
      category: "Neurotoxin",
      priceCents: 28000,
      durationMinutes: 20,
      lines: 4,
      active: true,
    });
    expect(list.services.find((s) => s.code === "CONSULT")).toMatchObject({ lines: 0 });
  });

  it("searches name, code and category, ignoring case, and filters archived services", async () => {
    const staff = await as("staff", "DTN");
    const codes = async (query: Record<string, string>) =>
      (await listServices(t.db, staff, ServiceListQuery.parse(query))).services.map((s) => s.code).sort();
    expect(await codes({ q: "fil-" })).toEqual(["FIL-CHEEK", "FIL-JAW", "FIL-LIP", "FIL-NLF"]);
    expect(await codes({ q: "LIP" })).toEqual(["FIL-LIP"]);
    expect(await codes({ q: "consultation" })).toEqual(["CONSULT"]);
    expect(await codes({ status: "archived" })).toEqual(["TOX-LIPFLIP"]);
    expect(await codes({ q: "100%" })).toEqual([]);
  });

  it("pages 25 at a time", async () => {
    const owner = await as("owner", "all");
    const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
    await t.db.insert(schema.services).values(
      Array.from({ length: 30 }, (_, i) => ({
        organizationId: org?.id ?? "",
        name: `Zz paging ${String(i).padStart(2, "0")}`,
        code: `PAGE-${i}`,
      })),
    );
    const first = await listServices(t.db, owner, ServiceListQuery.parse({}));
    expect(first.services).toHaveLength(25);
    expect(first.pageCount).toBe(Math.ceil(first.total / 25));
    const last = await listServices(t.db, owner, ServiceListQuery.parse({ page: String(first.pageCount) }));
    expect(last.services.at(-1)?.name).toBe("Zz paging 29");
    expect(ServiceListQuery.parse({ page: "-3", status: "weird" })).toEqual({ q: "", status: "active", page: 1 });
  });

  it("shows one service with its recipe in each product's unit, and editors the variations to choose from", async () => {
    const staff = await as("staff", "DTN");
    const [lip] = await t.db.select().from(schema.services).where(eq(schema.services.code, "FIL-LIP"));
    t.resetRoundTrips();
    const detail = await serviceDetail(t.db, staff, lip?.id ?? "", { choices: false });
    expect(t.roundTrips()).toBe(1);
    expect(detail?.service).toMatchObject({ name: "Lip augmentation – filler", code: "FIL-LIP", priceCents: 75000 });
    expect(detail?.recipe.find((l) => l.variationId === variation(KYSSE))).toMatchObject({
      product: "Restylane Kysse",
      variation: "1 mL syringe",
      quantity: 100,
      baseUnit: "mL",
      unitScale: 100,
      usable: true,
    });
    expect(detail?.recipe.find((l) => l.variationId === variation(LIDOCAINE))).toMatchObject({
      quantity: 5,
      unitScale: 10,
    });
    expect(detail?.choices).toEqual([]);

    const manager = await as("manager", "WST");
    const editing = await serviceDetail(t.db, manager, lip?.id ?? "", { choices: true });
    expect(editing?.choices.map((c) => `${c.product} · ${c.variation}`)).toContain(BOTOX_100);
    expect(await serviceDetail(t.db, manager, "no-such-service", { choices: true })).toBeNull();
  });

  it("never shows another organization's services", async () => {
    const otherOrg = uuidv7();
    const otherService = uuidv7();
    await t.db.batch([
      t.db.insert(schema.organizations).values({ id: otherOrg, name: "Other Clinics" }),
      t.db
        .insert(schema.services)
        .values({ id: otherService, organizationId: otherOrg, name: "Secret", code: "TOX-GLAB" }),
    ]);
    const owner = await as("owner", "all");
    expect(await serviceDetail(t.db, owner, otherService, { choices: true })).toBeNull();
    const list = await listServices(t.db, owner, ServiceListQuery.parse({ q: "secret" }));
    expect(list.services).toEqual([]);
    expect(await expectNoActivity(() => archiveService(t.db, owner, otherService))).toMatchObject({
      refusal: "not_found",
    });
    expect(
      await addRecipeLine(t.db, owner, {
        serviceId: otherService,
        variationId: variation(PADS),
        quantity: quantity("1"),
      }),
    ).toMatchObject({ refusal: "not_found" });
  });
});

describe("updateService", () => {
  it("saves new details at the version the form was loaded at, logging before and after", async () => {
    const serviceId = await newService({ price: "100" });
    const manager = await as("manager", "WST");
    const fields = form({ name: "Renamed", code: "tst-renamed", price: "149.99", duration: "", category: "" });
    const result = await inOneBatch(() => updateService(t.db, manager, { serviceId, version: 1, ...fields }));
    expect(result).toEqual({ ok: true, changed: true, version: 2 });
    expect(await service(serviceId)).toMatchObject({
      name: "Renamed",
      code: "TST-RENAMED",
      priceCents: 14999,
      durationMinutes: null,
      category: null,
      version: 2,
    });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_service",
      entityId: serviceId,
      locationId: loc.WST,
      summary: {
        version: 2,
        before: {
          code: expect.stringMatching(/^TST-/),
          priceCents: 10000,
          durationMinutes: 60,
          category: "Dermal filler",
        },
        after: { name: "Renamed", code: "TST-RENAMED", priceCents: 14999, durationMinutes: null, category: null },
      },
    });
  });

  it("refuses a stale form with the conflict message, changing nothing", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const admin = await as("admin", "DTN");
    // Two people open the form at version 1; the first saves.
    expect(
      await updateService(t.db, admin, { serviceId, version: 1, ...form({ name: "First save", code: "TST-FIRST" }) }),
    ).toMatchObject({
      ok: true,
      changed: true,
    });
    const result = await expectNoActivity(() =>
      updateService(t.db, manager, { serviceId, version: 1, ...form({ name: "Second save", code: "TST-SECOND" }) }),
    );
    expect(result).toEqual({ ok: false, refusal: "changed_meanwhile", message: STALE });
    expect(await service(serviceId)).toMatchObject({ name: "First save", code: "TST-FIRST", version: 2 });
  });

  it("lets only one of two simultaneous saves of the same version through", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const results = await Promise.all(
      ["A", "B"].map((x) =>
        updateService(t.db, manager, { serviceId, version: 1, ...form({ name: `Racer ${x}`, code: `TST-RACE-${x}` }) }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, refusal: "changed_meanwhile", message: STALE }]);
    expect((await service(serviceId))?.version).toBe(2);
  });

  it("changes nothing and logs nothing when the values are the same", async () => {
    const serviceId = await newService({ name: "Unchanged", code: "TST-SAME" });
    const manager = await as("manager", "WST");
    const result = await expectNoActivity(() =>
      updateService(t.db, manager, { serviceId, version: 1, ...form({ name: "Unchanged", code: "tst-same" }) }),
    );
    expect(result).toEqual({ ok: true, changed: false, version: 1 });
    expect((await service(serviceId))?.version).toBe(1);
  });

  it("refuses another service's code, unknown services and staff", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    expect(
      await expectNoActivity(() =>
        updateService(t.db, manager, { serviceId, version: 1, ...form({ code: "fil-lip" }) }),
      ),
    ).toEqual({
      ok: false,
      refusal: "code_taken",
      message: "A service with the code FIL-LIP already exists. Choose a different code.",
    });
    expect(await updateService(t.db, manager, { serviceId: "nope", version: 1, ...form({}) })).toMatchObject({
      refusal: "not_found",
    });
    const staff = await as("staff", "DTN");
    expect(
      await expectNoActivity(() => updateService(t.db, staff, { serviceId, version: 1, ...form({ name: "Hijack" }) })),
    ).toMatchObject({
      refusal: "forbidden",
    });
    expect((await service(serviceId))?.version).toBe(1);
  });
});

describe("archiveService and restoreService", () => {
  it("archives and restores, bumping the version and logging both", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const archived = await inOneBatch(() => archiveService(t.db, manager, serviceId));
    expect(archived).toMatchObject({ ok: true, code: expect.stringMatching(/^TST-/) });
    expect(await service(serviceId)).toMatchObject({ active: false, version: 2 });
    expect(await t.lastActivity()).toMatchObject({
      action: "archive_service",
      entityId: serviceId,
      summary: { version: 2, before: { active: true }, after: { active: false } },
    });
    expect(await expectNoActivity(() => archiveService(t.db, manager, serviceId))).toEqual({
      ok: false,
      refusal: "already_archived",
      message: "This service is already archived.",
    });
    // A form loaded before the archive is now stale.
    expect(await updateService(t.db, manager, { serviceId, version: 1, ...form({ name: "Late" }) })).toMatchObject({
      refusal: "changed_meanwhile",
    });

    await inOneBatch(() => restoreService(t.db, manager, serviceId));
    expect(await service(serviceId)).toMatchObject({ active: true, version: 3 });
    expect(await t.lastActivity()).toMatchObject({ action: "restore_service", summary: { after: { active: true } } });
    expect(await expectNoActivity(() => restoreService(t.db, manager, serviceId))).toEqual({
      ok: false,
      refusal: "already_active",
      message: "This service is already active.",
    });
  });

  it("refuses staff and unknown services", async () => {
    const serviceId = await newService();
    const staff = await as("staff", "DTN");
    expect(await expectNoActivity(() => archiveService(t.db, staff, serviceId))).toMatchObject({
      refusal: "forbidden",
    });
    const manager = await as("manager", "WST");
    expect(await restoreService(t.db, manager, "nope")).toMatchObject({ refusal: "not_found" });
  });
});

describe("recipes, line by line", () => {
  it("adds lines in base units at each product's scale: 0.5 mL of filler is 50, 20 U of toxin is 20", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const first = expectDone(
      await inOneBatch(() =>
        addRecipeLine(t.db, manager, { serviceId, variationId: variation(KYSSE), quantity: quantity("0.5 mL") }),
      ),
    );
    expect(first).toMatchObject({ changed: true, version: 2 });
    expect(first.recipe).toMatchObject([
      { variationId: variation(KYSSE), quantity: 50, baseUnit: "mL", unitScale: 100 },
    ]);
    expect(await t.lastActivity()).toMatchObject({
      action: "update_recipe",
      entity: "service",
      entityId: serviceId,
      locationId: loc.WST,
      summary: {
        change: "add",
        version: 2,
        before: [],
        after: [{ variationId: variation(KYSSE), variation: KYSSE, quantity: 50 }],
      },
    });

    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(BOTOX_100), quantity: quantity("20") });
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(LIDOCAINE), quantity: quantity("0.5") });
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2 each") });
    expect(await recipe(serviceId)).toEqual({ [KYSSE]: 50, [BOTOX_100]: 20, [LIDOCAINE]: 5, [PADS]: 2 });
    expect(await service(serviceId)).toMatchObject({ version: 5 });
    expect(await t.lastActivity()).toMatchObject({
      summary: {
        change: "add",
        before: [
          { variation: BOTOX_100, quantity: 20 },
          { variation: LIDOCAINE, quantity: 5 },
          { variation: KYSSE, quantity: 50 },
        ],
        after: [
          { variation: PADS, quantity: 2 },
          { variation: BOTOX_100, quantity: 20 },
          { variation: LIDOCAINE, quantity: 5 },
          { variation: KYSSE, quantity: 50 },
        ],
      },
    });
  });

  it("refuses quantities finer than the product is measured in, or in another unit", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const add = (label: string, text: string) =>
      expectNoActivity(() =>
        addRecipeLine(t.db, manager, { serviceId, variationId: variation(label), quantity: quantity(text) }),
      );
    expect(await add(KYSSE, "0.505")).toEqual({
      ok: false,
      refusal: "quantity_step",
      message: "Restylane Kysse is measured in steps of 0.01 mL: use at most 2 decimal places.",
      line: 0,
    });
    expect(await add(BOTOX_100, "20.5")).toMatchObject({
      refusal: "quantity_step",
      message: "Botox Cosmetic is measured in whole U: enter a whole number.",
    });
    expect(await add(LIDOCAINE, "0.25")).toMatchObject({
      message: "Lidocaine 1% is measured in steps of 0.1 mL: use at most 1 decimal place.",
    });
    expect(await add(KYSSE, "1 U")).toMatchObject({
      refusal: "unit_mismatch",
      message: "Restylane Kysse is measured in mL: enter the quantity in mL.",
    });
    // Units are matched without regard to case.
    const done = await addRecipeLine(t.db, manager, {
      serviceId,
      variationId: variation(BOTOX_100),
      quantity: quantity("10 u"),
    });
    expect(expectDone(done).recipe).toMatchObject([{ quantity: 10 }]);
    expect(await recipe(serviceId)).toEqual({ [BOTOX_100]: 10 });
  });

  it("refuses a variation already in the recipe, archived, or not in the catalogue", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2") });
    expect(
      await expectNoActivity(() =>
        addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("3") }),
      ),
    ).toEqual({
      ok: false,
      refusal: "line_exists",
      message: "Alcohol prep pads · Box of 200 is already in this recipe. Change its quantity instead.",
      line: 0,
    });

    const archived = await archivedVariation();
    expect(
      await expectNoActivity(() =>
        addRecipeLine(t.db, manager, { serviceId, variationId: archived.id, quantity: quantity("1") }),
      ),
    ).toMatchObject({
      refusal: "variation_unavailable",
      message: `${archived.label} is archived. Choose an active product variation.`,
    });
    expect(
      await expectNoActivity(() =>
        addRecipeLine(t.db, manager, { serviceId, variationId: "nope", quantity: quantity("1") }),
      ),
    ).toMatchObject({
      refusal: "variation_unavailable",
      message: "That product variation is not in your catalogue. Choose one from the list.",
    });
    expect(await recipe(serviceId)).toEqual({ [PADS]: 2 });
  });

  it("changes a line's quantity, and changes nothing when it is the same", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(KYSSE), quantity: quantity("1") });
    const changed = expectDone(
      await inOneBatch(() =>
        updateRecipeLine(t.db, manager, { serviceId, variationId: variation(KYSSE), quantity: quantity("1.25") }),
      ),
    );
    expect(changed).toMatchObject({ changed: true, version: 3 });
    expect(await recipe(serviceId)).toEqual({ [KYSSE]: 125 });
    expect(await t.lastActivity()).toMatchObject({
      summary: { change: "update", before: [{ quantity: 100 }], after: [{ quantity: 125 }] },
    });

    const same = await expectNoActivity(() =>
      updateRecipeLine(t.db, manager, { serviceId, variationId: variation(KYSSE), quantity: quantity("1.250 mL") }),
    );
    expect(same).toMatchObject({ ok: true, changed: false, version: 3 });
    expect(
      await expectNoActivity(() =>
        updateRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2") }),
      ),
    ).toEqual({ ok: false, refusal: "no_line", message: SERVICE_REFUSALS.no_line, line: 0 });
    expect(
      await updateRecipeLine(t.db, manager, { serviceId, variationId: variation(KYSSE), quantity: quantity("1.255") }),
    ).toMatchObject({ refusal: "quantity_step" });
  });

  it("removes a line, even of an archived variation, and says when it is already gone", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const archived = await archivedVariation();
    await t.db.insert(schema.recipeLines).values({ serviceId, variationId: archived.id, quantity: 3 });
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(NEEDLES), quantity: quantity("1") });
    const detail = await serviceDetail(t.db, manager, serviceId, { choices: true });
    expect(detail?.recipe.find((l) => l.variationId === archived.id)).toMatchObject({ usable: false });
    expect(detail?.choices.some((c) => c.id === archived.id)).toBe(false);

    await inOneBatch(() => removeRecipeLine(t.db, manager, { serviceId, variationId: archived.id }));
    expect(await t.lastActivity()).toMatchObject({
      summary: {
        change: "remove",
        before: [{ variationId: variation(NEEDLES) }, { variationId: archived.id, quantity: 3 }],
        after: [{ variationId: variation(NEEDLES), quantity: 1 }],
      },
    });
    expect(await recipe(serviceId)).toEqual({ [NEEDLES]: 1 });
    expect(
      await expectNoActivity(() => removeRecipeLine(t.db, manager, { serviceId, variationId: archived.id })),
    ).toMatchObject({
      refusal: "no_line",
    });
  });

  it("is refused to staff and for unknown services, changing nothing", async () => {
    const serviceId = await newService();
    const staff = await as("staff", "DTN");
    const line = { serviceId, variationId: variation(PADS), quantity: quantity("2") };
    for (const attempt of [
      () => addRecipeLine(t.db, staff, line),
      () => updateRecipeLine(t.db, staff, line),
      () => removeRecipeLine(t.db, staff, line),
      () => saveRecipe(t.db, staff, { serviceId, version: 1, lines: [line] }),
    ]) {
      expect(await expectNoActivity(attempt)).toMatchObject({ ok: false, refusal: "forbidden" });
    }
    const manager = await as("manager", "WST");
    expect(await addRecipeLine(t.db, manager, { ...line, serviceId: "nope" })).toMatchObject({ refusal: "not_found" });
    expect(await recipe(serviceId)).toEqual({});
  });
});

describe("saveRecipe: the whole recipe at once", () => {
  it("replaces every line at the version the form was loaded at, logging before and after", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2") });
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(NEEDLES), quantity: quantity("1") });
    const lines = [
      { variationId: variation(BOTOX_100), quantity: quantity("24") },
      { variationId: variation(PADS), quantity: quantity("3") },
    ];
    const result = expectDone(await inOneBatch(() => saveRecipe(t.db, manager, { serviceId, version: 3, lines })));
    expect(result).toMatchObject({ changed: true, version: 4 });
    expect(await recipe(serviceId)).toEqual({ [BOTOX_100]: 24, [PADS]: 3 });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_recipe",
      summary: {
        change: "replace",
        version: 4,
        before: [
          { variation: NEEDLES, quantity: 1 },
          { variation: PADS, quantity: 2 },
        ],
        after: [
          { variation: PADS, quantity: 3 },
          { variation: BOTOX_100, quantity: 24 },
        ],
      },
    });

    // The same lines again change nothing; an empty recipe clears it.
    expect(await expectNoActivity(() => saveRecipe(t.db, manager, { serviceId, version: 4, lines }))).toMatchObject({
      ok: true,
      changed: false,
      version: 4,
    });
    expect(await inOneBatch(() => saveRecipe(t.db, manager, { serviceId, version: 4, lines: [] }))).toMatchObject({
      ok: true,
      changed: true,
      version: 5,
    });
    expect(await recipe(serviceId)).toEqual({});
  });

  it("refuses a stale recipe form with the conflict message, keeping the other person's lines", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    // Someone adds a line after the form was loaded at version 1.
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2") });
    const result = await expectNoActivity(() =>
      saveRecipe(t.db, manager, {
        serviceId,
        version: 1,
        lines: [{ variationId: variation(NEEDLES), quantity: quantity("1") }],
      }),
    );
    expect(result).toEqual({ ok: false, refusal: "changed_meanwhile", message: STALE });
    expect(await recipe(serviceId)).toEqual({ [PADS]: 2 });
  });

  it("is all or nothing: one bad line refuses the whole save and names that line", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    await addRecipeLine(t.db, manager, { serviceId, variationId: variation(PADS), quantity: quantity("2") });
    const result = await expectNoActivity(() =>
      saveRecipe(t.db, manager, {
        serviceId,
        version: 2,
        lines: [
          { variationId: variation(NEEDLES), quantity: quantity("1") },
          { variationId: variation(KYSSE), quantity: quantity("0.001") },
        ],
      }),
    );
    expect(result).toEqual({
      ok: false,
      refusal: "quantity_step",
      message: "Restylane Kysse is measured in steps of 0.01 mL: use at most 2 decimal places.",
      line: 1,
    });
    expect(
      await saveRecipe(t.db, manager, {
        serviceId,
        version: 2,
        lines: [
          { variationId: variation(NEEDLES), quantity: quantity("1") },
          { variationId: variation(NEEDLES), quantity: quantity("2") },
        ],
      }),
    ).toEqual({ ok: false, refusal: "duplicate_line", message: SERVICE_REFUSALS.duplicate_line });
    expect(await recipe(serviceId)).toEqual({ [PADS]: 2 });
    expect((await service(serviceId))?.version).toBe(2);
  });

  it("lets only one of two simultaneous saves of the same version through", async () => {
    const serviceId = await newService();
    const manager = await as("manager", "WST");
    const results = await Promise.all(
      [PADS, NEEDLES].map((label) =>
        saveRecipe(t.db, manager, {
          serviceId,
          version: 1,
          lines: [{ variationId: variation(label), quantity: quantity("2") }],
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, refusal: "changed_meanwhile", message: STALE }]);
    expect(Object.keys(await recipe(serviceId))).toHaveLength(1);
    const logged = await t.db
      .select({ n: count() })
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.entityId, serviceId), eq(schema.activityLog.action, "update_recipe")));
    expect(logged[0]?.n).toBe(1);
  });
});

/** A variation of a product made for the test, then archived (the seed's stay active). */
async function archivedVariation(): Promise<{ id: string; label: string }> {
  const [org] = await t.db.select({ id: schema.organizations.id }).from(schema.organizations);
  const productId = uuidv7();
  const id = uuidv7();
  const name = `Discontinued serum ${id.slice(-6)}`;
  await t.db.batch([
    t.db.insert(schema.products).values({
      id: productId,
      organizationId: org?.id ?? "",
      name,
      category: "Retail skincare",
      tracking: "bulk",
      baseUnit: "each",
    }),
    t.db.insert(schema.productVariations).values({ id, productId, name: "30 mL", unitsPerPackage: 1, active: false }),
  ]);
  return { id, label: `${name} · 30 mL` };
}
