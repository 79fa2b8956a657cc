// Issue 23's roles on purchase orders: a manager reads an order but cannot start one (the "New
// order" form is not offered and says why, and a forged post is refused), and a staff user does
// not see purchasing at all (no menu entry; the pages and the API answer the refusal). Also the
// order page as the browser prints it: the order alone, with its ship-to, vendor, lines and total,
// without the menu or the actions (screenshot attached, looked at).
import type { Page } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const FORBIDDEN = "You do not have permission to access this resource. Please contact your administrator.";

test.use({ viewport: PHONE });

async function one(sql: string, args: (string | number)[] = []): Promise<string> {
  const rows = await onDatabase(sql, args);
  const value = rows[0]?.[0];
  if (typeof value !== "string") throw new Error(`nothing for ${sql}`);
  return value;
}

/** A draft at Westside, made by the organization admin through the API (the manager there reads it). */
async function westsideOrder(page: Page): Promise<{ id: string; number: string }> {
  const westside = await one("SELECT id FROM locations WHERE code = 'WST'");
  const vendor = await one("SELECT id FROM vendors WHERE name = 'Henry Schein'");
  const pads = await one(
    `SELECT v.id FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE p.name = 'Alcohol prep pads' AND v.name = 'Box of 200'`,
  );
  await signIn(page, "owner@demo.clinic");
  const created = await page.request.post("/api/purchase-orders", {
    data: { locationId: westside, vendorId: vendor, lines: [{ variationId: pads, packages: 3 }] },
    headers: { "Idempotency-Key": crypto.randomUUID(), Origin: new URL(page.url()).origin },
  });
  expect(created.status()).toBe(201);
  const { purchaseOrder } = (await created.json()) as { purchaseOrder: { id: string; number: string } };
  await page.context().clearCookies();
  return purchaseOrder;
}

test("a manager reads an order but is not offered a new one, and a forged post is refused", async ({
  page,
}, testInfo) => {
  const order = await westsideOrder(page);
  await signIn(page, "manager@demo.clinic");
  await page.goto("/purchase-orders");
  await expect(page.getByRole("heading", { name: "Purchase Orders", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: order.number })).toBeVisible();
  // Not offered, and says why where the form would be.
  await expect(page.getByRole("button", { name: "New order" })).toHaveCount(0);
  await expect(page.getByTestId("no-new-order")).toHaveText(
    "Your role here can read purchase orders but not start one: an administrator does.",
  );
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "purchase-orders-manager-phone");

  await page.getByRole("link", { name: order.number }).click();
  await expect(page.getByRole("heading", { name: order.number, level: 1 })).toBeVisible();
  await expect(page.getByTestId("order-lines-phone").getByText("Alcohol prep pads · Box of 200")).toBeVisible();
  await expect(
    page.getByText("Your role here can read this order but not change it: an administrator does."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Submit…" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Add items" })).toHaveCount(0);
  await expectNoSidewaysScroll(page);

  // A post made by hand is refused by the door, whatever it carries.
  const origin = new URL(page.url()).origin;
  const westside = await one("SELECT id FROM locations WHERE code = 'WST'");
  const vendor = await one("SELECT id FROM vendors WHERE name = 'Henry Schein'");
  const forged = await page.request.post("/purchase-orders", {
    form: { intent: "create", locationId: westside, vendorId: vendor },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain(FORBIDDEN);
  const submit = await page.request.post(`/purchase-orders/${order.id}`, {
    form: { intent: "submit" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(submit.status()).toBe(403);
  const api = await page.request.post(`/api/purchase-orders/${order.id}/submit`, {
    data: {},
    headers: { Origin: origin },
  });
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ code: "forbidden" });
  const [row] = await onDatabase("SELECT status FROM purchase_orders WHERE id = ?", [order.id]);
  expect(row?.[0]).toBe("draft");
});

test("a staff user sees no purchasing: no menu entry, and the pages and the API refuse", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const menu = page.getByTestId("sidebar").getByRole("navigation", { name: "Main" });
  await expect(menu.getByRole("link", { name: "Receiving" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Purchase Orders" })).toHaveCount(0);
  const seeded = await one("SELECT id FROM purchase_orders WHERE status = 'submitted' ORDER BY created_at LIMIT 1");
  for (const path of ["/purchase-orders", `/purchase-orders/${seeded}`, `/purchase-orders/${seeded}/add-items`]) {
    const response = await page.goto(path);
    expect({ path, status: response?.status() }).toEqual({ path, status: 403 });
    await expect(page.getByText(FORBIDDEN)).toBeVisible();
  }
  const csv = await page.request.get(`/purchase-orders/${seeded}/lines.csv`, { maxRedirects: 0 });
  expect(csv.status()).toBe(403);
  const api = await page.request.get("/api/purchase-orders");
  expect(api.status()).toBe(403);
});

test("an order prints as a clean document for the vendor", async ({ page }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, "admin@demo.clinic");
  await page.goto("/purchase-orders?status=submitted");
  const number = await one(
    "SELECT number FROM purchase_orders WHERE status = 'submitted' AND note IS NOT NULL ORDER BY created_at LIMIT 1",
  );
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { name: number, level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Revise this order" })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  const document = page.getByRole("article");
  await expect(document.getByText("Ship to")).toBeVisible();
  await expect(document.getByText("Downtown (DTN)")).toBeVisible();
  await expect(document.getByText("100 Main Street")).toBeVisible();
  await expect(document.getByText("Allergan Aesthetics")).toBeVisible();
  await expect(document.getByRole("columnheader", { name: "Vendor SKU" })).toBeVisible();
  await expect(document.getByRole("row", { name: /Total/ })).toBeVisible();
  // On paper: no menu, no actions, no history.
  await expect(page.getByTestId("sidebar")).toBeHidden();
  await expect(page.getByRole("heading", { name: "Revise this order" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await attachScreenshot(page, testInfo, "purchase-order-printed");
  await testInfo.attach("purchase-order.pdf", { body: await page.pdf(), contentType: "application/pdf" });
  await page.emulateMedia({ media: "screen" });
  // The CSV of its lines, for the vendor's own system.
  const href = await page.getByRole("link", { name: "Download lines (CSV)" }).getAttribute("href");
  const csv = await page.request.get(href ?? "");
  expect(csv.status()).toBe(200);
  const rows = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(rows[0]).toBe("Vendor SKU,Product,Variation,Packages,Unit cost,Line total");
  expect(rows).toHaveLength(4);
});
