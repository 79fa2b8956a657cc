// Purchasing end to end on a phone (issue 23, "Done when"): an admin at Downtown builds an order from
// the reorder suggestions (a product of this run's own with a par level and nothing on hand),
// submits it, prints it (a screenshot of the printed page, looked at), receives it in two partial
// receipts by GS1 scan, closes it once everything arrived, and the stock level rises by what came.
import { randomUUID } from "node:crypto";
import { gtinCheckDigit } from "../../app/catalog/gtin";
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const run = Date.now().toString(36).toUpperCase();

/** A valid GTIN-14 no other run used: digits of the clock, and the GS1 check digit. */
function uniqueGtin14() {
  const body = `1${String(Date.now()).slice(-12)}`;
  return `${body}${gtinCheckDigit(body)}`;
}

test("an order from the reorder suggestions: submitted, printed, received in two deliveries, closed", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = `Flow Toxin ${run}`;
  const vendor = `${name} Pharma`;
  const gtin = uniqueGtin14();
  const [dtn] = await onDatabase("SELECT id, organization_id AS org FROM locations WHERE code = 'DTN'", []);
  const [productId, variationId, vendorId] = [randomUUID(), randomUUID(), randomUUID()];
  const now = Date.now();
  await onDatabase(
    "INSERT INTO vendors (id, organization_id, name, lead_time_days, created_at) VALUES (?, ?, ?, 3, ?)",
    [vendorId, String(dtn?.org), vendor, now],
  );
  await onDatabase(
    `INSERT INTO products (id, organization_id, name, category, tracking, base_unit, default_vendor_id, created_at)
     VALUES (?, ?, ?, 'Flow test', 'serialized', 'U', ?, ?)`,
    [productId, String(dtn?.org), name, vendorId, now],
  );
  await onDatabase(
    `INSERT INTO product_variations (id, product_id, name, gtin, units_per_package, cost_cents, created_at)
     VALUES (?, ?, '100 U vial', ?, 100, 42000, ?)`,
    [variationId, productId, gtin, now],
  );
  await onDatabase(
    "INSERT INTO par_levels (location_id, variation_id, par, reorder_point, max, updated_at) VALUES (?, ?, 4, 2, 6, ?)",
    [String(dtn?.id), variationId, now],
  );
  const onHand = async () =>
    Number(
      (
        await onDatabase("SELECT on_hand AS n FROM stock_levels WHERE location_id = ? AND variation_id = ?", [
          String(dtn?.id),
          variationId,
        ])
      )[0]?.n ?? 0,
    );
  expect(await onHand()).toBe(0);

  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown: purchasing and inventory
  await page.goto("/purchase-orders");
  const group = page.getByTestId("reorder-view").getByRole("region", { name: vendor });
  await expect(group.getByTestId("reorder-why")).toContainText("order 6 vials to reach max 6");
  await group.getByRole("button", { name: "Draft an order of 1 line" }).click();
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(/^PO-\d{4}-\d{4,}$/);
  const number = (await heading.textContent()) ?? "";
  const orderPath = new URL(page.url()).pathname;

  // Submit: asked first, with what is sent.
  await page.getByRole("link", { name: "Submit…" }).click();
  await expect(page.getByText(`Submit ${number} to ${vendor}: 1 line`)).toBeVisible();
  await page.getByRole("button", { name: "Submit order" }).click();
  await expect(page.getByText("Submitted", { exact: true }).first()).toBeVisible();

  // Printed: the document alone, without the shell or the actions.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Receive against this order" })).toBeHidden();
  // The toast that said it was submitted is not on the paper either.
  await expect(page.getByText("Order submitted")).toBeHidden();
  await expect(page.getByText(vendor).first()).toBeVisible();
  await attachScreenshot(page, testInfo, "the order as printed");
  await page.emulateMedia({ media: "screen" });

  // Two deliveries, each scanned: 4 vials of one lot, then the 2 still expected of another.
  const receive = async (lot: string, expected: number, take: number) => {
    await page.goto(orderPath);
    await page.getByRole("button", { name: "Receive against this order" }).click();
    await expect(page).toHaveURL(/\/receiving\/[0-9a-f-]{36}\/add-products$/);
    await expect(page.getByRole("region", { name: `Ordered on ${number}` })).toBeVisible();
    const box = page.getByLabel("Scan GS1 barcode");
    await box.fill(`(01)${gtin}(17)300630(10)${lot}`);
    await box.press("Enter");
    await expect(page.getByLabel("Lot")).toHaveValue(lot);
    await expect(page.getByLabel("Quantity")).toHaveValue(String(expected));
    await page.getByLabel("Quantity").fill(String(take));
    await page.getByRole("button", { name: "Add line" }).click();
    await expect(page.getByRole("cell", { name: lot })).toBeVisible();
    await expectNoSidewaysScroll(page);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Complete receipt" }).click();
    await expect(page).toHaveURL(/\/print-labels$/);
  };
  await receive(`A${run}`, 6, 4);
  await page.goto(orderPath);
  await expect(page.getByText("Partly received", { exact: true }).first()).toBeVisible();
  expect(await onHand()).toBe(400);

  await receive(`B${run}`, 2, 2);
  await page.goto(orderPath);
  await expect(page.getByText("Received", { exact: true }).first()).toBeVisible();
  // What arrived: both deliveries, with their lots.
  await expect(page.getByText(`A${run}`).first()).toBeVisible();
  await expect(page.getByText(`B${run}`).first()).toBeVisible();
  await expect(page.getByText("Everything on this order has arrived.")).toBeVisible();
  expect(await onHand()).toBe(600);

  // Closed: nothing outstanding, so no reason is asked.
  await page.getByRole("link", { name: "Close this order…" }).click();
  await page.getByRole("button", { name: "Close order" }).click();
  await expect(page.getByText("Closed", { exact: true }).first()).toBeVisible();
  await attachScreenshot(page, testInfo, "the order closed, with what arrived");

  // The stock levels screen shows the six vials at Downtown.
  await page.goto(`/stock-levels?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.getByText(/600 U|6 vials/).first()).toBeVisible();
});
