// A person with no location (newhire@demo.clinic: no role anywhere, no organization role) gets one
// friendly screen at every URL, not a menu of links that each answer Access Denied; signing out
// and changing the password stay within reach.
import { expect, type Page } from "@playwright/test";
import { NO_LOCATION_TITLE } from "../../app/shell/no-location";
import { signIn, test } from "./support";

const NEWHIRE = "newhire@demo.clinic";

async function expectNoLocationScreen(page: Page) {
  const screen = page.getByTestId("no-location");
  await expect(screen.getByRole("heading", { level: 1 })).toHaveText(NO_LOCATION_TITLE);
  await expect(screen).toContainText(NEWHIRE);
  await expect(screen).toContainText("An administrator must add you to a location");
  await expect(page.getByRole("button", { name: /Reload/ })).toHaveCount(0);
  await expect(page.getByText("Access Denied")).toHaveCount(0);
}

test("after signing in, and at any screen opened by its URL, one screen says to ask an administrator", async ({
  page,
}) => {
  await signIn(page, NEWHIRE);
  await expect(page).toHaveURL(/\/$/);
  await expectNoLocationScreen(page);
  // No menu links to screens that would refuse; the switcher says why.
  await expect(page.getByTestId("sidebar").getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveCount(0);
  await expect(page.getByTestId("sidebar").getByTestId("location-switcher")).toHaveText("No locations assigned");

  for (const path of ["/inventory", "/stock-levels", "/receiving", "/products/par-levels", "/users"]) {
    await page.goto(path);
    await expectNoLocationScreen(page);
  }
});

test("change password and sign out are reachable from the screen", async ({ page }) => {
  await signIn(page, NEWHIRE);
  await page.getByTestId("no-location").getByRole("link", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByLabel("Current password")).toBeVisible();

  await page.goto("/");
  await page.getByTestId("no-location").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("on a phone the screen needs no menu to be understood", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, NEWHIRE);
  await expectNoLocationScreen(page);
  await expect(page.getByTestId("no-location").getByRole("button", { name: "Sign out" })).toBeVisible();
});
