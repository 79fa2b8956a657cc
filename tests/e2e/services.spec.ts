// Services end to end, on the seeded demo catalogue. The e2e database is shared by every spec
// file: the services made here have unique codes, and the seeded ones are only read.
import { type Browser, expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

const STALE =
  "Someone else changed this service while you were editing. Your changes were not saved: review the current values and save again.";

/** A code no other run used. */
function uniqueCode(prefix: string) {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1296)
    .toString(36)
    .toUpperCase()}`;
}

/** Creates a service through "New service" and lands on its page. */
async function createService(page: Page, fields: { name: string; code: string; price?: string; duration?: string }) {
  await page.goto("/services/new");
  await page.getByLabel("Name").fill(fields.name);
  await page.getByLabel("Code").fill(fields.code.toLowerCase());
  await page.getByLabel("Category").fill("Dermal filler");
  await page.getByLabel("Price").fill(fields.price ?? "1,100");
  await page.getByLabel("Duration (minutes)").fill(fields.duration ?? "60");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByRole("heading", { name: fields.name })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Service created");
}

async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  return { page, close: () => context.close() };
}

const addQuantity = (page: Page) => page.getByLabel(/^Quantity( \(.+\))?$/);

test("a manager creates a service and builds a two-line recipe in each product's unit", async ({ page }) => {
  const code = uniqueCode("E2E");
  const name = `Jawline ${code}`;
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Services" }).click();
  await expect(page.getByRole("heading", { name: "Services", exact: true })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Glabellar lines – toxin" })).toContainText("4 lines");
  await page.getByRole("link", { name: "New service" }).click();
  await createService(page, { name, code });
  await expect(page.getByText(code, { exact: true })).toBeVisible(); // upper-cased

  // A filler at scale 100: 0.5 mL is stored as 50 and shown as 0.5 mL again.
  await page.getByLabel("Product variation").selectOption({ label: "Restylane Kysse · 1 mL syringe (mL)" });
  await expect(page.getByText("Measured in steps of 0.01 mL.")).toBeVisible();
  await addQuantity(page).fill("0.505");
  await page.getByRole("button", { name: "Add to recipe" }).click();
  await expect(addQuantity(page)).toHaveAccessibleDescription(
    /Restylane Kysse is measured in steps of 0\.01 mL: use at most 2 decimal places\./,
  );
  await addQuantity(page).fill("0.5");
  await page.getByRole("button", { name: "Add to recipe" }).click();
  await expect(page.getByTestId("toast")).toContainText("Restylane Kysse · 1 mL syringe: 0.5 mL per service");

  await page.getByLabel("Product variation").selectOption({ label: "Alcohol prep pads · Box of 200 (each)" });
  await addQuantity(page).fill("2");
  await page.getByRole("button", { name: "Add to recipe" }).click();
  await expect(page.getByTestId("toast")).toContainText("Alcohol prep pads · Box of 200: 2 each per service");

  const kysse = page.getByLabel("Quantity of Restylane Kysse · 1 mL syringe", { exact: true });
  await expect(kysse).toHaveValue("0.5");
  await expect(page.getByLabel("Quantity of Alcohol prep pads · Box of 200", { exact: true })).toHaveValue("2");
  await kysse.fill("1");
  await page.getByRole("button", { name: "Save quantity of Restylane Kysse · 1 mL syringe" }).click();
  await expect(page.getByTestId("toast")).toContainText("1 mL per service");

  // The whole recipe at once: swap the pads for a needle.
  await page.getByText("Edit the whole recipe at once").click();
  await page.getByLabel("Variation on line 1").selectOption({ label: "30G 1/2 in needles · Box of 100 (each)" });
  await page.getByLabel("Quantity on line 1").fill("1");
  await page.getByRole("button", { name: "Save recipe" }).click();
  await expect(page.getByTestId("toast")).toContainText("The recipe now has 2 lines.");
  await expect(page.getByLabel("Quantity of 30G 1/2 in needles · Box of 100", { exact: true })).toHaveValue("1");
  await expect(page.getByLabel("Quantity of Alcohol prep pads · Box of 200", { exact: true })).toHaveCount(0);

  await page.goto(`/services?q=${code}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("$1,100.00");
  await expect(row).toContainText("1 h");
  await expect(row).toContainText("2 lines");
});

test("a code already in use is refused with a clear message, even before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic");
  await page.goto("/services/new");
  await page.getByLabel("Name").fill("Second glabella");
  await page.getByLabel("Code").fill(" tox-glab ");
  await page.getByLabel("Price").fill("12.345");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByLabel("Price")).toHaveAccessibleDescription(/Enter the price in dollars and cents/);
  await page.getByLabel("Price").fill("280");
  await page.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByLabel("Code")).toHaveAccessibleDescription(
    /A service with the code TOX-GLAB already exists\. Choose a different code\./,
  );
  await context.close();
});

test("a save from a form someone else has changed since is refused and shows the current values", async ({
  browser,
}) => {
  const code = uniqueCode("STALE");
  const first = await signedIn(browser, "manager@demo.clinic");
  await createService(first.page, { name: `Stale test ${code}`, code });
  const url = first.page.url();
  const second = await signedIn(browser, "admin@demo.clinic");
  await second.page.goto(url);

  await first.page.getByLabel("Name").fill(`Renamed first ${code}`);
  await first.page.getByRole("button", { name: "Save changes" }).click();
  await expect(first.page.getByTestId("toast")).toContainText("is up to date");

  await second.page.getByLabel("Name").fill(`Renamed second ${code}`);
  await second.page.getByLabel("Price").fill("999");
  await second.page.getByRole("button", { name: "Save changes" }).click();
  await expect(second.page.getByRole("alert").filter({ hasText: STALE })).toBeVisible();
  await expect(second.page.getByLabel("Name")).toHaveValue(`Renamed first ${code}`);
  await expect(second.page.getByLabel("Price")).toHaveValue("1100.00");

  // Saving again from the current values goes through.
  await second.page.getByLabel("Price").fill("999");
  await second.page.getByRole("button", { name: "Save changes" }).click();
  await expect(second.page.getByTestId("toast")).toContainText("is up to date");
  await expect(second.page.getByLabel("Price")).toHaveValue("999.00");
  await first.close();
  await second.close();
});

test("staff read services and recipes but change nothing, not even with a forged post", async ({ page }) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/services");
  await expect(page.getByRole("link", { name: "New service" })).toHaveCount(0);
  await page.getByRole("link", { name: "Glabellar lines – toxin" }).click();
  await expect(page.getByRole("heading", { name: "Glabellar lines – toxin" })).toBeVisible();
  const botox = page.getByRole("row").filter({ hasText: "Botox Cosmetic · 100 U vial" });
  await expect(botox).toContainText("20 U");
  await expect(page.getByRole("row").filter({ hasText: "Alcohol prep pads" })).toContainText("2 each");
  await expect(page.getByText("$280.00")).toBeVisible();
  for (const name of ["Save changes", "Add to recipe", "Archive service", "Save recipe"]) {
    await expect(page.getByRole("button", { name })).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);

  const forgeries: Record<string, string>[] = [
    { intent: "update", name: "Hijacked", code: "TOX-GLAB", version: "1" },
    { intent: "archive" },
    { intent: "add-line", variationId: "x", quantity: "1" },
  ];
  for (const form of forgeries) {
    const forged = await page.request.post(page.url(), { form, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
  }
  const response = await page.goto("/services/new");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});
