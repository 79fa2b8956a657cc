// Changing a password end to end: forced after an initial password, explained when wrong, and
// ending the user's other sessions. Uses its own fresh users (the e2e database is shared).
import { type Browser, expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

const INITIAL_PASSWORD = "initial-password-42";
const NEW_PASSWORD = "my-very-own-password";

/** The organization admin creates a person at Downtown with an initial password. */
async function freshUser(browser: Browser) {
  const email = `changer-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.clinic`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/users/new");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("First name").fill("Cam");
  await page.getByLabel("Last name").fill("Changer");
  await page.getByLabel("Initial password").fill(INITIAL_PASSWORD);
  await page.getByLabel("Location").selectOption({ label: "Downtown (DTN)" });
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("toast")).toContainText("User created");
  await context.close();
  return email;
}

async function fill(page: Page, current: string, next: string, confirm = next) {
  await page.getByLabel("Current password").fill(current);
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Confirm new password").fill(confirm);
  await page.getByRole("button", { name: "Change password" }).click();
}

test("a signed-out visitor is sent to the login screen", async ({ page }) => {
  await page.goto("/change-password");
  await expect(page).toHaveURL(/\/login$/);
});

test("a user with an initial password must change it, is told what is wrong, and other sessions end", async ({
  browser,
}) => {
  const email = await freshUser(browser);
  const otherDevice = await browser.newContext();
  const other = await otherDevice.newPage();
  await signIn(other, email, INITIAL_PASSWORD);
  await expect(other).toHaveURL(/\/change-password$/);

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, INITIAL_PASSWORD);
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByText("choose your own to continue")).toBeVisible();
  // Every page of the product leads back here until the password is changed.
  await page.goto("/users");
  await expect(page).toHaveURL(/\/change-password$/);

  await fill(page, "not-my-password", NEW_PASSWORD);
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription(
    "Your current password is not correct.",
  );
  await fill(page, INITIAL_PASSWORD, "too-short");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
    /Use at least 12 characters\./,
  );
  await fill(page, INITIAL_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}!`);
  await expect(page.getByLabel("Confirm new password")).toHaveAccessibleDescription(
    "The two new passwords do not match.",
  );
  await fill(page, INITIAL_PASSWORD, INITIAL_PASSWORD);
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
    /Choose a new password that is different from your current one\./,
  );

  await fill(page, INITIAL_PASSWORD, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText("Cam Changer");
  await expect(page.getByTestId("toast")).toContainText("You were signed out on your other devices.");

  // The other device's session ended with the change.
  await other.goto("/");
  await expect(other).toHaveURL(/\/login$/);
  await signIn(other, email, INITIAL_PASSWORD);
  await expect(other.getByRole("alert")).toHaveText("Invalid credentials");
  await signIn(other, email, NEW_PASSWORD);
  await expect(other.getByTestId("signed-in-user")).toHaveText("Cam Changer");

  // Once chosen, the page is optional: it offers the way back to the dashboard.
  await page.goto("/change-password");
  await expect(page.getByRole("link", { name: "Back to the dashboard" })).toBeVisible();
  await context.close();
  await otherDevice.close();
});

test("the change works before JavaScript loads", async ({ browser }) => {
  const email = await freshUser(browser);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, email, INITIAL_PASSWORD);
  await expect(page).toHaveURL(/\/change-password$/);
  await fill(page, INITIAL_PASSWORD, "short");
  await expect(page.getByText("Use at least 12 characters.")).toBeVisible();
  await fill(page, INITIAL_PASSWORD, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText("Cam Changer");
  await context.close();
});
