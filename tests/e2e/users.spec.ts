// User management end to end. The e2e database is shared by every spec file: these tests create
// their own people (unique emails) and never change the demo users' roles, passwords or status.
import { type Browser, expect, type Page } from "@playwright/test";
import { signIn, test } from "./support";

const INITIAL_PASSWORD = "initial-password-42";

function uniqueEmail(name: string) {
  return `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.clinic`;
}

/** The organization admin creates a person through the "New user" form. */
async function createUserAsOwner(
  browser: Browser,
  person: { email: string; firstName: string; lastName: string; location: string; role: string },
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/users/new");
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("First name").fill(person.firstName);
  await page.getByLabel("Last name").fill(person.lastName);
  await page.getByLabel("Initial password").fill(INITIAL_PASSWORD);
  await page.getByLabel("Location").selectOption({ label: person.location });
  await page.getByLabel("Role there").selectOption(person.role);
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("toast")).toContainText("User created");
  await context.close();
}

function userRow(page: Page, email: string) {
  return page.getByRole("row").filter({ hasText: email });
}

test("an organization admin creates a user at Downtown, who must choose a password at first sign-in", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("nurse");
  await signIn(page, "owner@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "New user" }).click();
  await expect(page.getByRole("heading", { name: "New user" })).toBeVisible();

  // A clash and a short password are explained next to their fields.
  await page.getByLabel("Email", { exact: true }).fill("STAFF@demo.clinic");
  await page.getByLabel("First name").fill("Nia");
  await page.getByLabel("Last name").fill("Nurse");
  await page.getByLabel("Initial password").fill("short");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByLabel("Initial password")).toHaveAccessibleDescription(/Use at least 12 characters\./);
  await page.getByLabel("Initial password").fill(INITIAL_PASSWORD);
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription(
    "A user with the email staff@demo.clinic already exists.",
  );

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Initial password").fill(INITIAL_PASSWORD);
  await expect(page.getByLabel("Location")).toHaveValue(/.+/); // the location in scope: Downtown
  await expect(page.getByLabel("Location").locator("option:checked")).toHaveText("Downtown (DTN)");
  await page.getByLabel("Role there").selectOption("STAFF");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("toast")).toContainText("User created");
  const row = userRow(page, email);
  await expect(row).toContainText("Nia Nurse");
  await expect(row).toContainText("DTN");
  await expect(row.locator('[data-role="STAFF"]')).toBeVisible();
  await expect(row).toContainText("Never");

  // The new person signs in and is sent to choose their own password before anything else.
  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await signIn(newcomer, email, INITIAL_PASSWORD);
  await expect(newcomer).toHaveURL(/\/change-password$/);
  await newcomer.goto("/inventory");
  await expect(newcomer).toHaveURL(/\/change-password$/);
  await expect(newcomer.getByRole("heading", { name: "Change your password" })).toBeVisible();
  await newcomer.getByLabel("Current password").fill(INITIAL_PASSWORD);
  await newcomer.getByLabel("New password", { exact: true }).fill("my-own-password-123");
  await newcomer.getByLabel("Confirm new password").fill("my-own-password-123");
  await newcomer.getByRole("button", { name: "Change password" }).click();
  await expect(newcomer).toHaveURL(/\/$/);
  await expect(newcomer.getByTestId("signed-in-user")).toHaveText("Nia Nurse");
  await expect(newcomer.getByTestId("toast")).toContainText("Password changed");
  await expect(newcomer.getByTestId("dashboard-scope")).toContainText("Downtown");
  await context.close();

  await page.reload();
  await expect(userRow(page, email)).not.toContainText("Never");
});

test("a location admin grants and revokes a role at Downtown but cannot manage Westside roles", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("floater");
  await createUserAsOwner(browser, {
    email,
    firstName: "Flo",
    lastName: "Ater",
    location: "Westside (WST)",
    role: "STAFF",
  });

  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown, MANAGER at Westside
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/users");
  await expect(page.getByText("People with a role at Downtown.")).toBeVisible();
  await expect(userRow(page, email)).toHaveCount(0);

  const add = page.getByRole("region", { name: "Add someone who already has an account" });
  await add.getByLabel("Their email").fill("nobody@e2e.clinic");
  await add.getByRole("button", { name: "Add to Downtown" }).click();
  await expect(add.getByLabel("Their email")).toHaveAccessibleDescription(
    "No user with the email nobody@e2e.clinic exists in your organization.",
  );
  await add.getByLabel("Their email").fill(email);
  await add.getByLabel("Role at Downtown").selectOption("MANAGER");
  await add.getByRole("button", { name: "Add to Downtown" }).click();

  await expect(page.getByRole("heading", { name: "Flo Ater" })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Flo Ater is now MANAGER at Downtown.");
  const roles = page.getByRole("region", { name: "Roles" });
  const downtown = roles.getByRole("listitem").filter({ hasText: "Downtown" });
  const westside = roles.getByRole("listitem").filter({ hasText: "Westside" });
  await expect(downtown.locator('[data-role="MANAGER"]')).toBeVisible();
  await expect(westside.locator('[data-role="STAFF"]')).toBeVisible();
  await expect(westside).toContainText("Managed by Westside's admins");
  await expect(westside.getByRole("button")).toHaveCount(0);
  // Someone who also works at Westside: their account is not Downtown's admin's to manage.
  await expect(page.getByRole("button", { name: "Deactivate user" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Reset password" })).toHaveCount(0);

  // The server refuses what the page does not offer: a role change at Westside.
  const mine = await page.request.get("/api/locations/my");
  const westsideId = ((await mine.json()) as { locationId: string; location: { code: string } }[]).find(
    (l) => l.location.code === "WST",
  )?.locationId;
  expect(westsideId).toBeTruthy();
  const forged = await page.request.post(page.url(), {
    form: { intent: "change-role", locationId: westsideId ?? "", role: "ADMIN" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);

  await downtown.getByLabel("Role at Downtown").selectOption("STAFF");
  await page.getByRole("button", { name: "Change role at Downtown" }).click();
  await expect(page.getByTestId("toast")).toContainText("Flo Ater is now STAFF at Downtown.");
  await expect(westside.locator('[data-role="STAFF"]')).toBeVisible();

  await page.getByRole("button", { name: "Remove role at Downtown" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByTestId("toast")).toContainText("Flo Ater no longer has a role at Downtown.");
  await expect(userRow(page, email)).toHaveCount(0);
});

test("a manager sees the users of Westside without any controls, and the server refuses a forged change", async ({
  page,
}) => {
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/users");
  await expect(page.getByText("People with a role at Westside.")).toBeVisible();
  await expect(userRow(page, "admin@demo.clinic")).toBeVisible();
  await expect(page.getByRole("link", { name: "New user" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Add someone who already has an account" })).toHaveCount(0);

  await userRow(page, "admin@demo.clinic").getByRole("link", { name: "Adam Admin" }).click();
  await expect(page.getByRole("heading", { name: "Adam Admin" })).toBeVisible();
  await expect(page.locator("main").getByRole("button")).toHaveCount(0);
  await expect(page.locator("main form")).toHaveCount(0);

  const forgeries: Record<string, string>[] = [
    { intent: "deactivate" },
    { intent: "reset-password", password: "taken-over-password" },
  ];
  for (const form of forgeries) {
    const forged = await page.request.post(page.url(), { form, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
  }
  const forgedCreate = await page.request.post("/users/new", {
    form: { email: uniqueEmail("sneaky"), firstName: "S", lastName: "N", password: INITIAL_PASSWORD },
    maxRedirects: 0,
  });
  expect(forgedCreate.status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Adam Admin" })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();

  // Someone without a role at Westside is not found from here.
  const staffOnly = await page.goto("/users/00000000-0000-7000-8000-000000000000");
  expect(staffOnly?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "User not found" })).toBeVisible();
  await expect(page.getByTestId("sidebar")).toBeVisible();
});

test("a staff member opening /users gets the Access Denied screen", async ({ page }) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const response = await page.goto("/users");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});

test("deactivating a user signs them out at once and keeps them out until reactivated", async ({ page, browser }) => {
  const email = uniqueEmail("leaver");
  await createUserAsOwner(browser, {
    email,
    firstName: "Lee",
    lastName: "Ver",
    location: "Downtown (DTN)",
    role: "STAFF",
  });
  const context = await browser.newContext();
  const leaver = await context.newPage();
  await signIn(leaver, email, INITIAL_PASSWORD);
  await expect(leaver).toHaveURL(/\/change-password$/);

  await signIn(page, "admin@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/users?q=${encodeURIComponent(email)}`);
  await userRow(page, email).getByRole("link", { name: "Lee Ver" }).click();
  await page.getByRole("button", { name: "Deactivate user" }).click();
  await expect(page.getByTestId("toast")).toContainText("Lee Ver can no longer sign in and was signed out everywhere.");
  await expect(page.getByText("Inactive", { exact: true })).toBeVisible();

  await leaver.reload();
  await expect(leaver).toHaveURL(/\/login/);
  await signIn(leaver, email, INITIAL_PASSWORD);
  await expect(leaver.getByRole("alert")).toContainText("deactivated");

  await page.getByRole("button", { name: "Reactivate user" }).click();
  await expect(page.getByTestId("toast")).toContainText("Lee Ver can sign in again.");
  await signIn(leaver, email, INITIAL_PASSWORD);
  await expect(leaver).toHaveURL(/\/change-password$/);
  await context.close();
});
