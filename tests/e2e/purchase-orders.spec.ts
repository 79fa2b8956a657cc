// An administrator's purchase order on a phone (390 × 844), with JavaScript off: every step is a
// plain form. A new order to Henry Schein at Downtown, items found by searching the catalogue and
// added with their packages, a line's cost changed, submitted (asked first), then revised with a
// reason, which the order's history shows. Screenshots of the draft and the submitted order.
import { attachScreenshot, expect, expectNoSidewaysScroll, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };

test("an admin starts, fills, submits and revises an order without JavaScript", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic");
  await page.goto("/purchase-orders");
  await page.getByLabel("Vendor", { exact: true }).selectOption({ label: "Henry Schein" });
  await page.getByLabel(/^Note for the vendor/).fill("Leave at reception");
  await page.getByRole("button", { name: "New order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^PO-\d{4}-\d{4}$/);
  const number = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  await expect(page.getByTestId("order-lines-phone").getByText("No lines yet. Add the items to order.")).toBeVisible();

  // Henry Schein's products are listed first; a search finds the rest.
  await page.getByRole("link", { name: "Add items" }).click();
  await expect(page.getByRole("heading", { name: `Add items to ${number}` })).toBeVisible();
  await page.getByLabel("Product, SKU or GTIN").fill("prep pads");
  await page.getByRole("button", { name: "Search" }).click();
  const pads = page.getByRole("listitem").filter({ hasText: "Alcohol prep pads · Box of 200" });
  await pads.getByLabel("Packages").fill("1e9");
  await page.getByRole("button", { name: "Add to order" }).click();
  await expect(page.getByRole("alert")).toHaveText("Enter a whole number of packages, from 1 to 10,000.");
  await pads.getByLabel("Packages").fill("4");
  await page.getByRole("button", { name: "Add to order" }).click();
  await expect(page).toHaveURL(/\/purchase-orders\/[^/]+$/);
  // On a phone the lines read as blocks, the total last.
  const lines = page.getByTestId("order-lines-phone");
  const document = page.getByRole("article");
  await expect(lines.getByRole("listitem").filter({ hasText: "Alcohol prep pads · Box of 200" })).toContainText(
    "4 × $",
  );

  // The draft's line changed: its cost.
  await page.getByLabel("Unit cost ($)").fill("12.75");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(lines.getByRole("listitem").last()).toHaveText("Total$51.00");
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "purchase-order-draft-phone");

  // Submitted, asked first.
  await page.getByRole("link", { name: "Submit…" }).click();
  await expect(page.getByText(`Submit ${number} to Henry Schein: 1 line, $51.00?`)).toBeVisible();
  await page.getByRole("button", { name: "Submit order" }).click();
  await expect(document.locator("[data-status]")).toHaveText("Submitted");
  await expect(page.getByRole("link", { name: "Submit…" })).toHaveCount(0);

  // A revision needs a reason, and is kept in the order's history.
  const revise = page.getByRole("region", { name: "Revise this order" });
  await revise.getByLabel("Packages").fill("6");
  await revise.getByRole("button", { name: "Record revision" }).click();
  await expect(page.getByRole("region", { name: "Revise this order" }).getByLabel("Reason")).toBeVisible();
  const again = page.getByRole("region", { name: "Revise this order" });
  await again.getByLabel("Packages").fill("6");
  await again.getByLabel("Reason").fill("Vendor has a case price at 6 boxes");
  await again.getByRole("button", { name: "Record revision" }).click();
  await expect(page.getByText("Revision 1: Vendor has a case price at 6 boxes")).toBeVisible();
  await expect(page.getByText("Alcohol prep pads · Box of 200: 4 × $12.75 → 6 × $12.75")).toBeVisible();
  await expect(lines.getByRole("listitem").last()).toHaveText("Total$76.50");
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "purchase-order-revised-phone");
  await context.close();
});
