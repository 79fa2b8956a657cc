// The activity log in a browser, at a desktop's width and a phone's (390 × 844): a vendor change
// recorded under the old noun_verb name (vendor_update, written before ADR 0027) and one under
// today's (update_vendor) are both found by the action filter's "Changed vendor", read in the same
// words, and each links to the vendor's page; the phone shows each row as a card without sideways
// scrolling; staff, whose role has no READ_ACTIVITY, are refused the screen and its CSV. The e2e
// database is shared: this run's rows carry its own note and are written an hour ahead, so they
// head the newest-first list. Screenshots go to /tmp/h2-*.png and to the report.
import { randomUUID } from "node:crypto";
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const run = Date.now().toString(36).toUpperCase();

/** Writes two vendor changes of this run (an old-named one at no location, a new-named one at Westside). */
async function vendorChanges(vendor: { id: string; name: string }, by: string) {
  const at = Date.now() + 60 * 60 * 1000;
  const row = (action: string, field: string, location: string | null, minutes: number) =>
    onDatabase(
      `INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
       VALUES (?, ?, (SELECT id FROM users WHERE email = ?),
         ${location ? "(SELECT id FROM locations WHERE code = ?)" : "NULL"}, ?, 'vendor', ?, ?)`,
      [
        randomUUID(),
        at + minutes * 60_000,
        by,
        ...(location ? [location] : []),
        action,
        vendor.id,
        JSON.stringify({ name: vendor.name, before: { [field]: null }, after: { [field]: `E2E ${run}` } }),
      ],
    );
  await row("vendor_update", "notes", null, 0);
  await row("update_vendor", "contactName", "WST", 1);
}

/** The first vendor of the list, with its id from its link. */
async function aVendor(page: import("@playwright/test").Page) {
  await page.goto("/vendors");
  const link = page.locator("table a[href^='/vendors/']").first();
  const href = (await link.getAttribute("href")) ?? "";
  return { id: href.replace("/vendors/", ""), name: ((await link.textContent()) ?? "").trim() };
}

test("an old-named and a new-named vendor change are found by one action, in the same words, each linking to the vendor", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const vendor = await aVendor(page);
  expect(vendor.id).not.toBe("");
  await vendorChanges(vendor, "owner@demo.clinic");

  await page.goto("/activity-log");
  await expect(page.getByRole("heading", { name: "Activity Log" })).toBeVisible();
  // Unfiltered: the demo's own history (receipts, vials, sign-ins) reads in words too, no action code.
  await expect(page.getByRole("row").nth(5)).toBeVisible();
  await expect(page.locator("td [data-action]").filter({ hasText: /\b[a-z]+_[a-z_]+\b/ })).toHaveCount(0);
  await page.screenshot({ path: "/tmp/h2-activity-log-all-1280.png", fullPage: true });
  await page.getByLabel("Action").selectOption({ label: "Changed vendor" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/action=update_vendor/);

  const rows = page.getByRole("row").filter({ hasText: `Changed vendor ${vendor.name}` });
  const newer = rows.filter({ has: page.locator("[data-action='update_vendor']") }).first();
  const older = rows.filter({ has: page.locator("[data-action='vendor_update']") }).first();
  await expect(newer).toContainText(`Changed vendor ${vendor.name}: contact name`);
  await expect(newer).toContainText("WST");
  await expect(older).toContainText(`Changed vendor ${vendor.name}: notes`);
  await expect(older).toContainText("Organization");
  await expect(older).toContainText("Olivia Owner");
  await page.screenshot({ path: "/tmp/h2-activity-log-1280.png", fullPage: true });
  await attachScreenshot(page, testInfo, "activity-log-1280.png");

  // The old row links to the vendor it is about.
  await older.getByRole("link", { name: `Changed vendor ${vendor.name}: notes` }).click();
  await expect(page).toHaveURL(new RegExp(`/vendors/${vendor.id}$`));
  await expect(page.getByRole("heading", { name: vendor.name })).toBeVisible();

  // Who did it: their name filters the list to them.
  await page.goBack();
  await older.getByRole("link", { name: "Olivia Owner" }).click();
  await expect(page).toHaveURL(/userId=/);
  await expect(page.getByLabel("User", { exact: true })).toHaveValue(/.+/);
  await expect(page.getByRole("row").filter({ hasText: "Maria Manager" })).toHaveCount(0);
});

test("on a phone each row is a card, filtered by action without sideways scrolling", async ({ page }, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const vendor = await aVendor(page);
  await vendorChanges(vendor, "manager@demo.clinic");

  await page.goto("/activity-log?action=vendor_update");
  // An old name in a link reads as today's: the choice shows "Changed vendor".
  await expect(page.getByLabel("Action")).toHaveValue("update_vendor");
  const card = page
    .getByRole("row")
    .filter({ hasText: `Changed vendor ${vendor.name}: contact name` })
    .first();
  await expect(card).toBeVisible();
  await expect(card).toContainText("Maria Manager");
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: "/tmp/h2-activity-log-390.png", fullPage: true });
  await attachScreenshot(page, testInfo, "activity-log-390.png");
  await card.getByRole("link", { name: `Changed vendor ${vendor.name}: contact name` }).click();
  await expect(page).toHaveURL(new RegExp(`/vendors/${vendor.id}$`));
});

test("staff cannot open the activity log or download it", async ({ page }) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const answer = await page.goto("/activity-log");
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await page.screenshot({ path: "/tmp/h2-activity-log-staff.png" });
  const csv = await page.request.get("/activity-log.csv");
  expect(csv.status()).toBe(403);
  await expect(page.getByRole("link", { name: "Activity Log" })).toHaveCount(0);
});
