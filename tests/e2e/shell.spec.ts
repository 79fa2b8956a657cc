import { expect, type Page } from "@playwright/test";
import { BASIC_MENU, FULL_MENU } from "../../app/shell/menu";
import { controlPort, signIn, test } from "./support";

const FULL = FULL_MENU.flatMap((g) => g.items.map((i) => i.label));
const BASIC = BASIC_MENU.flatMap((g) => g.items.map((i) => i.label));

const MENUS: Record<string, string[]> = {
  "owner@demo.clinic": FULL,
  "admin@demo.clinic": FULL,
  "manager@demo.clinic": FULL,
  "staff@demo.clinic": BASIC,
  "multi@demo.clinic": BASIC,
  // No location: no menu at all, one screen saying to ask an administrator (tests/e2e/no-location.spec.ts).
  "newhire@demo.clinic": [],
};

const sidebar = (page: Page) => page.getByTestId("sidebar");

/** The switcher's choices (submit buttons of its "Where you work" form). */
const switcherChoices = (page: Page) => page.getByRole("form", { name: "Where you work" }).getByRole("button");

async function openSwitcher(page: Page) {
  await sidebar(page).getByTestId("location-switcher").locator("summary").click();
  await expect(switcherChoices(page).first()).toBeVisible();
}

for (const [email, menu] of Object.entries(MENUS)) {
  test(`${email} sees exactly the spec's menu`, async ({ page }) => {
    await signIn(page, email);
    await expect(page).toHaveURL(/\/$/);
    await expect(sidebar(page).getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(menu);
    await expect(sidebar(page).getByRole("button", { name: "Logout" })).toBeVisible();
  });
}

test.describe("location switcher", () => {
  test("an organization admin gets ALL LOCATIONS and every location as ADMIN", async ({ page }) => {
    await signIn(page, "owner@demo.clinic");
    await openSwitcher(page);
    const options = switcherChoices(page);
    await expect(options).toHaveCount(4);
    await expect(options.nth(0)).toContainText("ALL LOCATIONS");
    await expect(options.nth(0)).toContainText("Manage all locations");
    for (const name of ["Downtown", "North", "Westside"]) {
      const option = switcherChoices(page).filter({ hasText: new RegExp(name) });
      await expect(option.locator("[data-role]")).toHaveText("ADMIN");
    }
  });

  test("a multi-location admin sees each location with its own badge colour", async ({ page }) => {
    await signIn(page, "admin@demo.clinic");
    await openSwitcher(page);
    await expect(switcherChoices(page)).toHaveCount(2);
    const admin = switcherChoices(page)
      .filter({ hasText: /Downtown/ })
      .locator("[data-role]");
    const manager = switcherChoices(page)
      .filter({ hasText: /Westside/ })
      .locator("[data-role]");
    await expect(admin).toHaveText("ADMIN");
    await expect(manager).toHaveText("MANAGER");
    await expect(admin).toHaveCSS("background-color", /rgb\(25\d, 2\d\d, 2\d\d\)|oklch\(0\.936 0\.032 17/);
    await expect(manager).toHaveCSS("background-color", /rgb\(2\d\d, 23\d, 25\d\)|oklch\(0\.932 0\.032 255/);
  });

  test("one location and no organization role: a static name and badge, no picker", async ({ page }) => {
    await signIn(page, "manager@demo.clinic");
    const switcher = sidebar(page).getByTestId("location-switcher");
    await expect(switcher).toContainText("Westside");
    await expect(switcher.locator("[data-role]")).toHaveText("MANAGER");
    await expect(switcher.getByRole("button")).toHaveCount(0);
  });

  test("no locations: 'No locations assigned'", async ({ page }) => {
    await signIn(page, "newhire@demo.clinic");
    await expect(sidebar(page).getByTestId("location-switcher")).toHaveText("No locations assigned");
  });

  test("switching shows the spec's toast and lands on the dashboard", async ({ page }) => {
    await signIn(page, "multi@demo.clinic");
    await page.goto("/inventory");
    await openSwitcher(page);
    await switcherChoices(page).filter({ hasText: /North/ }).click();
    await expect(page).toHaveURL(/\/$/);
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Location Changed");
    await expect(toast).toContainText("Switched to North");
    await expect(page.getByTestId("dashboard-scope")).toHaveText("Working at North (NTH).");
    expect(await page.evaluate(() => localStorage.getItem("selectedLocationId"))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem("isOrganizationMode"))).toBe("false");
    // The choice is remembered by the server too.
    await page.reload();
    await expect(page.getByTestId("dashboard-scope")).toHaveText("Working at North (NTH).");
  });

  test("switching works before JavaScript loads, as on a slow clinic PC", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, "multi@demo.clinic");
    await page.goto("/products");
    await openSwitcher(page);
    await switcherChoices(page).filter({ hasText: /North/ }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("toast")).toContainText("Switched to North");
    await expect(page.getByTestId("dashboard-scope")).toHaveText("Working at North (NTH).");
    await context.close();
  });

  test("Escape closes the switcher and gives focus back to it", async ({ page }) => {
    await signIn(page, "owner@demo.clinic");
    await openSwitcher(page);
    await switcherChoices(page).first().focus();
    await page.keyboard.press("Escape");
    await expect(switcherChoices(page).first()).toBeHidden();
    await expect(sidebar(page).getByTestId("location-switcher").locator("summary")).toBeFocused();
  });

  test("organization mode shows its toast and is remembered", async ({ page }) => {
    await signIn(page, "owner@demo.clinic");
    await page.goto("/products");
    await openSwitcher(page);
    await switcherChoices(page)
      .filter({ hasText: /ALL LOCATIONS/ })
      .click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("toast")).toContainText("Organization Mode");
    await expect(page.getByTestId("toast")).toContainText("Switched to organization-wide view");
    await expect(page.getByTestId("dashboard-scope")).toHaveText("Viewing all locations of the organization.");
    expect(await page.evaluate(() => localStorage.getItem("isOrganizationMode"))).toBe("true");
  });
});

test.describe("toasts", () => {
  test("F8 moves focus to the notifications and a swipe right dismisses", async ({ page }) => {
    await signIn(page, "admin@demo.clinic");
    await openSwitcher(page);
    await switcherChoices(page)
      .filter({ hasText: /Westside/ })
      .click();
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    await page.keyboard.press("F8");
    await expect(page.getByRole("list", { name: "Notifications (F8)" })).toBeFocused();
    const box = await toast.boundingBox();
    if (!box) throw new Error("toast has no box");
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 90, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(toast).toHaveCount(0);
  });
});

test.describe("phones", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("under 768 px the menu is a 20rem drawer that closes on navigation", async ({ page }) => {
    await signIn(page, "admin@demo.clinic");
    await expect(sidebar(page)).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByTestId("drawer");
    await expect(drawer).toBeVisible();
    // 20rem at the default 16 px root size (sub-pixel noise from the slide-in transform aside).
    expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(320);
    await drawer.getByRole("link", { name: "Inventory", exact: true }).click();
    await expect(page).toHaveURL(/\/inventory$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { name: "Inventory" })).toBeVisible();
  });
});

test("a staff user opening /users is refused with the Access Denied screen", async ({ page }) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const response = await page.goto("/users");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(
    page.getByText("You do not have permission to access this resource. Please contact your administrator."),
  ).toBeVisible();
  await expect(page.getByText(/err_\d+_[0-9a-z]+/)).toBeVisible();
});

test("an unknown path shows the not-found screen inside the shell", async ({ page }) => {
  await signIn(page, "manager@demo.clinic");
  const response = await page.goto("/no-such-screen");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
});

test("when the database is stopped the database boundary explains it", async ({ page, request, baseURL }) => {
  const control = `http://127.0.0.1:${controlPort(Number(new URL(baseURL ?? "").port))}`;
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await request.post(`${control}/database/stop`);
  try {
    const response = await page.goto("/inventory");
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "Database Connection Issue" })).toBeVisible();
    await expect(page.getByText("Data Safety Notice")).toBeVisible();
    await expect(page.getByRole("button", { name: "Retry Connection" })).toBeVisible();
    const health = await request.get("/health");
    expect(health.status()).toBe(503);
    expect(await health.json()).toMatchObject({ database: "unavailable" });
  } finally {
    await request.post(`${control}/database/start`);
  }
  await page.getByRole("button", { name: "Retry Connection" }).click();
  await expect(page.getByRole("heading", { name: "Inventory" })).toBeVisible();
});

test("server-rendered pages hydrate without errors, refusals included", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  for (const [email, paths] of [
    ["owner@demo.clinic", ["/", "/users", "/locations", "/inventory", "/no-such-screen"]],
    ["staff@demo.clinic", ["/", "/users", "/receiving"]],
  ] as const) {
    await signIn(page, email);
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    await page.context().clearCookies();
  }
  expect(errors).toEqual([]);
});
