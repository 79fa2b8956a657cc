// Checking before sending (app/forms/check-before-send.ts, ADR 0023): once the page is up, a wrong
// draw amount and a wrong receipt line quantity are told under the field with the server's own
// message, and no request leaves the page; zod runs there under the page's CSP (the support
// fixture fails a test on any violation, and zod's `new Function` probe would be one). Without
// JavaScript the server says the same words. Screenshots at a phone's size and a desktop's.
import type { Page } from "@playwright/test";
import { LINE_MESSAGES } from "../../app/receiving/constants";
import { VIAL_MESSAGES } from "../../app/vials/forms";
import { expect, sealedVial, signIn, test } from "./support";

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };

/** Every POST the page sends from now on (a form's action, a fetcher's). */
function postsOf(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  return posts;
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport });

    test("a wrong draw amount is told under the field before anything is sent", async ({ page }, testInfo) => {
      await signIn(page, "admin@demo.clinic");
      await expect(page).toHaveURL(/\/$/);
      const vial = await sealedVial(page);
      await page.goto(`/inventory/${vial.id}`);
      const form = page.getByRole("form", { name: "Record draw" });
      await expect(form).toHaveAttribute("data-check", "ready");

      const posts = postsOf(page);
      const units = page.getByLabel("Units (U)");
      await units.fill("0");
      await page.getByRole("button", { name: "Record draw" }).click();
      await expect(page.locator("[id$='units-error']")).toHaveText(VIAL_MESSAGES.units);
      await expect(units).toHaveAttribute("aria-invalid", "true");
      await expect(units).toBeFocused();
      await expect(units).toHaveValue("0");
      expect(posts).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`draw-units-${size}.png`) });
      // Still sealed: nothing was drawn.
      await expect(page.locator('[data-state="sealed"]').first()).toBeVisible();
    });

    test("a wrong receipt line quantity is told under the field before anything is sent", async ({
      page,
    }, testInfo) => {
      await signIn(page, "manager@demo.clinic"); // MANAGER at Westside
      await expect(page).toHaveURL(/\/$/);
      await page.goto("/receiving");
      await page.getByLabel(/Reference/).fill(`CHK-${Date.now().toString(36).toUpperCase()}`);
      await page.getByRole("button", { name: "Start receiving" }).click();
      await expect(page).toHaveURL(/\/add-products$/);
      await expect(page.locator("form[data-check]")).toHaveAttribute("data-check", "ready");

      const posts = postsOf(page);
      const variation = page.getByLabel("Product variation");
      const botox = await variation.locator("option", { hasText: "Botox Cosmetic · 100 U vial" }).first().textContent();
      await variation.selectOption({ label: botox ?? "" });
      const quantity = page.getByLabel("Quantity");
      await quantity.fill("0");
      await page.getByRole("button", { name: "Add line" }).click();
      await expect(page.locator("[id$='quantity-error']")).toHaveText(LINE_MESSAGES.quantity);
      await expect(quantity).toHaveAttribute("aria-invalid", "true");
      await expect(quantity).toBeFocused();
      expect(posts).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`line-quantity-${size}.png`) });

      // Nothing was added: the receipt is cancelled, leaving the shared database as it was.
      page.once("dialog", (dialog) => dialog.accept());
      await page.getByRole("button", { name: "Cancel receipt" }).click();
      await expect(page.getByTestId("toast")).toBeVisible();
    });
  });
}

test("without JavaScript the server tells a wrong draw amount in the same words", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: SIZES.phone });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic");
  const vial = await sealedVial(page);
  await page.goto(`/inventory/${vial.id}`);
  await page.getByLabel("Units (U)").fill("0");
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Record draw" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.locator("[id$='units-error']")).toHaveText(VIAL_MESSAGES.units);
  await context.close();
});
