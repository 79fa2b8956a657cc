// The text rule on a screen (app/forms/text.ts): a patient reference is a chart number, refused
// with a message under the field when it is a name, too long (typed whole, not cut by the input)
// or holds an invisible character, at a phone's size and a desktop's. Nothing is drawn.
import { attachScreenshot, expect, expectNoSidewaysScroll, sealedVial, signIn, test } from "./support";

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport });

    test("a patient reference that is a name, too long or holds an invisible character is refused under the field", async ({
      page,
    }, testInfo) => {
      await signIn(page, "admin@demo.clinic");
      await expect(page).toHaveURL(/\/$/);
      const vial = await sealedVial(page);
      await page.goto(`/inventory/${vial.id}`);
      const units = page.getByLabel("Units (U)");
      const patientRef = page.getByLabel("Patient reference");
      const error = page.locator("[id$='patientRef-error']");
      const refused = async (typed: string, message: string | RegExp) => {
        await units.fill("5");
        await patientRef.fill(typed);
        await page.getByRole("button", { name: "Record draw" }).click();
        await expect(error).toHaveText(message);
        await expect(patientRef).toHaveAttribute("aria-invalid", "true");
      };

      await refused(
        "C".repeat(70),
        "A patient reference (e.g. a chart number, never a name) has at most 64 characters.",
      );
      // Typed whole: the input does not cut it to 64 without a word.
      await expect(patientRef).toHaveValue("C".repeat(70));
      await refused("CH-\u200b1042", /invisible or control character \(U\+200B\)/);
      await refused("Jane Doe", "Use the chart number, not a name.");
      await expect(page.locator('[data-state="sealed"]').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await patientRef.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`patient-ref-${size}.png`), fullPage: true });
      await attachScreenshot(page, testInfo, `patient-ref-${size}`);
    });
  });
}

test("a search box with a pasted invisible character says so before it is sent", async ({ page }) => {
  await signIn(page, "admin@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/products");
  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill("Bo\u200btox");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/products$/);
  expect(await search.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  // The browser's bubble shows the title under its own "Please match the requested format."
  await expect(search).toHaveAttribute("title", /Remove the invisible or control character/);
  // Sent anyway (a link, an old bookmark): the list searches for what was seen, and loads.
  await page.goto("/products?q=Bo%E2%80%8Btox%00");
  await expect(search).toHaveValue("Botox");
  await expect(page.getByRole("link", { name: /Botox/ }).first()).toBeVisible();
});

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`receiving refuses a lot a GS1 barcode could not carry, under the field, at ${size} size`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await signIn(page, "manager@demo.clinic"); // MANAGER at Westside
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/receiving");
    await page.getByLabel(/Reference/).fill(`TXT-${Date.now().toString(36).toUpperCase()}`);
    await page.getByRole("button", { name: "Start receiving" }).click();
    await expect(page).toHaveURL(/\/add-products$/);

    const variation = page.getByLabel("Product variation");
    const botox = await variation.locator("option", { hasText: "Botox Cosmetic · 100 U vial" }).first().textContent();
    await variation.selectOption({ label: botox ?? "" });
    await page.getByLabel("Quantity").fill("1");
    await page.getByLabel("Lot").fill("LOT💉1");
    await page.getByLabel("Expiration date").fill("2028-06-30");
    await page.getByRole("button", { name: "Add line" }).click();
    await expect(page.locator("[id$='lot-error']")).toHaveText(
      `A lot number holds only what a GS1 barcode can: letters A–Z and a–z, digits and ! " % & ' ( ) * + , - . / : ; < = > ? _, no spaces.`,
    );
    await expect(page.getByLabel("Lot")).toHaveValue("LOT💉1");
    await page.getByLabel("Lot").scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`lot-${size}.png`), fullPage: true });

    // Nothing was added: the receipt is cancelled, leaving the shared database as it was.
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Cancel receipt" }).click();
    await expect(page.getByTestId("toast")).toBeVisible();
  });
}
