import { expect } from "@playwright/test";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { expectSignedInAs, signIn, test } from "./support";

test("an anonymous visit to / lands on the login screen", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Clinic Inventory" })).toBeVisible();
});

for (const user of DEMO_USERS) {
  test(`${user.email} signs in, sees their name and logs out`, async ({ page }) => {
    await signIn(page, user.email);
    await expectSignedInAs(page, `${user.firstName} ${user.lastName}`);

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });
}

test("a wrong password shows the spec's message and keeps the user on the login screen", async ({ page }) => {
  await signIn(page, "staff@demo.clinic", "wrong-password");
  await expect(page.getByRole("alert")).toHaveText("Invalid credentials");
  await expect(page).toHaveURL(/\/login/);
});

test("an empty form says what is missing", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter your email address.")).toBeVisible();
  await expect(page.getByText("Enter your password.")).toBeVisible();
});

test("the login form works before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "manager@demo.clinic");
  await expectSignedInAs(page, "Maria Manager");
  await context.close();
});

test("a deep link survives the detour through the login screen", async ({ page }) => {
  await page.goto("/?tab=1");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2F%3Ftab%3D1$/);
  await page.getByLabel("Email").fill("owner@demo.clinic");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/\?tab=1$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText("Olivia Owner");
});

test("/health answers ok with the database reachable", async ({ request }) => {
  const response = await request.get("/health");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ status: "ok", database: "ok" });
  expect(typeof body.version).toBe("string");
  expect(Number.isNaN(Date.parse(body.time))).toBe(false);
});

test("a sign-in posted from another site is refused", async ({ request }) => {
  const response = await request.post("/login", {
    form: { email: "staff@demo.clinic", password: "demo-password" },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});
