// What a person meets when a form's body is one the server cannot take (ADR 0020): a receiving
// scan pasted far too long is a message under the scan box, on a phone and on a desk, and the
// receipt stays usable; a form post that is not a form is a 415 that says how to send it.
import { expect } from "@playwright/test";
import { attachScreenshot, expectNoSidewaysScroll, signIn, test } from "./support";

const run = Date.now().toString(36).toUpperCase();

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(`a receiving scan over 500 characters says so under the scan box at ${viewport.width} px`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, "manager@demo.clinic");
    await page.goto("/receiving");
    await page.getByLabel(/Reference/).fill(`FB-${run}-${viewport.width}`);
    await page.getByRole("button", { name: "Start receiving" }).click();
    await expect(page).toHaveURL(/\/receiving\/[0-9a-f-]{36}\/add-products$/);

    const box = page.getByLabel("Scan GS1 barcode");
    await box.fill(`(01)00300239211001${"(10)LOT".repeat(100)}`);
    await box.press("Enter");
    await expect(page.getByText(/too long to be one package's barcode/)).toBeVisible();
    await expect(page.getByLabel("Scan GS1 barcode")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await attachScreenshot(page, testInfo, `scan-too-long-${viewport.width}`);
    await page.screenshot({ path: testInfo.outputPath(`scan-too-long-${viewport.width}.png`) });
    await context.close();
  });
}

test("a JSON body posted to a form route is refused with a 415 that says what to send", async ({ page }) => {
  await signIn(page, "manager@demo.clinic");
  const response = await page.request.post("/recalls", {
    data: { intent: "mark", lot: "X" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(415);
  expect(await response.text()).toMatch(/application\/x-www-form-urlencoded/);
});
