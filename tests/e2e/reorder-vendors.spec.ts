// The reorder view's first vendors on a phone without JavaScript: at Westside, twelve vendors of
// its own with suggestions (written on the database; the first with two, the rest one each), so the
// view shows the ten vendors with the most suggestions and links to all of them, and back.
import { randomUUID } from "node:crypto";
import { expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const SHOWN = 10;

test("the reorder view shows the ten vendors with the most suggestions, and all of them by a link", async ({
  browser,
}, testInfo) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const [wst] = await onDatabase("SELECT id, organization_id AS org FROM locations WHERE code = 'WST'", []);
  const now = Date.now();
  const vendors = Array.from({ length: 12 }, (_, i) => `Shown ${stamp} Vendor ${String(i + 1).padStart(2, "0")}`);
  for (const [i, vendor] of vendors.entries()) {
    const vendorId = randomUUID();
    await onDatabase(
      "INSERT INTO vendors (id, organization_id, name, lead_time_days, created_at) VALUES (?, ?, ?, 5, ?)",
      [vendorId, String(wst?.org), vendor, now],
    );
    // The first vendor has two suggestions: the most of ours, first of them.
    for (const n of i === 0 ? [1, 2] : [1]) {
      const [productId, variationId] = [randomUUID(), randomUUID()];
      await onDatabase(
        `INSERT INTO products (id, organization_id, name, category, tracking, base_unit, default_vendor_id, created_at)
         VALUES (?, ?, ?, 'Reorder test', 'bulk', 'each', ?, ?)`,
        [productId, String(wst?.org), `${vendor} Pads ${n}`, vendorId, now],
      );
      await onDatabase(
        "INSERT INTO product_variations (id, product_id, name, units_per_package, cost_cents, created_at) VALUES (?, ?, 'Box of 10', 10, 500, ?)",
        [variationId, productId, now],
      );
      await onDatabase(
        "INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at) VALUES (?, ?, 4, 2, 6, ?)",
        [String(wst?.id), variationId, now],
      );
    }
  }

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside: reads purchasing
  await page.goto("/purchase-orders");
  const view = page.getByTestId("reorder-view");
  const groups = view.getByRole("heading", { level: 3 });
  await expect(groups).toHaveCount(SHOWN);
  await expect(view.getByRole("region", { name: vendors[0] })).toBeVisible();
  const showAll = view.getByRole("link", { name: /^Show all \d+ vendors$/ });
  const total = Number((await showAll.textContent())?.match(/\d+/)?.[0]);
  expect(total).toBeGreaterThanOrEqual(vendors.length);
  await expect(view.getByTestId("reorder-vendors")).toContainText(`${SHOWN} of ${total} vendors shown.`);
  await expectNoSidewaysScroll(page);
  await view.getByTestId("reorder-vendors").scrollIntoViewIfNeeded();
  await testInfo.attach("reorder view, the first vendors' link, phone", {
    body: await page.screenshot(),
    contentType: "image/png",
  });

  await showAll.click();
  await expect(page).toHaveURL(/[?&]vendors=all\b/);
  await expect(groups).toHaveCount(total);
  for (const vendor of vendors) await expect(view.getByRole("region", { name: vendor })).toBeVisible();
  // The vendor with the most of ours comes before the rest of ours.
  const headings = await groups.allTextContents();
  const ours = headings.filter((h) => h.startsWith(`Shown ${stamp}`));
  expect(ours[0]).toBe(vendors[0]);

  await view.getByRole("link", { name: `Show only the ${SHOWN} vendors with the most` }).click();
  await expect(page).not.toHaveURL(/vendors=all/);
  await expect(groups).toHaveCount(SHOWN);
  await context.close();
});
