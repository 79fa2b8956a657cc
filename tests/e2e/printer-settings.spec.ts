// Printer settings end to end: an admin at Downtown adds a ZPL profile for a 2 × 1 in Zebra
// sticker, test-prints it (the sample label's barcode decodes to the sample code) and downloads its
// ZPL; a manager may look but not change. The e2e database is shared: the profile name is unique
// and it is not made the default, so other specs' labels do not change.
import { expect } from "@playwright/test";
import { decodeBarcodes } from "../support/decode-barcode";
import { signIn, test } from "./support";

test("an admin adds a ZPL profile, test-prints it and downloads its ZPL; a manager only reads", async ({ browser }) => {
  const context = await browser.newContext({ deviceScaleFactor: 4 });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown
  await expect(page).toHaveURL(/\/$/);

  const name = `Zebra ZD421 ${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/printer-settings");
  await page.getByRole("link", { name: "New printer profile" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Print with").selectOption({ label: "ZPL for a Zebra printer" });
  await page.getByLabel("Label size").selectOption({ label: "2 × 1 in (50.8 × 25.4 mm)" });
  await expect(page.getByLabel("Width (mm)")).toHaveValue("50.8");
  await expect(page.getByLabel("Height (mm)")).toHaveValue("25.4");
  await page.getByLabel("Printer resolution").selectOption("300");
  await page.getByLabel("Barcode", { exact: true }).selectOption({ label: "Code 128" });
  await page.getByRole("button", { name: "Create printer profile" }).click();
  await expect(page.getByTestId("toast")).toContainText("Printer profile created");

  await page.goto("/printer-settings");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: "Test print" }).click();
  await expect(page.getByRole("heading", { name: `Test print: ${name}` })).toBeVisible();
  const label = page.locator("[data-label-code]");
  await expect(label).toHaveCount(1);
  await expect(label).toContainText("SAMPLE");
  expect(decodeBarcodes(await label.screenshot()).code128).toBe("VTEST00000");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download ZPL" }).click();
  const zpl = await (await download).createReadStream();
  let text = "";
  for await (const chunk of zpl) text += chunk;
  // 2 × 1 in at 300 dpi is 600 × 300 dots; the sample label code is a Code 128 field.
  expect(text).toMatch(/^\^XA/);
  expect(text).toContain("^PW600");
  expect(text).toContain("^LL300");
  expect(text).toContain("^BC");
  expect(text).toContain("VTEST00000");
  expect(text.trimEnd()).toMatch(/\^XZ$/);
  await context.close();

  // A manager at Westside sees its profiles (the seeded default among them) but cannot add one.
  const manager = await browser.newContext();
  const managerPage = await manager.newPage();
  await signIn(managerPage, "manager@demo.clinic");
  await managerPage.goto("/printer-settings");
  await expect(managerPage.getByRole("row").filter({ hasText: "Vial labels 2.25 × 1.25 in" })).toBeVisible();
  await expect(managerPage.getByRole("link", { name: "New printer profile" })).toHaveCount(0);
  const refused = await managerPage.goto("/printer-settings/new");
  expect(refused?.status()).toBe(403);
  await manager.close();
});
