// The recipes import against a real database and a local R2: a file (CSV or XLSX) of service ×
// variation × quantity is stored under imports/<job>/, previewed as a difference against today's
// recipes (the file is the whole recipe of each service it names), and applied all at once or not
// at all: guarded on every named service's version, with import_recipes and each service's
// update_recipe row. Every row's problem is listed; a refused file leaves nothing behind.
import { eq, sql } from "drizzle-orm";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import writeXlsxFile from "write-excel-file/universal";
import type { ScopedActor } from "../../app/access/actor";
import { ORGANIZATION } from "../../app/access/permissions";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { RECIPES_FILE_MESSAGES } from "../../app/imports/recipes";
import {
  applyRecipes,
  discardRecipes,
  importRecipesNow,
  recipeImports,
  recipesPreview,
  uploadRecipes,
} from "../../app/imports/recipes.server";
import { RECIPES_REFUSALS } from "../../app/imports/recipes-outcome";
import { updateRecipeLine } from "../../app/services/recipe.server";
import { localR2 } from "../support/backups";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let r2: Awaited<ReturnType<typeof localR2>>;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();

function as(name: string, where: "DTN" | "WST" | "NTH" | typeof ORGANIZATION): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: where === ORGANIZATION ? ORGANIZATION : loc[where] };
}
const owner = () => as("owner", ORGANIZATION);

beforeAll(async () => {
  t = await freshDatabase();
  r2 = await localR2();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) users.set(name, (await signedIn(t.db, name)).user);
});
afterAll(async () => {
  await r2.close();
  await t.close();
});

const csv = (rows: string[][]) => new TextEncoder().encode(`\uFEFF${Papa.unparse(rows, { newline: "\r\n" })}\r\n`);

/** A service's recipe as "Product · Variation" → base units. */
async function recipe(code: string): Promise<Record<string, number>> {
  const rows = await t.db.all<{
    label: string;
    quantity: number;
  }>(sql`SELECT p.name || ' · ' || v.name AS label, l.quantity
    FROM recipe_lines AS l JOIN services AS s ON s.id = l.service_id JOIN product_variations AS v ON v.id = l.variation_id
    JOIN products AS p ON p.id = v.product_id WHERE s.code = ${code}`);
  return Object.fromEntries(rows.map((r) => [r.label, r.quantity]));
}

async function service(code: string) {
  const [row] = await t.db.select().from(schema.services).where(eq(schema.services.code, code));
  if (!row) throw new Error(`no service ${code}`);
  return row;
}

async function stored(): Promise<string[]> {
  const listed = await r2.files.list({ prefix: "imports/" });
  return listed.objects.map((o) => o.key).sort();
}

async function jobCount(): Promise<number> {
  const [row] = await t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM import_jobs WHERE kind = 'recipes'`);
  return row?.n ?? 0;
}

async function upload(rows: string[][], actor = owner(), fileName = "recipes.csv") {
  const result = await uploadRecipes(t.db, r2.files, actor, { fileName, bytes: csv(rows) });
  if (!result.ok) throw new Error(result.message);
  return result.jobId;
}

async function preview(jobId: string) {
  const result = await recipesPreview(t.db, r2.files, owner(), jobId);
  if (!result.ok) throw new Error(result.message);
  return result.preview;
}

const HEADER = ["Service Code", "SKU", "Quantity per service"];

describe("the preview", () => {
  it("stores the file under imports/<job>/, makes a preview job, and shows the difference against today's recipes", async () => {
    const before = await recipe("TOX-GLAB");
    expect(before["Botox Cosmetic · 100 U vial"]).toBe(20);
    const jobId = await upload([
      HEADER,
      ["tox-glab", "BTX-COS-100", "25"], // by code, any case: changed 20 → 25
      ["TOX-GLAB", "SUP-PREP-200", "2"], // unchanged
      ["TOX-GLAB", "00302992710012", "0.5"], // by GTIN: Restylane Lyft added, 0.5 mL = 50 at scale 100
      ["Cheek augmentation – filler", "RES-LYFT-1", "1.5 mL"], // by name, with the unit: 200 → 150
    ]);
    expect(await stored()).toContain(`imports/${jobId}/original.csv`);
    const [job] = await t.db.select().from(schema.importJobs).where(eq(schema.importJobs.id, jobId));
    expect(job).toMatchObject({ kind: "recipes", status: "preview", format: "csv", rowsTotal: 4, locationId: null });
    expect(JSON.parse(job?.headers ?? "[]")).toEqual(HEADER);
    expect(await t.lastActivity()).toMatchObject({ action: "upload_import", entity: "import_job", entityId: jobId });

    const p = await preview(jobId);
    expect(p.errors).toEqual([]);
    const glab = p.services.find((s) => s.code === "TOX-GLAB");
    expect(glab?.changed).toEqual([
      expect.objectContaining({
        label: "Botox Cosmetic · 100 U vial",
        before: 20,
        after: 25,
        beforeText: "20 U",
        afterText: "25 U",
      }),
    ]);
    expect(glab?.added).toEqual([
      expect.objectContaining({ label: "Restylane Lyft · 1 mL syringe", after: 50, afterText: "0.5 mL" }),
    ]);
    // The file is the whole recipe: the gloves and the needle it does not list are removed.
    expect(glab?.removed.map((l) => l.label).sort()).toEqual([
      "30G 1/2 in needles · Box of 100",
      "Nitrile exam gloves, medium · Box of 100",
    ]);
    expect(glab?.unchanged).toBe(1);
    const cheek = p.services.find((s) => s.code === "FIL-CHEEK");
    expect(cheek?.changed).toEqual([expect.objectContaining({ before: 200, after: 150, afterText: "1.5 mL" })]);
    expect(cheek?.removed.length).toBe(Object.keys(await recipe("FIL-CHEEK")).length - 1);
    expect(p.changes).toBe(1 + 1 + 2 + 1 + (cheek?.removed.length ?? 0));
    // Nothing changed yet.
    expect(await recipe("TOX-GLAB")).toEqual(before);
  });

  it("lists every row's problem with its row, column and value", async () => {
    const jobId = await upload([
      ["Title of the export"],
      ["Service", "GTIN", "Qty"],
      ["NOPE", "BTX-COS-100", "1"],
      ["TOX-CROW", "NOPE-SKU", "1"],
      ["TOX-CROW", "3.00239E+11", "1"],
      ["TOX-CROW", "RES-LYFT-1", "0.005"],
      ["TOX-CROW", "BTX-COS-100", "20 mL"],
      ["TOX-CROW", "BTX-COS-100", "24"],
      ["TOX-CROW", "BTX-COS-100", "24"],
      ["TOX-CROW", "SUP-PREP-200", ""],
      ["TOX-CROW", "SUP-PREP-200", "-2"],
      ["TOX-CROW", "38290514501", "1"],
    ]);
    const p = await preview(jobId);
    expect(p.errors.map((e) => [e.rowNumber, e.column, e.value])).toEqual([
      [3, "Service", "NOPE"],
      [4, "GTIN", "NOPE-SKU"],
      [5, "GTIN", "3.00239E+11"],
      [6, "Qty", "0.005"],
      [7, "Qty", "20 mL"],
      [9, "GTIN", "BTX-COS-100"],
      [10, "Qty", null],
      [11, "Qty", "-2"],
      [12, "GTIN", "38290514501"],
    ]);
    const says = p.errors.map((e) => e.message);
    expect(says[0]).toContain('No service has the code or name "NOPE"');
    expect(says[1]).toContain('No product variation has the SKU or GTIN "NOPE-SKU"');
    expect(says[2]).toContain("scientific notation");
    expect(says[3]).toContain("steps of 0.01 mL");
    expect(says[4]).toContain("measured in U");
    expect(says[5]).toContain("already listed for TOX-CROW on row 8");
    expect(says[6]).toContain("quantity is empty");
    expect(says[8]).toContain("leading zero may have been lost");

    const crow = await recipe("TOX-CROW");
    const versionBefore = (await service("TOX-CROW")).version;
    const activity = await t.activityCount();
    const refused = await applyRecipes(t.db, r2.files, owner(), { jobId, versions: p.versions });
    expect(refused).toMatchObject({ ok: false, refusal: "has_errors", message: RECIPES_REFUSALS.has_errors });
    expect(!refused.ok && refused.errors?.length).toBe(9);
    expect(await recipe("TOX-CROW")).toEqual(crow);
    expect((await service("TOX-CROW")).version).toBe(versionBefore);
    expect(await t.activityCount()).toBe(activity);
  });
});

describe("applying", () => {
  it("writes every named service's whole recipe in one batch, with its activity, and completes the job", async () => {
    const untouched = await recipe("TOX-FORE");
    const jobId = await upload([
      HEADER,
      ["TOX-LIPFLIP", "BTX-COS-100", "6"],
      ["TOX-LIPFLIP", "SUP-PREP-200", "2"],
      ["FIL-NLF", "JUV-UXC-1", "0.75"],
    ]);
    const p = await preview(jobId);
    const lipflip = await service("TOX-LIPFLIP");
    const nlf = await service("FIL-NLF");
    const applied = await applyRecipes(t.db, r2.files, owner(), { jobId, versions: p.versions });
    expect(applied).toEqual({ ok: true, changes: p.changes, services: 2 });
    expect(await recipe("TOX-LIPFLIP")).toEqual({
      "Botox Cosmetic · 100 U vial": 6,
      "Alcohol prep pads · Box of 200": 2,
    });
    expect(await recipe("FIL-NLF")).toEqual({ "Juvederm Ultra XC · 1 mL syringe": 75 });
    expect(await recipe("TOX-FORE")).toEqual(untouched);
    expect((await service("TOX-LIPFLIP")).version).toBe(lipflip.version + 1);
    expect((await service("FIL-NLF")).version).toBe(nlf.version + 1);

    const rows = await t.db.all<{ action: string; entity_id: string; summary: string }>(
      sql`SELECT action, entity_id, summary FROM activity_log WHERE action IN ('import_recipes', 'update_recipe')
        AND (entity_id = ${jobId} OR entity_id IN (${lipflip.id}, ${nlf.id})) ORDER BY action, entity_id`,
    );
    expect(rows.map((r) => r.action).sort()).toEqual(["import_recipes", "update_recipe", "update_recipe"]);
    const imported = rows.find((r) => r.action === "import_recipes");
    expect(JSON.parse(imported?.summary ?? "{}")).toMatchObject({
      fileName: "recipes.csv",
      changes: p.changes,
      services: 2,
    });
    const flip = JSON.parse(rows.find((r) => r.entity_id === lipflip.id)?.summary ?? "{}");
    expect(flip).toMatchObject({ code: "TOX-LIPFLIP", change: "import", version: lipflip.version + 1 });
    expect(
      flip.before.find((l: { variation: string }) => l.variation === "Botox Cosmetic · 100 U vial")?.quantity,
    ).toBe(4);
    expect(flip.after).toEqual([
      expect.objectContaining({ variation: "Alcohol prep pads · Box of 200", quantity: 2 }),
      expect.objectContaining({ variation: "Botox Cosmetic · 100 U vial", quantity: 6 }),
    ]);
    const [job] = await t.db.select().from(schema.importJobs).where(eq(schema.importJobs.id, jobId));
    expect(job).toMatchObject({ status: "completed", imported: p.changes, rowsDone: 3 });
    expect((await preview(jobId)).job).toMatchObject({ status: "completed", applied: p.changes });

    // Applying again changes nothing: the job is no longer a preview.
    const again = await applyRecipes(t.db, r2.files, owner(), { jobId, versions: p.versions });
    expect(again).toMatchObject({ ok: false, refusal: "not_preview" });
  });

  it("changes nothing when a named service's recipe changed after the preview", async () => {
    const jobId = await upload([HEADER, ["TOX-GLAB-DYS", "SUP-PREP-200", "3"], ["FIL-LIP", "SUP-PREP-200", "1"]]);
    const p = await preview(jobId);
    const lip = await recipe("FIL-LIP");
    // Someone changes the Dysport recipe in the editor meanwhile.
    const dys = await service("TOX-GLAB-DYS");
    const [dysport] = await t.db.all<{
      id: string;
    }>(sql`SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE p.name = 'Dysport' AND v.name = '300 U vial'`);
    const edited = await updateRecipeLine(t.db, owner(), {
      serviceId: dys.id,
      variationId: dysport?.id ?? "",
      quantity: { mantissa: 60, divisor: 1, unit: null },
    });
    expect(edited.ok).toBe(true);
    const dysRecipe = await recipe("TOX-GLAB-DYS");
    const activity = await t.activityCount();
    const refused = await applyRecipes(t.db, r2.files, owner(), { jobId, versions: p.versions });
    expect(refused).toMatchObject({ ok: false, refusal: "changed_meanwhile" });
    expect(await recipe("FIL-LIP")).toEqual(lip);
    expect(await recipe("TOX-GLAB-DYS")).toEqual(dysRecipe);
    expect(await t.activityCount()).toBe(activity);
    const [job] = await t.db.select().from(schema.importJobs).where(eq(schema.importJobs.id, jobId));
    expect(job?.status).toBe("preview");
    // A new preview reads the new versions, and applies.
    const fresh = await preview(jobId);
    expect(await applyRecipes(t.db, r2.files, owner(), { jobId, versions: fresh.versions })).toMatchObject({
      ok: true,
    });
    expect(await recipe("TOX-GLAB-DYS")).toEqual({ "Alcohol prep pads · Box of 200": 3 });
  });

  it("reads an XLSX file (numbers as the sheet shows them) and stores it with the CSV it reads as", async () => {
    const blob = await writeXlsxFile([
      [{ value: "Service" }, { value: "GTIN" }, { value: "Quantity" }],
      [{ value: "CONSULT" }, { value: 76137602202, type: Number }, { value: 1, type: Number }],
      [{ value: "CONSULT" }, { value: "038290514501" }, { value: 2.5, type: Number }],
    ]).toBlob();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const uploaded = await uploadRecipes(t.db, r2.files, owner(), { fileName: "Recipes.XLSX", bytes });
    expect(uploaded.ok).toBe(true);
    if (!uploaded.ok) return;
    expect(await stored()).toEqual(
      expect.arrayContaining([`imports/${uploaded.jobId}/original.xlsx`, `imports/${uploaded.jobId}/rows.csv`]),
    );
    const p = await preview(uploaded.jobId);
    // 76137602202 lost its leading zero in the sheet: flagged, never repaired; 2.5 needles is not whole.
    expect(p.errors.map((e) => [e.rowNumber, e.column, e.value])).toEqual([
      [2, "GTIN", "76137602202"],
      [3, "Quantity", "2.5"],
    ]);
    expect(p.errors[0]?.message).toContain("leading zero may have been lost");
  });

  it("is listed newest first, and a discarded preview leaves nothing behind", async () => {
    const jobId = await upload([HEADER, ["CONSULT", "SUP-PREP-200", "1"]], owner(), "discard-me.csv");
    const listed = await recipeImports(t.db, owner(), 1);
    expect(listed.items[0]).toMatchObject({ id: jobId, fileName: "discard-me.csv", status: "preview" });
    expect(await discardRecipes(t.db, r2.files, owner(), jobId)).toEqual({ ok: true, fileName: "discard-me.csv" });
    expect((await stored()).filter((k) => k.startsWith(`imports/${jobId}/`))).toEqual([]);
    expect(await t.db.select().from(schema.importJobs).where(eq(schema.importJobs.id, jobId))).toEqual([]);
    expect(await t.lastActivity()).toMatchObject({ action: "discard_import", entityId: jobId });
  });
});

describe("importRecipesNow (the API)", () => {
  it("applies at once when no row has a problem", async () => {
    const jobId = await upload([HEADER, ["CONSULT", "SUP-PREP-200", "1"]]);
    expect(await importRecipesNow(t.db, r2.files, owner(), { id: jobId })).toMatchObject({
      ok: true,
      id: jobId,
      status: "completed",
      changes: 1,
    });
    expect(await recipe("CONSULT")).toEqual({ "Alcohol prep pads · Box of 200": 1 });
  });

  it("answers every row's problem and changes nothing otherwise", async () => {
    const jobId = await upload([HEADER, ["CONSULT", "SUP-PREP-200", "5"], ["CONSULT", "NOPE", "1"]]);
    const result = await importRecipesNow(t.db, r2.files, owner(), { id: jobId });
    expect(result).toMatchObject({
      ok: false,
      refusal: "has_errors",
      errors: [{ rowNumber: 3, column: "SKU", value: "NOPE" }],
    });
    expect(await recipe("CONSULT")).toEqual({ "Alcohol prep pads · Box of 200": 1 });
    const [job] = await t.db.select().from(schema.importJobs).where(eq(schema.importJobs.id, jobId));
    expect(job).toMatchObject({ status: "failed", errors: 1 });
  });
});

describe("refused files and who may import", () => {
  it("refuses a malformed file with a clear message, leaving no file and no job", async () => {
    const keys = await stored();
    const jobs = await jobCount();
    const activity = await t.activityCount();
    const tooMany = [HEADER, ...Array.from({ length: 5001 }, () => ["CONSULT", "SUP-PREP-200", "1"])];
    const cases: [string, Uint8Array<ArrayBuffer>, string][] = [
      ["empty.csv", new Uint8Array(0), RECIPES_FILE_MESSAGES.empty],
      ["big.csv", new Uint8Array(1024 * 1024 + 1).fill(65), RECIPES_FILE_MESSAGES.tooLarge],
      ["recipes.pdf", csv([HEADER]), RECIPES_FILE_MESSAGES.format],
      ["binary.csv", new Uint8Array([0x53, 0x00, 0x01, 0x02]), RECIPES_FILE_MESSAGES.binary],
      ["fake.xlsx", csv([HEADER]), RECIPES_FILE_MESSAGES.unreadableXlsx],
      [
        "headers.csv",
        csv([
          ["Name", "Thing", "Amount"],
          ["a", "b", "1"],
        ]),
        "no column for the service (its code or name), the product variation (its SKU or GTIN)",
      ],
      ["only-header.csv", csv([HEADER]), RECIPES_FILE_MESSAGES.empty],
      ["many.csv", csv(tooMany), RECIPES_FILE_MESSAGES.tooManyRows],
    ];
    for (const [fileName, bytes, says] of cases) {
      const result = await uploadRecipes(t.db, r2.files, owner(), { fileName, bytes });
      expect(result, fileName).toMatchObject({ ok: false, refusal: "file_refused" });
      if (!result.ok) expect(result.message, fileName).toContain(says);
    }
    expect(await stored()).toEqual(keys);
    expect(await jobCount()).toBe(jobs);
    expect(await t.activityCount()).toBe(activity);
  });

  it("lets admins import (WRITE_IMPORTS and the catalogue), not managers, and staff not even see a preview", async () => {
    const jobId = await upload([HEADER, ["CONSULT", "SUP-PREP-200", "1"]], as("admin", "DTN"));
    const file = { fileName: "r.csv", bytes: csv([HEADER, ["CONSULT", "SUP-PREP-200", "1"]]) };
    expect(await uploadRecipes(t.db, r2.files, as("manager", "WST"), file)).toMatchObject({ refusal: "forbidden" });
    expect(await uploadRecipes(t.db, r2.files, as("admin", "WST"), file)).toMatchObject({ refusal: "forbidden" });
    expect(await recipesPreview(t.db, r2.files, as("manager", "WST"), jobId)).toMatchObject({ ok: true });
    expect(await recipesPreview(t.db, r2.files, as("staff", "DTN"), jobId)).toMatchObject({ refusal: "forbidden" });
    const p = await preview(jobId);
    expect(await applyRecipes(t.db, r2.files, as("manager", "WST"), { jobId, versions: p.versions })).toMatchObject({
      refusal: "forbidden",
    });
    expect(await discardRecipes(t.db, r2.files, as("admin", "DTN"), jobId)).toMatchObject({ ok: true });
  });
});
