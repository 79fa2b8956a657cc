// The service worker (issue #25, app/service-worker/): the cart's screens seen online are shown
// offline from their saved copies, marked with their age; a screen never seen shows the worker's
// offline page; a sign-out leaves nothing of the person's behind.
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./support";

const NOTICE = /^Saved copy from \d{1,2}:\d{2}, just now: changes made elsewhere since then are not shown$/;

/** Signed in, with the worker (registered by the first page) answering this page's requests. */
async function signInWithWorker(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
}

/** What the worker's caches hold besides the build's assets, the icons and route discovery (nobody's): one person's copies. */
function savedAddresses(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    const nobodys = (path: string) => /^\/(assets\/|__manifest$|favicon\.)/.test(path);
    return urls.filter((url) => !nobodys(new URL(url).pathname));
  });
}

/** A vial's page linked from the inventory (the first row). */
async function firstVial(page: Page): Promise<string> {
  const href = await page.locator('main a[href^="/inventory/"]').first().getAttribute("href");
  if (!href) throw new Error("the inventory lists no vial");
  return href;
}

test.describe("offline pages", () => {
  test.afterEach(async ({ context }) => {
    await context.setOffline(false);
  });

  test("the inventory and a vial's page, seen online, show offline from their saved copies with their age", async ({
    page,
    context,
  }) => {
    await signInWithWorker(page, "staff@demo.clinic");
    await page.goto("/inventory");
    await expect(page.getByRole("heading", { level: 1, name: "Inventory" })).toBeVisible();
    const vial = await firstVial(page);
    await page.goto(vial);
    const heading = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
    expect(heading).not.toBe("");
    // Online, the pages are the server's: no notice.
    await expect(page.getByTestId("saved-copy-notice")).toHaveCount(0);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);

    await page.goto("/inventory");
    await expect(page.getByRole("heading", { level: 1, name: "Inventory" })).toBeVisible();
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);

    // A link between saved screens, followed offline, lands on the saved copy too.
    await page.locator(`main a[href="${vial}"]`).first().click();
    await expect(page).toHaveURL(vial);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);

    // A screen that works offline but was never opened here: the worker's page, linking to the saved ones.
    await page.goto("/audit");
    await expect(page.getByRole("heading", { level: 1, name: "No connection" })).toBeVisible();
    await expect(page.getByText("/audit has not been opened on this device")).toBeVisible();
    await expect(page.getByRole("link", { name: "Inventory · Clinic Inventory" })).toHaveAttribute(
      "href",
      "/inventory",
    );
    await expect(page.locator(`a[href="${vial}"]`)).toBeVisible();

    // Back online, the server's page again, with no notice.
    await context.setOffline(false);
    await page.goto("/inventory");
    await expect(page.getByRole("heading", { level: 1, name: "Inventory" })).toBeVisible();
    await expect(page.getByTestId("saved-copy-notice")).toHaveCount(0);
  });

  test("a screen's data fetched in a client-side navigation is saved and shown offline with its age", async ({
    page,
    context,
  }) => {
    await signInWithWorker(page, "staff@demo.clinic");
    await page.goto("/inventory");
    const vial = await firstVial(page);
    // Online, in the app: only the vial page's data crosses the network, and the worker keeps it.
    await page.locator(`main a[href="${vial}"]`).first().click();
    await expect(page).toHaveURL(vial);
    const heading = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Inventory" })).toBeVisible();

    // The worker saved the vial page's document too, beside its data, for a reload offline.
    await expect.poll(() => savedAddresses(page)).toContain(new URL(vial, page.url()).href);

    await context.setOffline(true);
    await page.locator(`main a[href="${vial}"]`).first().click();
    await expect(page).toHaveURL(vial);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);

    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);
  });

  test("a code looked up online on the scan screen is found again offline, from its saved answer", async ({
    page,
    context,
  }) => {
    await signInWithWorker(page, "staff@demo.clinic");
    const listed = await page.request.get("/api/vials?state=sealed&pageSize=5");
    const [vial] = ((await listed.json()) as { items: { labelCode: string; productName: string }[] }).items;
    if (!vial) throw new Error("no sealed vial at Downtown");
    const scan = async () => {
      const field = page.getByLabel("Barcode or label code");
      await field.fill(vial.labelCode);
      await field.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/scan\\?code=${vial.labelCode}$`));
      await expect(page.getByRole("heading", { name: new RegExp(vial.productName) })).toBeVisible();
    };
    await page.goto("/scan");
    await page.waitForLoadState("networkidle");
    await scan();
    await expect
      .poll(() => savedAddresses(page))
      .toContain(new URL(`/api/barcodes/${vial.labelCode}`, page.url()).href);

    // A fresh page offline (nothing in the page's own memory): the saved screen, the saved lookup.
    await context.setOffline(true);
    await page.goto("/scan");
    await expect(page.getByRole("heading", { name: "Scan", level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await scan();
    await expect(page.getByTestId("saved-copy-notice")).toHaveText(NOTICE);
  });

  test("after sign-out nothing of the person's is shown offline", async ({ page, context }) => {
    await signInWithWorker(page, "staff@demo.clinic");
    await page.goto("/inventory");
    const vial = await firstVial(page);
    await page.goto(vial);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login/);

    await context.setOffline(true);
    for (const screen of ["/inventory", vial]) {
      await page.goto(screen);
      await expect(page.getByRole("heading", { level: 1, name: "No connection" })).toBeVisible();
      await expect(page.getByText("This device has no saved copy of any screen yet")).toBeVisible();
    }
    // Nor in the worker's caches, where a script of the next person's session could look.
    expect(await savedAddresses(page)).toEqual([]);
  });
});
