import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const [name, viewport] of [["phone", { width: 390, height: 844 }], ["desk", { width: 1280, height: 900 }]]) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto("http://127.0.0.1:8870/login");
  await page.getByLabel("Email").fill("admin@demo.clinic");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname !== "/login");
  await page.goto("http://127.0.0.1:8870/receiving");
  await context.setOffline(true);
  await page.waitForSelector("[data-testid=connectivity-banner]");
  await page.screenshot({ path: `/tmp/shot-banner-${name}.png`, fullPage: false });
  await browser.contexts();
  await context.close();
}
await browser.close();
