// Scan at the treatment cart, at a phone's width (390 × 844), as Westside's manager: a vial's label
// typed as a keyboard-wedge scanner types it (fast keys and Enter, no field focused) opens the
// vial; it is started, drawn from twice for a patient, shows its countdown and is emptied with
// units left. A discard without a reason is refused with a message under the field, and a
// controlled product's discard asks for a witness until one confirms with their password. Then
// the same screen at 1280 px, a catalogue code listing the variation's vials, and unknown codes.
// The e2e database is shared: the vials are Westside's Xeomin lot XM4390, which no other spec
// uses, and the controlled flag set on Xeomin for one step is taken off again.
import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { attachScreenshot, expect, onDatabase, signIn, test } from "./support";
import { wedgeType } from "./wedge";

const LOT = "XM4390";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

interface ListedVial {
  id: string;
  labelCode: string;
  productId: string;
  unitsRemaining: number;
}

/** The sealed vials of the lot at Westside (the manager's location): three in the demo data, one a test. */
async function sealedVials(page: Page): Promise<ListedVial[]> {
  const response = await page.request.get(`/api/vials?lot=${LOT}&state=sealed`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: ListedVial[] }).items;
}

/** Types `code` as a wedge scanner does: every key at once and Enter, with nothing focused. */
async function wedgeScan(page: Page, code: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
}

async function openScanScreen(page: Page) {
  await page.goto("/scan");
  await expect(page.getByRole("heading", { name: "Scan", level: 1 })).toBeVisible();
  // The wedge listener is the page's own script: wait until it runs.
  await page.waitForLoadState("networkidle");
}

const factOf = (page: Page, term: string) =>
  page.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");

test.describe("at phone size", () => {
  test.use({ viewport: PHONE });

  test("a wedge-scanned label: start, two draws for a patient, the countdown, empty with units left", async ({
    page,
  }, testInfo) => {
    await signIn(page, "manager@demo.clinic");
    const [vial] = await sealedVials(page);
    if (!vial) throw new Error(`no sealed vial of lot ${LOT} at Westside`);
    await openScanScreen(page);
    await attachScreenshot(page, testInfo, "scan-390-empty");

    await wedgeScan(page, vial.labelCode);
    await expect(page).toHaveURL(new RegExp(`/scan\\?code=${vial.labelCode}$`));
    await expect(page.getByRole("heading", { name: /Xeomin · 100 U vial/ })).toBeVisible();
    await expect(factOf(page, "Lot")).toHaveText(LOT);
    await expect(factOf(page, "State")).toHaveText("Sealed");
    await expect(page.getByTestId("units-left")).toHaveText("100 U");
    await expect(page.getByRole("link", { name: "Open vial page" })).toHaveAttribute("href", `/inventory/${vial.id}`);

    await page.getByRole("button", { name: "Start vial" }).click();
    await expect(page.getByTestId("toast")).toContainText("Vial started");
    await expect(factOf(page, "State")).toHaveText("In use");
    await expect(page.getByRole("timer")).toHaveText(/\d+(d|h|m)( \d+(h|m))? left$/);

    const patient = `CH-${Date.now().toString(36).toUpperCase()}`;
    for (const [units, left] of [
      ["20", "80 U"],
      ["15", "65 U"],
    ] as const) {
      const draw = page.getByRole("form", { name: "Record draw" });
      await draw.getByLabel("Units (U)").fill(units);
      await draw.getByLabel(/Patient reference/).fill(patient);
      await draw.getByRole("button", { name: "Record draw" }).click();
      await expect(page.getByTestId("units-left")).toHaveText(left);
      await expect(page.getByTestId("toast")).toContainText(`Drew ${units} U for chart ${patient}; ${left} left.`);
      // The form is cleared for the next draw.
      await expect(draw.getByLabel("Units (U)")).toHaveValue("");
    }
    await expect(page.getByRole("timer")).toBeVisible();
    await attachScreenshot(page, testInfo, "scan-390-in-use");

    // The draws are the vial's, with the patient, in its history (the vial page reads the same API).
    const history = (await (await page.request.get(`/api/vials/${vial.id}`)).json()) as {
      history: { kind: string; patientRef?: string | null }[];
    };
    expect(history.history.filter((h) => h.kind === "drawn").map((h) => h.patientRef)).toEqual([patient, patient]);

    // Emptying with units left asks first, naming what is lost; the vial is still in use until confirmed.
    const empty = page.getByRole("form", { name: "Empty vial" });
    await expect(empty).toContainText("what is left in it (65 U) is booked as waste");
    await empty.getByRole("button", { name: "Empty vial" }).click();
    const confirm = page.getByRole("form", { name: "Confirm: Yes, empty it" });
    await expect(confirm.getByTestId("waste-question")).toHaveText(
      /^Empty this vial\? 65 U of Xeomin, \$[\d,]+\.\d\d at cost, will be booked as waste\.$/,
    );
    await expect(factOf(page, "State")).toHaveText("In use");
    await expect(confirm.getByRole("link", { name: "Cancel" })).toBeVisible();
    await attachScreenshot(page, testInfo, "scan-390-empty-question");
    await confirm.getByRole("button", { name: "Yes, empty it" }).click();
    await expect(page.getByTestId("toast")).toContainText("Vial emptied");
    await expect(factOf(page, "State")).toHaveText("Empty");
    await expect(page.getByTestId("units-left")).toHaveText("0 U");
    await expect(page.getByRole("button", { name: /Start vial|Record draw|Empty vial|Discard vial/ })).toHaveCount(0);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await attachScreenshot(page, testInfo, "scan-390-emptied");
  });

  test("a discard needs a reason, and a controlled product's discard needs a witness", async ({ page }, testInfo) => {
    await signIn(page, "manager@demo.clinic");
    const [vial] = await sealedVials(page);
    if (!vial) throw new Error(`no sealed vial of lot ${LOT} at Westside`);
    await onDatabase("UPDATE products SET controlled = 1 WHERE id = ?", [vial.productId]);
    try {
      await openScanScreen(page);
      // Typed into the labelled input this time.
      await page.getByLabel("Barcode or label code").fill(vial.labelCode.toLowerCase());
      await page.getByLabel("Barcode or label code").press("Enter");
      const discard = page.getByRole("form", { name: "Discard vial" });
      await discard.getByRole("button", { name: "Discard vial" }).click();
      await expect(discard.getByText(/Choose why the vial is discarded/)).toBeVisible();
      await expect(discard.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");

      // With a reason it asks first; the witness confirms on that step.
      await discard.getByLabel("Reason").selectOption("damaged");
      await discard.getByRole("button", { name: "Discard vial" }).click();
      const confirm = page.getByRole("form", { name: "Confirm: Yes, discard it" });
      await expect(confirm.getByTestId("waste-question")).toHaveText(
        /^Discard this vial \(Damaged\)\? 100 U of Xeomin/,
      );
      await expect(confirm.getByRole("group", { name: "Witness (controlled substance)" })).toBeVisible();
      await confirm.getByRole("button", { name: "Yes, discard it" }).click();
      await expect(confirm.getByText(/a second person of this location must witness/)).toBeVisible();
      await expect(factOf(page, "State")).toHaveText("Sealed");
      await attachScreenshot(page, testInfo, "scan-390-witness");

      await confirm.getByLabel("Witness email").fill("admin@demo.clinic");
      await confirm.getByLabel("Witness password").fill(DEMO_PASSWORD);
      await confirm.getByRole("button", { name: "Yes, discard it" }).click();
      await expect(page.getByTestId("toast")).toContainText("Vial discarded");
      await expect(factOf(page, "State")).toHaveText("Discarded");
    } finally {
      await onDatabase("UPDATE products SET controlled = 0 WHERE id = ?", [vial.productId]);
    }
  });
});

test.describe("on a desktop", () => {
  test.use({ viewport: DESKTOP });

  test("a catalogue code lists the variation's vials here, first to use on top; bad and unknown codes say why", async ({
    page,
  }, testInfo) => {
    await signIn(page, "manager@demo.clinic");
    const [vial] = await sealedVials(page);
    if (!vial) throw new Error(`no sealed vial of lot ${LOT} at Westside`);
    await openScanScreen(page);
    await wedgeScan(page, vial.labelCode);
    await expect(page.getByRole("heading", { name: /Xeomin · 100 U vial/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "Start vial" })).toBeVisible();
    await attachScreenshot(page, testInfo, "scan-1280-vial");

    // The server renders a lookup by itself (?code=), before any script runs.
    const unknown = await page.request.get("/scan?code=NO-SUCH-CODE-1");
    expect(await unknown.text()).toContain("Nothing here has this code");
    await page.goto("/scan?code=a!");
    await expect(page.getByRole("alert")).toHaveText(
      "Invalid character(s) detected: !. Only A-Z, 0-9, hyphens, and underscores are allowed. Barcode code must be at least 4 characters long",
    );

    // Xeomin's catalogue barcode, as on its carton: the variation and its vials here.
    const scanned = "XEO-100U";
    await page.getByLabel("Barcode or label code").fill(scanned);
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByRole("heading", { name: /Xeomin · 100 U vial/ })).toBeVisible();
    await expect(page.getByText("the one to use first on top")).toBeVisible();
    await expect(page.getByText("Use first", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Receive Xeomin" })).toHaveAttribute("href", "/receiving");
    await attachScreenshot(page, testInfo, "scan-1280-variation");
  });

  test("a new scan replaces the code in the field: a wedge burst into it, or a focus that selects it", async ({
    page,
  }) => {
    await signIn(page, "manager@demo.clinic");
    const [vial] = await sealedVials(page);
    if (!vial) throw new Error(`no sealed vial of lot ${LOT} at Westside`);
    await openScanScreen(page);
    const field = page.getByLabel("Barcode or label code");
    await field.fill("XEO-100U");
    await field.press("Enter");
    await expect(page).toHaveURL(/\/scan\?code=XEO-100U$/);
    await expect(field).toHaveValue("XEO-100U");

    // The caret after the last code, as a person leaves it: a scanner's burst starts a fresh code.
    await field.click();
    await field.press("End");
    await wedgeType(page, vial.labelCode, { enter: false });
    await expect(field).toHaveValue(vial.labelCode);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/scan\\?code=${vial.labelCode}$`));
    await expect(page.getByRole("heading", { name: /Xeomin · 100 U vial/ })).toBeVisible();

    // Focusing the field selects its code: what is typed next, even slowly by hand, replaces it.
    await field.click();
    await page.keyboard.type("XEO-100U", { delay: 120 });
    await expect(field).toHaveValue("XEO-100U");
    // And it is still corrected by hand: a key that moves the caret keeps the code.
    await page.keyboard.press("End");
    await page.keyboard.type("X", { delay: 120 });
    await expect(field).toHaveValue("XEO-100UX");
  });

  test("a code of 5,000 characters of emoji is answered as any invalid code, without a hydration error", async ({
    page,
  }) => {
    await signIn(page, "manager@demo.clinic");
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`/scan?code=${encodeURIComponent("😀".repeat(2500))}`);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("alert")).toHaveText(
      "Invalid character(s) detected: 😀. Only A-Z, 0-9, hyphens, and underscores are allowed. Barcode code must be at least 4 characters long",
    );
    expect(problems).toEqual([]);
  });
});

test.describe("before JavaScript loads", () => {
  test.use({ viewport: PHONE, javaScriptEnabled: false });

  test("the card's actions are forms: an expired vial says why it cannot be started; a draw starts a vial and says so; an empty asks first", async ({
    page,
  }, testInfo) => {
    await signIn(page, "manager@demo.clinic");
    const [vial] = await sealedVials(page);
    if (!vial) throw new Error(`no sealed vial of lot ${LOT} at Westside`);
    const { expirationDate } = (await (await page.request.get(`/api/vials/${vial.id}`)).json()).vial as {
      expirationDate: string;
    };
    await onDatabase("UPDATE items SET expiration_date = '2026-01-21' WHERE id = ?", [vial.id]);
    try {
      await page.goto(`/scan?code=${vial.labelCode}`);
      await expect(
        page.getByText("Expired on Jan 21, 2026: it cannot be started. Discard it as expired."),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: /Start vial|Record draw/ })).toHaveCount(0);
      await expect(page.getByLabel("Reason")).toHaveValue("expired");
      await attachScreenshot(page, testInfo, "scan-390-expired");
    } finally {
      await onDatabase("UPDATE items SET expiration_date = ? WHERE id = ?", [expirationDate, vial.id]);
    }

    await page.goto(`/scan?code=${vial.labelCode}`);
    const draw = page.getByRole("form", { name: "Record draw" });
    await draw.getByLabel("Units (U)").fill("20");
    await draw.getByLabel(/Patient reference/).fill("10442");
    await draw.getByRole("button", { name: "Record draw" }).click();
    await expect(page).toHaveURL(new RegExp(`/scan\\?code=${vial.labelCode}$`));
    await expect(page.getByTestId("units-left")).toHaveText("80 U");
    await expect(page.getByTestId("toast")).toContainText(
      /Started now; use by .+ \(\d+ h\)\. Drew 20 U for chart 10442; 80 U left\./,
    );
    await expect(factOf(page, "State")).toHaveText("In use");

    await page.getByRole("button", { name: "Empty vial" }).click();
    await expect(page.getByTestId("waste-question")).toHaveText(/^Empty this vial\? 80 U of Xeomin/);
    await expect(factOf(page, "State")).toHaveText("In use");
    await attachScreenshot(page, testInfo, "scan-390-nojs-question");
    await page.getByRole("button", { name: "Yes, empty it" }).click();
    await expect(factOf(page, "State")).toHaveText("Empty");
    await expect(page.getByTestId("units-left")).toHaveText("0 U");
  });
});
