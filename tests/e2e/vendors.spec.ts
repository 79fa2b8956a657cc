// Vendors end to end. The e2e database is shared by every spec file, so the vendors made here have
// unique names (a clock suffix); demo users and the demo catalogue are not changed.
import { type Browser, expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

const STALE =
  "Someone else changed this vendor while you were editing. Your changes were not saved: review the current values and save again.";

function uniqueName(prefix: string) {
  return `${prefix} ${Date.now().toString(36).toUpperCase()}`;
}

async function createVendor(page: Page, fields: { name: string; account?: string; contact?: string; email?: string }) {
  await page.goto("/vendors/new");
  await page.getByLabel("Name", { exact: true }).fill(fields.name);
  if (fields.account) await page.getByLabel("Account number").fill(fields.account);
  if (fields.contact) await page.getByLabel("Contact name").fill(fields.contact);
  if (fields.email) await page.getByLabel("Email").fill(fields.email);
  await page.getByRole("button", { name: "Create vendor" }).click();
}

async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  return { context, page };
}

test("a location admin creates a vendor, edits it, is refused a duplicate name, archives and restores it", async ({
  page,
}) => {
  const name = uniqueName("Medline");
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/vendors");
  await page.getByRole("link", { name: "New vendor" }).click();
  await expect(page).toHaveURL(/\/vendors\/new$/);

  // Each field's rule, shown next to it; nothing is created.
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Email").fill("orders@");
  await page.getByLabel("Lead time (days)").fill("400");
  await page.getByRole("button", { name: "Create vendor" }).click();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription(
    "Enter a valid email address, like orders@vendor.com, or leave it empty.",
  );
  await expect(page.getByLabel("Lead time (days)")).toHaveAccessibleDescription(
    /Enter the lead time as a whole number of days from 0 to 365, or leave it empty\./,
  );
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);

  await page.getByLabel("Account number").fill("MED-4411");
  await page.getByLabel("Contact name").fill("Jordan Reyes");
  await page.getByLabel("Email").fill("Orders@Medline.example");
  await page.getByLabel("Phone").fill("(555) 010-2030");
  await page.getByLabel("Lead time (days)").fill("3");
  await page.getByRole("button", { name: "Create vendor" }).click();
  await expect(page).toHaveURL(/\/vendors\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("toast")).toContainText("Vendor created");
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("orders@medline.example");
  const vendorUrl = page.url();

  // Edit.
  await page.getByLabel("Contact name").fill("Casey Brooks");
  await page.getByLabel("Lead time (days)").fill("5");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${name} is up to date.`);
  await expect(page.getByLabel("Contact name")).toHaveValue("Casey Brooks");
  await expect(page.getByLabel("Lead time (days)")).toHaveValue("5");

  // The list finds it by contact, with its details.
  await page.goto(`/vendors?q=${encodeURIComponent("casey brooks")}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("MED-4411");
  await expect(row).toContainText("orders@medline.example");
  await expect(row).toContainText("5 days");

  // The same name in another case is refused with a clear message.
  await createVendor(page, { name: name.toLowerCase() });
  await expect(page).toHaveURL(/\/vendors\/new$/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(
    `A vendor named ${name.toLowerCase()} already exists. Choose a different name, or edit that vendor.`,
  );

  // Archive: out of the active list and of the products' default vendor choices; restore brings it back.
  await page.goto(vendorUrl);
  await page.getByRole("button", { name: "Archive vendor" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${name} is no longer offered as a default vendor.`);
  await expect(page.getByText("Archived", { exact: true })).toBeVisible();
  await page.goto(`/vendors?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No active vendor matches “${name}”.`)).toBeVisible();
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await page.goto(`/vendors?q=${encodeURIComponent(name)}&status=archived`);
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Archived");
  await page.goto("/products/new");
  await expect(page.getByLabel("Default vendor").locator("option", { hasText: name })).toHaveCount(0);

  await page.goto(vendorUrl);
  await page.getByRole("button", { name: "Restore vendor" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${name} can be chosen as a default vendor again.`);
  await expect(page.getByRole("button", { name: "Archive vendor" })).toBeVisible();
  await page.goto("/products/new");
  await expect(page.getByLabel("Default vendor").locator("option", { hasText: name })).toHaveCount(1);
});

test("a save over someone else's change is refused, and the page shows the current values", async ({ browser }) => {
  const name = uniqueName("Henry Supply");
  const first = await signedIn(browser, "owner@demo.clinic");
  await createVendor(first.page, { name, contact: "Original Contact" });
  await expect(first.page).toHaveURL(/\/vendors\/[0-9a-f-]{36}$/);
  const url = first.page.url();

  const second = await signedIn(browser, "admin@demo.clinic");
  await second.page.goto(url);
  await expect(second.page.getByLabel("Contact name")).toHaveValue("Original Contact");

  await first.page.getByLabel("Contact name").fill("Saved First");
  await first.page.getByRole("button", { name: "Save changes" }).click();
  await expect(first.page.getByTestId("toast")).toContainText("is up to date.");

  await second.page.getByLabel("Contact name").fill("Saved Second");
  await second.page.getByRole("button", { name: "Save changes" }).click();
  await expect(second.page.getByRole("alert").filter({ hasText: STALE })).toBeVisible();
  await expect(second.page.getByLabel("Contact name")).toHaveValue("Saved First");

  // Reviewing the current values and saving again works.
  await second.page.getByLabel("Contact name").fill("Saved Second");
  await second.page.getByRole("button", { name: "Save changes" }).click();
  await expect(second.page.getByTestId("toast")).toContainText("is up to date.");
  await expect(second.page.getByLabel("Contact name")).toHaveValue("Saved Second");
  await first.context.close();
  await second.context.close();
});

test("a manager sees vendors read-only, and a forged save is refused", async ({ browser }) => {
  const name = uniqueName("Read Only Supply");
  const owner = await signedIn(browser, "owner@demo.clinic");
  await createVendor(owner.page, { name, account: "RO-1", email: "ro@supply.example" });
  await expect(owner.page).toHaveURL(/\/vendors\/[0-9a-f-]{36}$/);
  const url = owner.page.url();
  await owner.context.close();

  const { context, page } = await signedIn(browser, "manager@demo.clinic"); // MANAGER at Westside
  await page.goto(`/vendors?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("heading", { name: "Vendors" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New vendor" })).toHaveCount(0);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("ro@supply.example")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Archive vendor" })).toHaveCount(0);

  const forged = await page.request.post(url, {
    form: { intent: "update", version: "1", name: "Hijacked" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  const archive = await page.request.post(url, { form: { intent: "archive" }, maxRedirects: 0 });
  expect(archive.status()).toBe(403);
  const create = await page.goto("/vendors/new");
  expect(create?.status()).toBe(403);

  await page.goto(url);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await context.close();
});

test("staff get Access Denied on vendors", async ({ page }) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const response = await page.goto("/vendors");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});
