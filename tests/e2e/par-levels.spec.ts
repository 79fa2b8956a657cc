// Par levels in bulk end to end. The e2e database is shared by every spec file: the product made
// here (through the product screens) has a unique name, and the page is filtered down to it.
import { expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

const REORDER_ABOVE_PAR = "The reorder point cannot be above the par level: reorder before you fall below par.";

/** A product with two variations, made through /products/new and its page; its name. */
async function createProductWithTwoVariations(page: Page) {
  const name = `Suture Kit ${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/products/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Category").fill("Surgical supplies");
  await page.getByLabel("Bulk (quantities)").check();
  await page.getByLabel("Base unit").fill("each");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  for (const variation of ["Box of 12", "Box of 36"]) {
    const add = page.getByRole("region", { name: "Add a variation" });
    await add.getByLabel("Variation name").fill(variation);
    await add.getByLabel(/Units per package/).fill(variation === "Box of 12" ? "12" : "36");
    await add.getByRole("button", { name: "Add variation" }).click();
    await expect(page.getByRole("heading", { name: variation })).toBeVisible();
  }
  return name;
}

const input = (page: Page, field: "Par" | "Reorder point" | "Max", product: string, variation: string) =>
  page.getByLabel(`${field}, ${product} ${variation}`, { exact: true });

test("a manager sets par levels for two variations at their location, and an invalid row saves nothing", async ({
  page,
}) => {
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside
  await expect(page).toHaveURL(/\/$/);
  const product = await createProductWithTwoVariations(page);

  // A static segment: /products/par-levels is the bulk page, not a product called "par-levels".
  const response = await page.goto(`/products/par-levels?q=${encodeURIComponent(product)}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Par levels at Westside" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: product })).toBeVisible();
  for (const field of ["Par", "Reorder point", "Max"] as const) {
    await expect(input(page, field, product, "Box of 12")).toHaveValue("");
  }

  await input(page, "Par", product, "Box of 12").fill("10");
  await input(page, "Reorder point", product, "Box of 12").fill("4");
  await input(page, "Max", product, "Box of 12").fill("20");
  await input(page, "Par", product, "Box of 36").fill("3");
  await input(page, "Reorder point", product, "Box of 36").fill("1");
  await page.getByRole("button", { name: "Save par levels" }).click();
  await expect(page.getByTestId("toast")).toContainText("2 par levels changed at Westside.");

  await page.reload();
  await expect(input(page, "Par", product, "Box of 12")).toHaveValue("10");
  await expect(input(page, "Reorder point", product, "Box of 12")).toHaveValue("4");
  await expect(input(page, "Max", product, "Box of 12")).toHaveValue("20");
  await expect(input(page, "Par", product, "Box of 36")).toHaveValue("3");
  await expect(input(page, "Max", product, "Box of 36")).toHaveValue("");

  // One valid change and one invalid row: the invalid row says why, and neither is saved.
  await input(page, "Par", product, "Box of 12").fill("12");
  await input(page, "Reorder point", product, "Box of 36").fill("5");
  await page.getByRole("button", { name: "Save par levels" }).click();
  await expect(input(page, "Reorder point", product, "Box of 36")).toHaveAccessibleDescription(REORDER_ABOVE_PAR);
  await expect(page.getByRole("alert").filter({ hasText: "One row has a problem. Nothing was saved" })).toBeVisible();
  await expect(input(page, "Par", product, "Box of 12")).toHaveValue("12");

  await page.reload();
  await expect(input(page, "Par", product, "Box of 12")).toHaveValue("10");
  await expect(input(page, "Reorder point", product, "Box of 36")).toHaveValue("1");

  // Emptying a row's three inputs removes its par level.
  await input(page, "Par", product, "Box of 36").fill("");
  await input(page, "Reorder point", product, "Box of 36").fill("");
  await page.getByRole("button", { name: "Save par levels" }).click();
  await expect(page.getByTestId("toast")).toContainText("1 par level changed at Westside (1 cleared).");
  await page.reload();
  await expect(input(page, "Par", product, "Box of 36")).toHaveValue("");
  await expect(input(page, "Par", product, "Box of 12")).toHaveValue("10");
});

test("an organization admin in organization mode picks a location first; staff only read", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const product = await createProductWithTwoVariations(page);
  await page.goto(`/products/par-levels?q=${encodeURIComponent(product)}`);
  await input(page, "Par", product, "Box of 12").fill("6");
  await input(page, "Reorder point", product, "Box of 12").fill("2");
  await page.getByRole("button", { name: "Save par levels" }).click();
  await expect(page.getByTestId("toast")).toContainText("1 par level changed at Westside.");
  await context.close();

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, "owner@demo.clinic");
  await expect(owner).toHaveURL(/\/$/);
  // What the location switcher's Organization option posts.
  await owner.request.post("/location", { form: { organization: "1" } });
  await owner.goto("/products/par-levels");
  await expect(owner.getByRole("heading", { name: "Par levels", exact: true })).toBeVisible();
  await expect(owner.getByText("Organization mode: choose a location first.")).toBeVisible();
  await owner.getByLabel("Location").selectOption({ label: "Westside (WST)" });
  await owner.getByRole("button", { name: "Show par levels" }).click();
  await expect(owner.getByRole("heading", { name: "Par levels at Westside" })).toBeVisible();
  await owner.getByLabel("Search by product or variation name or SKU").fill(product);
  await owner.getByRole("button", { name: "Filter" }).click();
  await expect(input(owner, "Par", product, "Box of 12")).toHaveValue("6");
  await input(owner, "Max", product, "Box of 12").fill("9");
  await owner.getByRole("button", { name: "Save par levels" }).click();
  await expect(owner.getByTestId("toast")).toContainText("1 par level changed at Westside.");
  await expect(owner).toHaveURL(/location=/);
  await expect(input(owner, "Max", product, "Box of 12")).toHaveValue("9");
  await ownerContext.close();

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, "staff@demo.clinic"); // STAFF at Downtown: READ_PRODUCTS only
  await expect(staff).toHaveURL(/\/$/);
  await staff.goto(`/products/par-levels?q=${encodeURIComponent(product)}`);
  await expect(staff.getByRole("heading", { name: "Par levels at Downtown" })).toBeVisible();
  await expect(staff.getByRole("columnheader", { name: product })).toBeVisible();
  await expect(staff.getByRole("button", { name: "Save par levels" })).toHaveCount(0);
  const forged = await staff.request.post("/products/par-levels", { form: { variationId: "x" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  await staffContext.close();
});
