// The catalogue end to end. The e2e database is shared by every spec file: each test makes its own
// products (unique names, GTINs and barcodes) and does not rely on a seeded catalogue.
import { type Browser, expect, type Page } from "@playwright/test";
import { BARCODE_MESSAGES } from "../../app/catalog/barcode";
import { gtinCheckDigit } from "../../app/catalog/gtin";
import { CHANGED_MEANWHILE } from "../../app/db/outage";
import { SAFETY_FIELDS_ADMIN_ONLY, TRACKING_LOCKED_HINT } from "../../app/products/constants";
import { attachScreenshot, onDatabase, signIn, test } from "./support";

const STALE =
  "Someone else changed this product while you were editing. Your changes were not saved: review the current values and save again.";

let serial = 0;
function unique() {
  serial += 1;
  return `${Date.now().toString(36).toUpperCase()}${serial}`;
}

/** A valid GTIN-13 no other run used: digits of the clock, and the GS1 check digit. */
function uniqueGtin() {
  serial += 1;
  const body = `2${String(Date.now()).slice(-9)}${String(serial % 100).padStart(2, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  return { context, page };
}

/** Through the "New product" form; lands on the new product's page. */
async function createProduct(page: Page, name: string) {
  await page.goto("/products");
  await page.getByRole("link", { name: "New product" }).click();
  await expect(page.getByRole("heading", { name: "New product" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Category").fill("E2E Neurotoxins");
  await page.getByLabel("Manufacturer (optional)").fill("E2E Pharma");
  await page.getByLabel("Serialized (item by item, e.g. vials)").check();
  await page.getByLabel("Base unit").fill("U");
  await page.getByLabel("Scale").selectOption("1");
  await page.getByLabel("Beyond-use after opening, in hours (optional)").fill("24");
  await page.getByLabel("Storage").selectOption({ label: "Refrigerated" });
  await page.getByLabel("Cost (optional)").fill("420.50");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Product created");
}

async function addVariation(page: Page, name: string, units: string, gtin = "") {
  const form = page.getByRole("region", { name: "Add a variation" });
  await form.getByLabel("Variation name").fill(name);
  await form.getByLabel("GTIN (optional)").fill(gtin);
  await form.getByLabel("Units per package (U)").fill(units);
  await form.getByRole("button", { name: "Add variation" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${name} was added.`);
  await expect(page.getByRole("region", { name, exact: true })).toBeVisible();
}

test("a manager creates a product with two variations and a barcode; every barcode rule is explained", async ({
  page,
}) => {
  const id = unique();
  const name = `E2E Toxin ${id}`;
  const code = `E2E-${id}`;
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await createProduct(page, name);
  await expect(page.getByRole("region", { name: "Details" }).getByLabel("Cost (optional)")).toHaveValue("420.50");

  // A wrong GS1 check digit is explained before anything is saved.
  const gtin = uniqueGtin();
  const wrong = `${gtin.slice(0, -1)}${(Number(gtin.slice(-1)) + 1) % 10}`;
  const add = page.getByRole("region", { name: "Add a variation" });
  await add.getByLabel("Variation name").fill("100 U vial");
  await add.getByLabel("GTIN (optional)").fill(wrong);
  await add.getByLabel("Units per package (U)").fill("100");
  await add.getByRole("button", { name: "Add variation" }).click();
  await expect(add.getByLabel("GTIN (optional)")).toHaveAccessibleDescription(
    new RegExp(`check digit is wrong: with these digits it should end in ${gtin.slice(-1)}`),
  );

  await addVariation(page, "100 U vial", "100", gtin);
  await addVariation(page, "50 U vial", "50");

  const vial100 = page.getByRole("region", { name: "100 U vial", exact: true });
  await expect(vial100).toContainText(gtin);
  await vial100.getByLabel("Barcode").fill(code.toLowerCase());
  await vial100.getByRole("button", { name: "Add barcode" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${code} now identifies 100 U vial.`);
  await expect(vial100.getByRole("list", { name: "Barcodes of 100 U vial" })).toContainText(code);

  // Each rule of spec section 5, next to the field, as the server answers it.
  const vial50 = page.getByRole("region", { name: "50 U vial", exact: true });
  const field = vial50.getByLabel("Barcode");
  const submit = vial50.getByRole("button", { name: "Add barcode" });
  const cases: [string, string[]][] = [
    ["", [BARCODE_MESSAGES.required]],
    ["    ", [BARCODE_MESSAGES.empty]],
    ["ab!c d", ["Invalid character(s) detected: !, space. Only A-Z, 0-9, hyphens, and underscores are allowed."]],
    ["abc", [BARCODE_MESSAGES.tooShort]],
    ["A".repeat(51), [BARCODE_MESSAGES.tooLong]],
    [code, [`Barcode ${code} is already used by ${name} — 100 U vial.`]],
  ];
  for (const [input, messages] of cases) {
    await field.fill(input);
    await submit.click();
    for (const message of messages) {
      await expect(vial50.getByText(message, { exact: true })).toBeVisible();
    }
  }
  // The stripped code is offered for a code with invalid characters.
  await field.fill("ab!c d");
  await expect(vial50).toContainText("Suggested code: ABCD");
  await vial50.getByRole("button", { name: "Use ABCD" }).click();
  await expect(field).toHaveValue("ABCD");
  await expect(vial50.getByRole("list", { name: "Barcodes of 50 U vial" })).toHaveCount(0);

  // The list finds the product by the barcode typed into its search.
  await page.goto(`/products?q=${code.toLowerCase()}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("E2E Neurotoxins");
  await expect(row).toContainText("Serialized");
  await expect(row.getByRole("cell").nth(4)).toHaveText("2");
});

test("a manager edits products; a staff user only reads them and a forged post is refused", async ({ browser }) => {
  const name = `E2E Filler ${unique()}`;
  const manager = await signedIn(browser, "manager@demo.clinic");
  await createProduct(manager.page, name);
  await addVariation(manager.page, "1 mL syringe", "1");
  const url = manager.page.url();

  const details = manager.page.getByRole("region", { name: "Details" });
  await details.getByLabel("Price (optional)").fill("650");
  await details.getByRole("button", { name: "Save changes" }).click();
  await expect(manager.page.getByTestId("toast")).toContainText(`${name} is up to date.`);
  await expect(details.getByLabel("Price (optional)")).toHaveValue("650.00");
  await expect(manager.page.getByRole("region", { name: "Recent changes" })).toContainText("Price: — → $650.00");
  await manager.context.close();

  const staff = await signedIn(browser, "staff@demo.clinic");
  await staff.page.goto("/products");
  await expect(staff.page.getByRole("heading", { name: "Products", exact: true })).toBeVisible();
  await expect(staff.page.getByRole("link", { name: "New product" })).toHaveCount(0);
  await staff.page.goto(url);
  await expect(staff.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(staff.page.getByRole("region", { name: "Details" })).toContainText("$650.00");
  await expect(staff.page.getByRole("region", { name: "1 mL syringe", exact: true })).toContainText("0 U");
  for (const button of ["Save changes", "Archive product", "Add variation", "Add barcode", "Save variation", "Save"]) {
    await expect(staff.page.getByRole("button", { name: button, exact: true })).toHaveCount(0);
  }
  await expect(staff.page.getByRole("textbox")).toHaveCount(0);

  const forged = await staff.page.request.post(url, {
    form: {
      intent: "update",
      version: "2",
      name: "Hijacked",
      category: "X",
      tracking: "bulk",
      baseUnit: "U",
      unitScale: "1",
      storage: "room",
    },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  const archive = await staff.page.request.post(url, { form: { intent: "archive" }, maxRedirects: 0 });
  expect(archive.status()).toBe(403);
  await staff.page.reload();
  await expect(staff.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await staff.context.close();
});

test("two people edit the same product: the second save is refused and the first save's values remain", async ({
  browser,
}) => {
  const name = `E2E Conflict ${unique()}`;
  const first = await signedIn(browser, "manager@demo.clinic");
  await createProduct(first.page, name);
  const url = first.page.url();
  const second = await signedIn(browser, "admin@demo.clinic");
  await second.page.goto(url);

  const firstForm = first.page.getByRole("region", { name: "Details" });
  const secondForm = second.page.getByRole("region", { name: "Details" });
  await firstForm.getByLabel("Name", { exact: true }).fill(`${name} (first)`);
  await secondForm.getByLabel("Name", { exact: true }).fill(`${name} (second)`);
  await secondForm.getByLabel("Price (optional)").fill("99.99");

  await firstForm.getByRole("button", { name: "Save changes" }).click();
  await expect(first.page.getByTestId("toast")).toContainText("is up to date.");

  await secondForm.getByRole("button", { name: "Save changes" }).click();
  await expect(secondForm.getByRole("alert")).toHaveText(STALE);
  // The form now shows the current values, and lists what was not saved.
  await expect(secondForm.getByLabel("Name", { exact: true })).toHaveValue(`${name} (first)`);
  await expect(secondForm).toContainText(`Name: ${name} (second)`);
  await expect(secondForm).toContainText("Price: 99.99");

  await second.page.reload();
  await expect(second.page.getByRole("heading", { name: `${name} (first)`, level: 1 })).toBeVisible();
  await expect(second.page.getByRole("region", { name: "Details" }).getByLabel("Price (optional)")).toHaveValue("");
  await first.context.close();
  await second.context.close();
});

test("only an organization admin changes the safety fields; tracking is fixed under stock, and each says why", async ({
  browser,
}, testInfo) => {
  const name = `E2E Midazolam ${unique()}`;
  const manager = await signedIn(browser, "manager@demo.clinic");
  await createProduct(manager.page, name);
  await addVariation(manager.page, "2 mL ampoule", "2");
  const url = manager.page.url().split("#")[0] ?? "";

  // The manager sees them read-only, with the reason, and still saves the rest of the product.
  const details = manager.page.getByRole("region", { name: "Details" });
  const safety = details.getByRole("region", { name: "Safety, at every location" });
  await expect(safety).toContainText("Serialized (item by item, e.g. vials)");
  await expect(safety).toContainText("24 h");
  await expect(safety.getByText(SAFETY_FIELDS_ADMIN_ONLY)).toBeVisible();
  await expect(details.getByRole("checkbox")).toHaveCount(0);
  await expect(details.getByLabel("Beyond-use after opening, in hours (optional)")).toHaveCount(0);
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    await manager.page.setViewportSize(viewport);
    await attachScreenshot(manager.page, testInfo, `manager-safety-${viewport.width}`);
    await manager.page.screenshot({ path: `/tmp/h6-shots/manager-safety-${viewport.width}.png`, fullPage: true });
  }
  await details.getByLabel("Price (optional)").fill("12");
  await details.getByRole("button", { name: "Save changes" }).click();
  await expect(manager.page.getByTestId("toast")).toContainText(`${name} is up to date.`);

  // The organization admin changes them; the recent changes list each one's before and after.
  const owner = await signedIn(browser, "owner@demo.clinic");
  await owner.page.goto(url);
  const ownerDetails = owner.page.getByRole("region", { name: "Details" });
  await ownerDetails.getByLabel("Controlled substance (wasting units needs a witness)").check();
  await ownerDetails.getByLabel("Beyond-use after opening, in hours (optional)").fill("72");
  await ownerDetails.getByRole("button", { name: "Save changes" }).click();
  await expect(owner.page.getByTestId("toast")).toContainText(`${name} is up to date.`);
  const changes = owner.page.getByRole("list", { name: "Recent changes" });
  await expect(changes).toContainText("Beyond-use (h): 24 h → 3 days");
  await expect(changes).toContainText("Controlled substance: no → yes");

  // Stock on hand was counted item by item: tracking is shown, not offered, and says what to do.
  await onDatabase(
    `INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at)
      SELECT l.id, v.id, 4, 0 FROM locations AS l, product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE l.code = 'DTN' AND p.name = ?`,
    [name],
  );
  await owner.page.reload();
  await expect(ownerDetails.getByText(TRACKING_LOCKED_HINT)).toBeVisible();
  await expect(ownerDetails.getByLabel("Bulk (quantities)")).toHaveCount(0);
  await owner.page.setViewportSize({ width: 390, height: 844 });
  await attachScreenshot(owner.page, testInfo, "owner-tracking-locked-390");
  await owner.page.screenshot({ path: "/tmp/h6-shots/owner-tracking-locked-390.png", fullPage: true });
  await manager.context.close();
  await owner.context.close();
});

test("a save the database refuses on a rule the form could not check says so and offers a reload, never an error page", async ({
  page,
  browser,
}, testInfo) => {
  const name = `E2E Frozen ${unique()}`;
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await createProduct(page, name);
  const productId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // A trigger stands in for any constraint behind the verb's own guards (a CHECK, a RAISE).
  const trigger = `e2e_frozen_${productId.replace(/[^0-9a-f]/gi, "")}`;
  await onDatabase(
    `CREATE TRIGGER ${trigger} BEFORE UPDATE ON products WHEN OLD.id = '${productId}'
      BEGIN SELECT RAISE(ABORT, 'frozen for this test'); END`,
    [],
  );
  try {
    const details = page.getByRole("region", { name: "Details" });
    await details.getByLabel("Price (optional)").fill("99");
    await details.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("heading", { name: "Not saved" })).toBeVisible();
    await expect(page.getByText(CHANGED_MEANWHILE)).toBeVisible();
    await page.screenshot({ path: "/tmp/h6-shots/conflict-1280.png", fullPage: true });
    await attachScreenshot(page, testInfo, "conflict");
    // The same before JavaScript loads: the page the server renders for the plain form post.
    const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const noScript = await plain.newPage();
    await signIn(noScript, "owner@demo.clinic");
    await noScript.goto(`/products/${productId}`);
    await noScript.getByRole("region", { name: "Details" }).getByLabel("Price (optional)").fill("98");
    await noScript.getByRole("region", { name: "Details" }).getByRole("button", { name: "Save changes" }).click();
    await expect(noScript.getByRole("heading", { name: "Not saved" })).toBeVisible();
    await expect(noScript.getByText(CHANGED_MEANWHILE)).toBeVisible();
    await noScript.screenshot({ path: "/tmp/h6-shots/conflict-nojs-390.png", fullPage: true });
    await plain.close();
  } finally {
    await onDatabase(`DROP TRIGGER IF EXISTS ${trigger}`, []);
  }
  await page.getByRole("link", { name: "Reload the page" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
});
