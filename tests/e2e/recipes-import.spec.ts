// The recipes import end to end: an admin uploads a file for a service of this test's own (the
// shared e2e database's seeded recipes are left alone), sees a row's problem and nothing offered to
// apply, uploads the corrected file as XLSX, applies it and finds the recipe on the service's page;
// a later file is previewed as changes and removals and discarded. On a phone too; a manager sees
// why the upload is not theirs. Files are made here, never real data.
import type { Page } from "@playwright/test";
import Papa from "papaparse";
import writeXlsxFile from "write-excel-file/universal";
import { attachScreenshot, expect, expectNoSidewaysScroll, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };

function uniqueCode(prefix: string) {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1296)
    .toString(36)
    .toUpperCase()}`;
}

async function uploadFile(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await page.getByLabel("Recipes file (CSV or XLSX)").setInputFiles({ name, mimeType, buffer });
  await page.getByRole("button", { name: "Upload and preview" }).click();
}

const csv = (rows: string[][]) => Buffer.from(`${Papa.unparse(rows, { newline: "\r\n" })}\r\n`);

test("an admin previews a recipes file, fixes it, applies it, and discards a later one", async ({ page }, testInfo) => {
  const code = uniqueCode("REC");
  const name = `Recipe import ${code}`;
  await signIn(page, "owner@demo.clinic");
  await page.goto("/services/new");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByTestId("toast")).toContainText("Service created");

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Recipes Import" }).click();
  await expect(page.getByRole("heading", { name: "Recipes Import", exact: true })).toBeVisible();

  // A file with an unknown SKU: its row is listed, and nothing can be applied.
  await uploadFile(
    page,
    "recipes-with-a-typo.csv",
    csv([
      ["Service Code", "SKU", "Quantity per service"],
      [code, "BTX-COS-100", "20"],
      [code, "BTX-COS-1OO", "1"],
    ]),
    "text/csv",
  );
  await expect(page.getByTestId("toast")).toContainText("File read");
  await expect(page.getByRole("heading", { name: "Preview of recipes-with-a-typo.csv" })).toBeVisible();
  const problems = page.getByRole("table", { name: "Rows with problems" });
  await expect(problems.getByRole("row").filter({ hasText: "Row 3" })).toContainText(
    'No product variation has the SKU or GTIN "BTX-COS-1OO".',
  );
  await expect(page.getByTestId("apply-unavailable")).toHaveText(
    "Nothing can be applied until every row is right: correct the file and upload it again.",
  );
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);

  // The corrected file, as a spreadsheet: the GTIN stays its digits, 0.5 mL is read in mL.
  const xlsx = await writeXlsxFile([
    [{ value: "Service" }, { value: "GTIN" }, { value: "Quantity" }],
    [{ value: code }, { value: "00300239211001" }, { value: 20, type: Number }],
    [{ value: code }, { value: "00302992710012" }, { value: 0.5, type: Number }],
  ]).toBlob();
  await uploadFile(
    page,
    "recipes.xlsx",
    Buffer.from(await xlsx.arrayBuffer()),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  );
  await expect(page.getByRole("heading", { name: "Preview of recipes.xlsx" })).toBeVisible();
  const changes = page.getByTestId(`service-diff-${code}`);
  await expect(changes).toContainText("Add Botox Cosmetic · 100 U vial: 20 U per service");
  await expect(changes).toContainText("Add Restylane Lyft · 1 mL syringe: 0.5 mL per service");
  await expect(page.getByTestId("preview-summary")).toContainText("2 changes to 1 service");
  await page.getByRole("button", { name: "Apply 2 changes" }).click();
  await expect(page.getByTestId("toast")).toContainText("2 changes to 1 service.");
  await expect(page.getByTestId("preview-summary")).toContainText("Applied · 2 rows");
  await expect(page.getByTestId("preview-summary")).toContainText("2 changes applied");
  await expect(
    page.getByRole("table", { name: "Recipes imports" }).getByRole("row").filter({ hasText: "recipes.xlsx" }),
  ).toContainText("Applied");

  // The service's page shows the recipe the file set.
  await page.goto("/services");
  await page.getByRole("link", { name }).click();
  await expect(page.getByText("0.5 mL").first()).toBeVisible();

  // A later file: more Botox, no Restylane (the file is the whole recipe). Previewed, then discarded.
  await page.goto("/recipes-import");
  await uploadFile(
    page,
    "less-filler.csv",
    csv([
      ["Service Code", "SKU", "Quantity per service"],
      [code, "BTX-COS-100", "25"],
    ]),
    "text/csv",
  );
  await expect(changes).toContainText("Change Botox Cosmetic · 100 U vial: 20 U → 25 U per service");
  await expect(changes).toContainText("Remove Restylane Lyft · 1 mL syringe: 0.5 mL per service");

  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "recipes import preview on a phone");

  await page.getByRole("button", { name: "Discard this upload" }).click();
  await expect(page.getByTestId("toast")).toContainText("less-filler.csv was discarded; no recipe was changed.");
  await expect(page.getByRole("heading", { name: /^Preview of/ })).toHaveCount(0);
});

test("a manager sees recipes imports but is told the upload is for administrators", async ({ page }) => {
  await signIn(page, "manager@demo.clinic");
  await page.goto("/recipes-import");
  await expect(page.getByRole("heading", { name: "Recipes Import", exact: true })).toBeVisible();
  await expect(page.getByTestId("no-recipes-import")).toContainText("importing recipes is for administrators");
  await expect(page.getByLabel("Recipes file (CSV or XLSX)")).toHaveCount(0);
});

test("the upload works without JavaScript, and a file over the limit is refused beside the form", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await signIn(page, "owner@demo.clinic");
    await page.goto("/recipes-import");
    await uploadFile(
      page,
      "no-script.csv",
      csv([
        ["Service Code", "SKU", "Quantity per service"],
        ["NO-SUCH-SERVICE", "BTX-COS-100", "20"],
      ]),
      "text/csv",
    );
    await expect(page.getByRole("heading", { name: "Preview of no-script.csv" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Rows with problems" })).toContainText(
      'No service has the code or name "NO-SUCH-SERVICE".',
    );
    await page.getByRole("button", { name: "Discard this upload" }).click();
    await expect(page.getByRole("heading", { name: /^Preview of/ })).toHaveCount(0);

    await uploadFile(page, "huge.csv", Buffer.alloc(1024 * 1024 + 10, "a"), "text/csv");
    await expect(page.getByText("A recipes file may be at most 1 MiB.")).toBeVisible();
  } finally {
    await context.close();
  }
});
