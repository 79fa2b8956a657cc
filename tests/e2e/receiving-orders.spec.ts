// Receiving against a purchase order on a phone (390 × 844), issue 23: a manager at Westside picks
// the order awaiting delivery when starting to receive; the receipt lists what the order still
// expects; "Receive" fills Add line with a line's packages and the order's unit cost; a GS1 scan of
// the other line fills its packages too, with lot and expiry; one more box arrived than ordered, so
// completing asks why, and the order is received. The order is written with SQL (its own screens are
// the purchasing part's); the e2e database is shared, so lots and the order are this run's own.
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/** Botox Cosmetic 100 U vial in the demo catalogue (scripts/seed/catalog.ts). */
const BOTOX_100_GTIN = "00300239211001";
const run = Date.now().toString(36).toUpperCase();

/** A submitted order at Westside of 4 Botox 100 U vials and 10 boxes of prep pads; its id and number. */
async function westsideOrder(): Promise<{ id: string; number: string }> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();
  const rows = await onDatabase(
    `INSERT INTO purchase_orders (id, organization_id, location_id, vendor_id, year, sequence, number, status,
       created_at, submitted_at)
     SELECT ?, loc.organization_id, loc.id, (SELECT id FROM vendors WHERE organization_id = loc.organization_id
         ORDER BY name LIMIT 1), ?, seq.n, printf('PO-%d-%04d', ?, seq.n), 'submitted', ?, ?
     FROM locations AS loc, (SELECT coalesce(max(sequence), 0) + 1 AS n FROM purchase_orders WHERE year = ?) AS seq
     WHERE loc.code = 'WST' RETURNING number`,
    [id, year, year, now, now, year],
  );
  for (const [product, variation, packages, cents] of [
    ["Botox Cosmetic", "100 U vial", 4, 45_000],
    ["Alcohol prep pads", "Box of 200", 10, 1_234],
  ] as const) {
    await onDatabase(
      `INSERT INTO purchase_order_lines (id, order_id, variation_id, packages_ordered, units_per_package,
         unit_cost_cents, created_at)
       SELECT ?, ?, v.id, ?, v.units_per_package, ?, ? FROM product_variations AS v
         JOIN products AS p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?`,
      [crypto.randomUUID(), id, packages, cents, now, product, variation],
    );
  }
  return { id, number: String(rows[0]?.number) };
}

test("a manager receives an order in one delivery with one box extra, saying why", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const order = await westsideOrder();
  expect(order.number).toMatch(/^PO-\d{4}-\d{4,}$/);
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside only
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/receiving");
  const picker = page.getByLabel("Purchase order");
  await picker.selectOption((await picker.locator("option", { hasText: order.number }).getAttribute("value")) ?? "");
  await page.getByRole("button", { name: "Start receiving" }).click();
  await expect(page).toHaveURL(/\/receiving\/[0-9a-f-]{36}\/add-products$/);
  const receiptPath = new URL(page.url()).pathname;
  const expected = page.getByRole("region", { name: `Ordered on ${order.number}` });
  await expect(expected).toBeVisible();
  await attachScreenshot(page, testInfo, "receipt against an order, phone");
  await expectNoSidewaysScroll(page);

  // "Receive" on the pads fills Add line with the 10 boxes expected at the order's cost; 11 came.
  await expected.getByRole("link", { name: "Receive Alcohol prep pads · Box of 200" }).click();
  await expect(page.getByLabel("Quantity")).toHaveValue("10");
  await expect(page.getByLabel(/Unit cost/)).toHaveValue("12.34");
  await page.getByLabel("Quantity").fill("11");
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("cell", { name: /11/ }).first()).toBeVisible();

  // A GS1 scan of the Botox fills its lot, expiry and the 4 vials still expected.
  const lot = `PO${run}`;
  const box = page.getByLabel("Scan GS1 barcode");
  await box.fill(`(01)${BOTOX_100_GTIN}(17)300630(10)${lot}`);
  await box.press("Enter");
  await expect(page.getByLabel("Lot")).toHaveValue(lot);
  await expect(page.getByLabel("Quantity")).toHaveValue("4");
  await expect(page.getByLabel(/Unit cost/)).toHaveValue("450.00");
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("cell", { name: lot })).toBeVisible();

  // One box more than ordered: completing asks why, and refuses without it.
  const reason = page.getByLabel(/Received more than ordered: say why/);
  await expect(reason).toBeVisible();
  await attachScreenshot(page, testInfo, "receipt asking why more arrived, phone");
  await reason.fill("Vendor sent an extra box");
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Complete receipt" }).click();
  await expect(page).toHaveURL(new RegExp(`${receiptPath.replace("add-products", "print-labels")}$`));

  const [state] = await onDatabase(
    `SELECT po.status, (SELECT group_concat(packages_received, ',') FROM (SELECT packages_received FROM
       purchase_order_lines WHERE order_id = po.id ORDER BY packages_ordered)) AS received,
       (SELECT over_receipt_reason FROM receipts WHERE purchase_order_id = po.id) AS reason
     FROM purchase_orders AS po WHERE po.id = ?`,
    [order.id],
  );
  expect(state).toMatchObject({ status: "received", received: "4,11", reason: "Vendor sent an extra box" });

  // The receipt, now history, names its order and why more came.
  await page.goto(receiptPath);
  await expect(page.getByText("Vendor sent an extra box")).toBeVisible();
  await expect(page.getByRole("link", { name: order.number })).toBeVisible();
  await expectNoSidewaysScroll(page);
});
