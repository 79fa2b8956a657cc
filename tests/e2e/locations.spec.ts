// Locations end to end. The e2e database is shared by every spec file, so the locations made here
// have unique codes and end archived (out of everyone's switcher); demo locations are not changed.
import { expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

/** A code no other run used: "E" and five base-36 characters of the clock. */
function uniqueCode() {
  return `E${Date.now().toString(36).toUpperCase().slice(-5)}`;
}

/** Opens the location switcher; its choices are the buttons of its "Where you work" form. */
async function openSwitcher(page: Page) {
  await page.getByTestId("location-switcher").locator("summary").click();
  return page.getByRole("form", { name: "Where you work" });
}

test("an organization admin sees every location, and a duplicate code is refused with a clear message", async ({
  browser,
}) => {
  // Before JavaScript loads, as a slow clinic PC would: the form is a plain post.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/locations");
  const active = page.getByRole("region", { name: "Active locations" });
  for (const name of ["Downtown", "Westside", "North"]) {
    await expect(active.getByRole("link", { name, exact: true })).toBeVisible();
  }

  await page.getByRole("link", { name: "New location" }).click();
  await page.getByLabel("Name").fill("Second Downtown");
  await page.getByLabel("Code").fill(" dtn ");
  await page.getByLabel("Time zone").fill("America/Chicago");
  await page.getByRole("button", { name: "Create location" }).click();
  await expect(page.getByLabel("Code")).toHaveAccessibleDescription(/A location with the code DTN already exists\./);

  await page.getByLabel("Code").fill("X");
  await page.getByLabel("Time zone").fill("Mars/Olympus");
  await page.getByRole("button", { name: "Create location" }).click();
  await expect(page.getByText("Use 2 to 8 letters (A–Z) or digits (0–9), like DTN.")).toBeVisible();
  await expect(page.getByText("Unknown time zone. Use an IANA name, like America/New_York.")).toBeVisible();
  await context.close();
});

test("an organization admin opens a location, which joins the switcher, and archiving removes it", async ({ page }) => {
  const code = uniqueCode();
  const name = `Pop-up ${code}`;
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/locations/new");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Code").fill(code.toLowerCase());
  await page.getByLabel("Address").fill("1 Market Square");
  await page.getByLabel("Time zone").fill("america/chicago");
  await page.getByRole("button", { name: "Create location" }).click();

  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByTestId("toast")).toContainText(`${name} (${code}) is open`);
  const row = page.getByRole("region", { name: "Active locations" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(code);
  await expect(row).toContainText("America/Chicago");

  let menu = await openSwitcher(page);
  await expect(menu.getByRole("button", { name: new RegExp(name) })).toBeVisible();
  await page.keyboard.press("Escape");

  await row.getByRole("link", { name }).click();
  await page.getByRole("button", { name: "Archive location" }).click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByTestId("toast")).toContainText(`${name} (${code}) is hidden from the location switcher.`);
  await expect(
    page.getByRole("region", { name: "Archived locations" }).getByRole("row").filter({ hasText: name }),
  ).toBeVisible();

  menu = await openSwitcher(page);
  await expect(menu.getByRole("button", { name: "Downtown" })).toBeVisible();
  await expect(menu.getByRole("button", { name: new RegExp(name) })).toHaveCount(0);
});

test("a location admin edits nothing but their own location and cannot open or archive locations", async ({ page }) => {
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown, MANAGER at Westside
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/locations");
  const active = page.getByRole("region", { name: "Active locations" });
  await expect(active.getByRole("link", { name: "Downtown" })).toBeVisible();
  await expect(active.getByRole("link", { name: "Westside" })).toBeVisible();
  await expect(active.getByRole("link", { name: "North" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "New location" })).toHaveCount(0);

  await active.getByRole("link", { name: "Westside" }).click();
  await expect(page.getByRole("heading", { name: "Westside" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  const forged = await page.request.post(page.url(), {
    form: { intent: "update", name: "Hijacked", code: "WST", timezone: "UTC" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);

  await page.goto("/locations");
  await active.getByRole("link", { name: "Downtown" }).click();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Archive location" })).toHaveCount(0);
  // Saving the same values changes nothing, so other tests still see the demo location as seeded.
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("toast")).toContainText("Downtown (DTN) is up to date.");
  const archive = await page.request.post(page.url(), { form: { intent: "archive" }, maxRedirects: 0 });
  expect(archive.status()).toBe(403);

  const response = await page.goto("/locations/new");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});
