// The reorder view of /purchase-orders end to end, on a phone without JavaScript (issue 23.5): a
// product of its own with a par level at Downtown and nothing on hand (written on the database),
// suggested under its default vendor with why in one line, drafted in one click, then no longer
// offered (it is on the draft, which the line names), and shown on the draft's add-items page.
import { randomUUID } from "node:crypto";
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };

test("an admin drafts an order from the reorder suggestions in one click, without JavaScript", async ({
  browser,
}, testInfo) => {
  const name = `Reorder Gauze ${Date.now().toString(36).toUpperCase()}`;
  const [dtn] = await onDatabase("SELECT id, organization_id AS org FROM locations WHERE code = 'DTN'", []);
  const [productId, variationId, vendorId] = [randomUUID(), randomUUID(), randomUUID()];
  const now = Date.now();
  const vendor = `${name} Supply`;
  await onDatabase(
    "INSERT INTO vendors (id, organization_id, name, lead_time_days, created_at) VALUES (?, ?, ?, 5, ?)",
    [vendorId, String(dtn?.org), vendor, now],
  );
  await onDatabase(
    `INSERT INTO products (id, organization_id, name, category, tracking, base_unit, default_vendor_id, created_at)
     VALUES (?, ?, ?, 'Reorder test', 'bulk', 'each', ?, ?)`,
    [productId, String(dtn?.org), name, vendorId, now],
  );
  await onDatabase(
    "INSERT INTO product_variations (id, product_id, name, units_per_package, cost_cents, created_at) VALUES (?, ?, 'Box of 10', 10, 500, ?)",
    [variationId, productId, now],
  );
  await onDatabase(
    "INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at) VALUES (?, ?, 4, 2, 6, ?)",
    [String(dtn?.id), variationId, now],
  );

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown
  await page.goto("/purchase-orders");
  const view = page.getByTestId("reorder-view");
  const group = view.getByRole("region", { name: vendor });
  await expect(group.getByTestId("reorder-why")).toHaveText(
    "on hand 0 + on order 0 < reorder point 2; no use in 90 days; order 6 boxes to reach max 6",
  );
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "reorder view, phone");

  await group.getByRole("button", { name: "Draft an order of 1 line" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^PO-\d{4}-\d{4}$/);
  const number = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  await expect(
    page
      .getByTestId("order-lines-phone")
      .getByRole("listitem")
      .filter({ hasText: `${name} · Box of 10` }),
  ).toContainText("6 ×");

  // Back on the list: on the draft now, said so, and nothing left to draft for this vendor.
  await page.goto("/purchase-orders");
  const again = page.getByTestId("reorder-view").getByRole("region", { name: vendor });
  await expect(again.getByTestId("reorder-why")).toHaveText(
    `on hand 0 + on order 0 < reorder point 2; no use in 90 days; order 6 boxes to reach max 6; on draft ${number}`,
  );
  await expect(again.getByRole("link", { name: `On draft ${number}` })).toBeVisible();
  await expect(again.getByRole("button")).toHaveCount(0);
  await context.close();
});
