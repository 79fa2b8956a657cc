// Stock in end to end: a manager at Westside scans manufacturers' GS1 codes into a new receipt,
// completes it, prints its labels (the rendered barcodes are decoded back to the label codes) and
// sees the new stock in /api/stock-levels; a staff member of another location can neither see nor
// touch that receipt. The e2e database is shared: lots and references are unique to this run.
import { type Browser, expect, type Page } from "@playwright/test";
import { gtinCheckDigit } from "../../app/catalog/gtin";
import { decodeBarcodes } from "../support/decode-barcode";
import { signIn, test } from "./support";
import { wedgeType } from "./wedge";

const GS = "\u001d";
/** Botox Cosmetic 100 U vial and 50 U vial in the demo catalogue (scripts/seed/catalog.ts). */
const BOTOX_100 = { gtin: "00300239211001", label: /^Botox Cosmetic · 100 U vial / };
const BOTOX_50 = { gtin: "00300239210509", label: /^Botox Cosmetic · 50 U vial / };

const run = Date.now().toString(36).toUpperCase();

async function signedIn(browser: Browser, email: string) {
  // Screenshots at 4× so ZXing resolves a DataMatrix of a vial-sized label.
  const context = await browser.newContext({ deviceScaleFactor: 4 });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  return { context, page };
}

interface LevelRow {
  variationName: string;
  productName: string;
  onHand: number;
  location: { code: string };
}

/** On hand (base units) of a Botox variation at Westside, as /api/stock-levels reports it. */
async function onHandAtWestside(page: Page, variation: string): Promise<number> {
  const response = await page.request.get("/api/stock-levels?q=Botox&pageSize=100");
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: LevelRow[] };
  const row = items.find((r) => r.productName === "Botox Cosmetic" && r.variationName === variation);
  return row?.onHand ?? 0;
}

/** The option the Add line form has chosen (a select's own text would list every option). */
function chosenVariation(page: Page) {
  return page.getByLabel("Product variation").locator("option:checked");
}

async function scan(page: Page, payload: string) {
  const box = page.getByLabel("Scan GS1 barcode");
  await box.fill(payload);
  await box.press("Enter");
}

/** A manager at Westside starts a receipt, and is on its page. */
async function startReceiptAtWestside(page: Page, reference: string) {
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/receiving");
  await page.getByLabel(/Reference/).fill(reference);
  await page.getByRole("button", { name: "Start receiving" }).click();
  await expect(page).toHaveURL(/\/add-products$/);
}

test("a manager receives by GS1 scan, completes the receipt, prints labels, and stock goes up", async ({ browser }) => {
  const { context, page } = await signedIn(browser, "manager@demo.clinic"); // MANAGER at Westside only
  const before100 = await onHandAtWestside(page, "100 U vial");
  const before50 = await onHandAtWestside(page, "50 U vial");

  await page.goto("/receiving");
  const reference = `PS-${run}`;
  await page.getByLabel(/Reference/).fill(reference);
  await page.getByRole("button", { name: "Start receiving" }).click();
  await expect(page).toHaveURL(/\/receiving\/[0-9a-f-]{36}\/add-products$/);
  const receiptId = new URL(page.url()).pathname.split("/")[2] as string;

  // The raw form a keyboard-wedge scanner types: symbology identifier, GTIN, expiry with day 00
  // (the last day of the month), then the variable-length lot last.
  const lotA = `A${run}`;
  await scan(page, `]d201${BOTOX_100.gtin}17281100${GS}10${lotA}`);
  await expect(chosenVariation(page)).toHaveText(BOTOX_100.label);
  await expect(page.getByLabel("Lot")).toHaveValue(lotA);
  await expect(page.getByLabel("Expiration date")).toHaveValue("2028-11-30");
  await page.getByLabel("Quantity").fill("3");
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("cell", { name: lotA })).toBeVisible();

  // The bracketed form printed under the symbol, with a serial: one unit.
  const lotB = `B${run}`;
  await scan(page, `(01)${BOTOX_50.gtin}(17)270615(10)${lotB}(21)SN${run}`);
  await expect(chosenVariation(page)).toHaveText(BOTOX_50.label);
  await expect(page.getByLabel("Lot")).toHaveValue(lotB);
  await expect(page.getByLabel("Expiration date")).toHaveValue("2027-06-15");
  await expect(page.getByLabel("Serial")).toHaveValue(`SN${run}`);
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("cell", { name: lotB })).toBeVisible();

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Complete receipt" }).click();
  await expect(page).toHaveURL(new RegExp(`/receiving/${receiptId}/print-labels$`));
  await expect(page.getByTestId("toast")).toContainText("Receipt completed");
  // The toast floats over the sheet's corner: close it so every label can be photographed whole.
  await page.getByRole("button", { name: "Close notification" }).click();
  await expect(page.getByTestId("toast")).toHaveCount(0);

  // Four labels (three 100 U vials, one 50 U vial), each with its own code, product, lot and expiry.
  const labels = page.locator("[data-label-code]");
  await expect(labels).toHaveCount(4);
  await expect(labels.filter({ hasText: lotA })).toHaveCount(3);
  await expect(labels.filter({ hasText: lotB })).toContainText("Jun 15, 2027");
  await page.screenshot({ path: test.info().outputPath("print-labels.png"), fullPage: true });
  await test.info().attach("print-labels", { path: test.info().outputPath("print-labels.png") });

  // The barcodes as rendered (Code 128 and DataMatrix, by Westside's default profile) decode back
  // to the label codes.
  const codes = await labels.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-label-code")));
  expect(new Set(codes).size).toBe(4);
  for (const [index, code] of codes.entries()) {
    const png = await labels.nth(index).screenshot();
    expect(decodeBarcodes(png)).toEqual({ code128: code, dataMatrix: code });
  }

  // The receipt is history now: its page is read-only.
  await page.goto(`/receiving/${receiptId}/add-products`);
  await expect(page.getByRole("button", { name: "Add line" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Complete receipt" })).toHaveCount(0);

  expect(await onHandAtWestside(page, "100 U vial")).toBe(before100 + 300);
  expect(await onHandAtWestside(page, "50 U vial")).toBe(before50 + 50);

  // The vials are in /api/vials, sealed, with their lot and expiry.
  const vials = await page.request.get(`/api/vials?lot=${lotA}`);
  expect(vials.status()).toBe(200);
  const { items } = (await vials.json()) as { items: { state: string; expirationDate: string; labelCode: string }[] };
  expect(items).toHaveLength(3);
  for (const vial of items) {
    expect(vial).toMatchObject({ state: "sealed", expirationDate: "2028-11-30" });
    expect(codes).toContain(vial.labelCode);
  }

  // A staff member at Downtown can neither see this receipt nor add to it.
  const staff = await signedIn(browser, "staff@demo.clinic");
  await staff.page.goto("/receiving");
  await expect(staff.page.getByText(reference)).toHaveCount(0);
  for (const path of [`/receiving/${receiptId}/add-products`, `/receiving/${receiptId}/print-labels`]) {
    const response = await staff.page.goto(path);
    expect(response?.status()).toBe(404);
  }
  const forged = await staff.page.request.post(`/receiving/${receiptId}/add-products`, {
    form: { intent: "scan", scan: `01${BOTOX_100.gtin}10X` },
  });
  expect([403, 404]).toContain(forged.status());
  const api = await staff.page.request.get(`/api/stock-levels?locationId=${await westsideId(page)}`);
  expect(api.status()).toBe(403);

  await staff.context.close();
  await context.close();
});

/** Westside's id, from the manager's own locations. */
async function westsideId(page: Page): Promise<string> {
  const response = await page.request.get("/api/locations/my");
  const mine = (await response.json()) as { locationId: string; location: { code: string } }[];
  const westside = mine.find((m) => m.location.code === "WST");
  if (!westside) throw new Error("manager@demo.clinic has no Westside role");
  return westside.locationId;
}

/** A valid GTIN-14 no other run used: digits of the clock, and the GS1 check digit. */
function uniqueGtin14() {
  const body = `0${String(Date.now()).slice(-12)}`;
  return `${body}${gtinCheckDigit(body)}`;
}

test("an unknown GTIN is attached to a variation at receiving, and the bulk line goes in as a quantity", async ({
  page,
}) => {
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown: writes stock and the catalogue
  await expect(page).toHaveURL(/\/$/);

  // A new bulk product whose only variation has no GTIN yet.
  const product = `E2E Gauze ${run}`;
  await page.goto("/products/new");
  await page.getByLabel("Name", { exact: true }).fill(product);
  await page.getByLabel("Category").fill("Supplies");
  await page.getByLabel("Bulk (quantities)").check();
  await page.getByLabel("Base unit").fill("each");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const add = page.getByRole("region", { name: "Add a variation" });
  await add.getByLabel("Variation name").fill("Pack of 10");
  await add.getByLabel(/Units per package/).fill("10");
  await add.getByRole("button", { name: "Add variation" }).click();
  await expect(page.getByRole("heading", { name: "Pack of 10" })).toBeVisible();

  await page.goto("/receiving");
  await page.getByRole("button", { name: "Start receiving" }).click();
  await expect(page).toHaveURL(/\/add-products$/);
  const receiptId = new URL(page.url()).pathname.split("/")[2] as string;

  const gtin = uniqueGtin14();
  await scan(page, `(01)${gtin}(10)G${run}`);
  await expect(page.getByText(`GTIN ${gtin} is not in the catalogue`)).toBeVisible();
  await page.getByLabel("Attach to variation").selectOption({ label: `${product} · Pack of 10 (10 each, bulk)` });
  await page.getByRole("button", { name: "Attach GTIN" }).click();
  await expect(chosenVariation(page)).toHaveText(`${product} · Pack of 10 (10 each, bulk)`);
  await expect(page.getByLabel("Lot")).toHaveValue(`G${run}`);
  await page.getByLabel("Quantity").fill("2");
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("cell", { name: `G${run}` })).toBeVisible();

  // The catalogue knows the GTIN now: scanning it again fills the variation straight away.
  await scan(page, `01${gtin}`);
  await expect(chosenVariation(page)).toHaveText(`${product} · Pack of 10 (10 each, bulk)`);

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Complete receipt" }).click();
  await expect(page).toHaveURL(new RegExp(`/receiving/${receiptId}/print-labels$`));
  await expect(page.locator("[data-label-code]")).toHaveCount(0);

  const levels = await page.request.get(`/api/stock-levels?q=${encodeURIComponent(product)}`);
  const { items } = (await levels.json()) as { items: LevelRow[] };
  expect(items).toMatchObject([{ productName: product, variationName: "Pack of 10", onHand: 20 }]);
});

test("on a slow connection, the page finishing its load after a scan leaves the keys in the quantity being typed", async ({
  page,
}) => {
  await startReceiptAtWestside(page, `SLOW-${run}`);
  const box = page.getByLabel("Scan GS1 barcode");
  const quantity = page.getByLabel("Quantity");
  const found = page.getByRole("status").filter({ hasText: "Check the quantity and add the line." });
  // The box takes the focus when it is drawn: the next scan lands there.
  await expect(box).toBeFocused();

  // The scan's answer shows at once; the page's fresh data is held back until released.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\.data\?/, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue();
  });
  const idle = () =>
    page.waitForFunction(
      () =>
        (window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } }).__remixRouter?.state
          .navigation.state === "idle",
    );
  await scan(page, `(01)${BOTOX_100.gtin}(17)281100(10)S${run}`);
  await expect(found).toContainText(`lot S${run}`);
  await quantity.click();
  await page.keyboard.type("1");
  release();
  await idle();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.keyboard.type("2");
  await expect(quantity).toHaveValue("12");
  await expect(box).toHaveValue("");
  await page.unrouteAll();

  // Nothing being typed elsewhere: after the next scan, the box has the focus again.
  await scan(page, `(01)${BOTOX_50.gtin}(17)270615(10)T${run}`);
  await expect(found).toContainText(`lot T${run}`);
  await idle();
  await expect(box).toBeFocused();

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Cancel receipt" }).click();
  await expect(page).toHaveURL(/\/receiving$/);
});

test("a wedge scan anywhere on the receipt page lands in the GS1 field, and starts a fresh code there", async ({
  page,
}) => {
  await startReceiptAtWestside(page, `WEDGE-${run}`);
  // The page's own script watches the keys: wait until it runs.
  await page.waitForLoadState("networkidle");
  const box = page.getByLabel("Scan GS1 barcode");
  const found = page.getByRole("status").filter({ hasText: "Check the quantity and add the line." });

  // A person typing a lot by hand, then the scanner fires: the scan goes to the GS1 field, and the
  // lot typed by hand stays as it was.
  const lot = page.getByLabel("Lot");
  await lot.click();
  await page.keyboard.type("MY-LOT", { delay: 120 });
  const first = `(01)${BOTOX_100.gtin}(17)281100(10)W${run}`;
  await wedgeType(page, first, { enter: false });
  await expect(box).toHaveValue(first);
  await expect(box).toBeFocused();
  await expect(lot).toHaveValue("MY-LOT");
  await page.keyboard.press("Enter");
  await expect(found).toContainText(`lot W${run}`);
  await expect(chosenVariation(page)).toHaveText(BOTOX_100.label);

  // Nothing focused (a tap on the page): the scan still lands in the GS1 field.
  await page.getByRole("heading", { name: /Receipt at/ }).click();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const second = `(01)${BOTOX_50.gtin}(17)270615(10)X${run}`;
  await wedgeType(page, second, { enter: false });
  await expect(box).toHaveValue(second);
  await page.keyboard.press("Enter");
  await expect(found).toContainText(`lot X${run}`);
  await expect(chosenVariation(page)).toHaveText(BOTOX_50.label);

  // Half a code typed into the GS1 field by hand, then a scan: the scan replaces it.
  await box.click();
  await page.keyboard.type("(01)0030", { delay: 120 });
  await wedgeType(page, first, { enter: false });
  await expect(box).toHaveValue(first);

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Cancel receipt" }).click();
  await expect(page).toHaveURL(/\/receiving$/);
});
