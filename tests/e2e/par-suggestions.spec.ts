// Par levels suggested from usage end to end, on a phone without JavaScript (issue 23.4): a product
// of its own with a month of sales at Westside (written on the database: no screen books a sale
// yet), its suggestion from 30 days of use shown beside today's values, accepted with its checkbox,
// and the sheet showing the new levels.
import { randomUUID } from "node:crypto";
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DAY = 24 * 60 * 60 * 1000;

test("a manager accepts a par level suggested from 30 days of use, without JavaScript", async ({
  browser,
}, testInfo) => {
  const name = `Usage Swabs ${Date.now().toString(36).toUpperCase()}`;
  const [wst] = await onDatabase("SELECT id, organization_id AS org FROM locations WHERE code = 'WST'", []);
  const [productId, variationId, vendorId] = [randomUUID(), randomUUID(), randomUUID()];
  const now = Date.now();
  await onDatabase(
    "INSERT INTO vendors (id, organization_id, name, lead_time_days, created_at) VALUES (?, ?, ?, 14, ?)",
    [vendorId, String(wst?.org), `${name} Supply`, now],
  );
  await onDatabase(
    `INSERT INTO products (id, organization_id, name, category, tracking, base_unit, default_vendor_id, created_at)
     VALUES (?, ?, ?, 'Usage test', 'bulk', 'each', ?, ?)`,
    [productId, String(wst?.org), name, vendorId, now],
  );
  await onDatabase(
    "INSERT INTO product_variations (id, product_id, name, units_per_package, created_at) VALUES (?, ?, 'Box of 10', 10, ?)",
    [variationId, productId, now],
  );
  // 10 a day for 30 days: a box a day; 14 days' lead and a week: reorder point 21, max 51.
  for (let d = 1; d <= 30; d++) {
    await onDatabase(
      "INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type) VALUES (?, ?, ?, ?, -10, 'SALE')",
      [randomUUID(), now - d * DAY + 10 * 60 * 1000, String(wst?.id), variationId],
    );
  }

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside
  await page.goto(`/products/par-levels?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: "Last 30 days" }).click();
  const suggestions = page.getByRole("region", { name: "Suggested from the last 30 days of use at Westside" });
  await expect(suggestions).toBeVisible();
  const row = suggestions.getByRole("row").filter({ hasText: `${name} · Box of 10` });
  await expect(row).toContainText("30");
  await expect(row).toContainText("—");
  await expect(row).toContainText("51 / 21 / 51");
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "par levels suggested from usage, phone");

  await row.getByLabel(`Accept for ${name} Box of 10`).check();
  await suggestions.getByRole("button", { name: "Accept ticked" }).click();
  await expect(page.getByTestId("toast")).toContainText("1 par level set at Westside from 30 days of use.");
  await expect(page.getByLabel(`Par, ${name} Box of 10`, { exact: true })).toHaveValue("51");
  await expect(page.getByLabel(`Reorder point, ${name} Box of 10`, { exact: true })).toHaveValue("21");
  await expect(page.getByLabel(`Max, ${name} Box of 10`, { exact: true })).toHaveValue("51");
  // Accepted: nothing left to suggest for it.
  await expect(
    page
      .getByRole("region", { name: /Suggested from the last 30 days/ })
      .getByRole("row")
      .filter({ hasText: name }),
  ).toHaveCount(0);
  await context.close();
});
